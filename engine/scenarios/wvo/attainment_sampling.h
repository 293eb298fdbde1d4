#pragma once
// The sampling side of wvo-attainment (attainment_scenario.h): a weighted set of schools as
// the sampler's target, where its walkers start, and how far apart two sampled posteriors are.

#include "core/run_context.h"
#include "models/attainment_sampled_intercepts.h"
#include "models/attainment_school_set.h"
#include "models/scots_attainment.h"
#include "sampling/ensemble_sampler.h"

#include <Eigen/Core>

#include <optional>
#include <vector>

namespace evx::scenarios::attainment_sampling {

// A weighted set of schools (real or virtual) as one log density over θ; virtual schools
// that share a design enter through `shared`, collapsed (O(n²) per θ, not O(K n)). The
// schools are evaluated from sufficient statistics (models::AttainmentSchoolSet), built by
// finish() once the set is complete; the full and the incremental run use the same code.
// Schools in `sampled` instead have their intercepts sampled after θ, and then every school
// is evaluated pupil by pupil (models::SampledInterceptSchools: the paper's form of the model).
struct WeightedSchools {
    std::vector<const models::Pupils*> schools;
    std::vector<double> weights;
    std::vector<const models::Pupils*> sampled;
    const models::SharedDesignSchools* shared = nullptr;
    std::optional<models::AttainmentSchoolSet> set;
    std::optional<models::SampledInterceptSchools> pupilByPupil;
    void finish();
    double operator()(const Eigen::VectorXd& t) const;
    int dimension() const { return models::kAttainmentDim + static_cast<int>(sampled.size()); }
    std::size_t observations() const;
};

// A starting point for the walkers: least squares on all pupils.
Eigen::VectorXd startingPoint(const models::AttainmentData& d);

// The ensemble's walkers for a target of dimension d.
constexpr int walkersFor(int dimension)
{
    return 4 * dimension + 4;
}

// walkersFor(d) walkers for the target's dimension d, in a ball of 0.01 around θ = start and, with
// sampled intercepts, each school's mean of y − β·x under it.
sampling::EnsembleResult sample(const WeightedSchools& target, const Eigen::VectorXd& start,
                                sampling::EnsembleOptions opt, const RunContext& context,
                                const sampling::EnsembleProgress& onProgress = {});

// KL between Gaussians fitted to two sample sets (moment matching): a summary of how far
// apart two sampled posteriors are, where no density is available.
double gaussianKl(const Eigen::MatrixXd& p, const Eigen::MatrixXd& q);

} // namespace evx::scenarios::attainment_sampling
