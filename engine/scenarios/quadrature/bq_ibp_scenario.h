#pragma once
// bq-ibp (BQ paper Fig. 1.4, METHODS.md §2b): the evidence of the linear-Gaussian IBP,
// p(X) = Σ_[Z] P([Z]) p(X | Z), estimated by BQ over feature matrices from S likelihood
// evaluations (Gibbs draws at sample_sigma_x, sample_sigma_a; prior draws; or both), beside the
// exact evidence (enumeration of column-type counts, N ≤ 5) and plain Monte Carlo over M = 2000
// prior draws. Kernels: the paper's (1.70) with (1.72)/(1.73), and exp(−‖ZZᵀ − Z'Z'ᵀ‖²/2ℓ²) with
// z, V over the exact prior support (N ≤ 5: the heaviest states plus stratified draws) or the
// prior draws. One sample set serves every (σ_X, σ_A): moving them re-evaluates p(X | Z) at the
// samples (O(N) each from a cached eigendecomposition of ZZᵀ) and solves again.

#include "bq/structured/ibp_enumeration.h"
#include "bq/structured/ibp_model.h"
#include "bq/structured/structured_bq.h"
#include "core/scenario.h"

#include <map>
#include <memory>
#include <mutex>

namespace evx::scenarios {

namespace ibpbq {

// The (σ_X, σ_A) grid of the surface and the σ_X grid of the slice at σ_A = 0.4.
constexpr int kGridSide = 21;
constexpr int kSlicePoints = 31;
constexpr double kSliceSigmaA = 0.4;
constexpr double kSigmaMin = 0.2, kSigmaXMax = 1.2, kSigmaAMax = 2.0;
constexpr int kPriorDraws = 2000;
constexpr int kChainSweeps = 20; // the short chain of the lower-bound check

struct SampleState {
    std::vector<bq::structured::FeatureMatrix> samples;
    std::vector<bq::structured::IbpGramLikelihood> likelihoods;      // per sample
    std::vector<bq::structured::IbpGramLikelihood> priorLikelihoods; // plain Monte Carlo draws
    std::shared_ptr<const bq::structured::StructuredBq> bq;
    bool exactSupport = false;
    double supportExactMass = 0;
    // Over the grid, independent of the current σ's: log10 of the BQ mean (NaN where ≤ 0), the
    // slice's mean, ±2 sd band, Monte Carlo and chain lower bound (log10 each where defined).
    std::vector<double> surface;
    int negativePoints = 0;
    double argmaxSigmaX = 0, argmaxSigmaA = 0;
    std::vector<double> sliceMean, sliceLower, sliceUpper, sliceMc, sliceBound;
    int sliceAlarms = 0; // slice points whose chain lower bound exceeds the BQ mean + 2 sd
};

struct ExactState {
    std::shared_ptr<const bq::structured::IbpEnumeration> enumeration;
    std::shared_ptr<const bq::structured::IbpExactEvidence> evidence;
    std::vector<double> surface; // log10 p(X) over the grid
    std::vector<double> slice;
};

} // namespace ibpbq

class BqIbpScenario final : public Scenario {
public:
    BqIbpScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    ScenarioInputs inputs() const override;
    std::vector<WorkBudget> workBudget(const RunInput& input) const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;
    Figure runWith(const RunInput& input, const RunContext& context) const override;

    // The data of a run: the file (CSV, N ≤ 25 rows, no all-zero row, rows not all equal) or
    // makeIbpToyData(rows, seed). zTrue is empty for a file. Throws InvalidParameter.
    static void dataFor(const ParameterValues& values, const std::string& dataPath, Eigen::MatrixXd& x,
                        Eigen::MatrixXd& zTrue);

private:
    std::shared_ptr<const bq::structured::IbpEnumeration> enumeration(int n, double alpha) const;

    ParameterSchema m_schema;
    // Caches: pure functions of their keys, so run() stays pure whatever they hold.
    mutable std::mutex m_cacheMutex;
    mutable std::map<std::string, std::shared_ptr<const ibpbq::SampleState>> m_states;
    mutable std::map<std::string, std::shared_ptr<const ibpbq::ExactState>> m_exact;
    mutable std::map<std::string, std::shared_ptr<const bq::structured::IbpEnumeration>> m_enumerations;
};

} // namespace evx::scenarios
