#pragma once
// bq-dp-mixture's work that does not depend on the query (λ, components, dof): one sample set of
// mixing measures drawn at the sampling point (Gaussian components, λ = sample_base_mean), its
// kernel matrices factored once (StructuredBq), and the curves of Fig. 1.5 drawn from it:
// the evidence against λ (Gaussian components), against the dof of Student-t components at the
// sampling λ, and against the number of evaluations at the sampling point, each beside the exact
// evidence (dp_exact.h) and plain Monte Carlo over the M prior draws that give z and V.
// A query then costs one likelihood per sample and one solve per hyperparameter setting.

#include "bq/structured/dp_gibbs.h"
#include "bq/structured/structured_bq.h"
#include "core/run_context.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace evx::scenarios::dpbq {

inline constexpr int kPriorDraws = 2000;
inline constexpr std::uint64_t kPriorDrawSeed = 0x5eed0d1aULL;

struct SampleKey {
    std::vector<double> x;
    double componentSd = 1, baseSd = 3, alpha = 1, sampleBaseMean = 0;
    bool paperKernel = false;
    bq::structured::DpDesign design = bq::structured::DpDesign::Mixed;
    bool wsabi = true;
    int samples = 100;
    std::uint64_t seed = 1;
};

// One estimate as evidence values (not scaled): NaN log where the mean is not positive.
struct EvidencePoint {
    double mean = 0, sd = 0;
    double logMean() const;
};
EvidencePoint evidencePoint(const bq::structured::StructuredEstimate& e);

struct Curve {
    std::vector<double> at;
    std::vector<double> exactLog, mcLog;
    std::vector<EvidencePoint> bq;
};

struct SampleState {
    SampleKey key;
    bq::structured::DpSettings sampling; // Gaussian, λ = sample_base_mean
    std::vector<bq::structured::DpDesignSample> samples;
    std::vector<bq::structured::MixingMeasure> measures;
    std::shared_ptr<const std::vector<bq::structured::MixingMeasure>> priorDraws;
    std::shared_ptr<const bq::structured::StructuredBq> bq;
    int posteriorCount = 0;
    Curve overBaseMean; // Gaussian components
    Curve overDof;      // Student-t components at the sampling λ
    Curve overSamples;  // at the sampling point; mcLog over the first s prior draws
    double gaussianExactLog = 0, gaussianMcLog = 0;
    EvidencePoint gaussianBq;
    std::vector<double> predictiveX, predictiveDensity; // posterior predictive at the sampling point
};

// Hyperparameter grid sizes, for the work budget.
int hyperparameterCount(bool paperKernel);

std::vector<double> baseMeanGrid();
std::vector<double> dofGrid();

// log (1/M) Σ_m exp(logF_m).
double logMeanExp(const std::vector<double>& logF);

// Draws the samples (publishing `partial` figures while it does), factors the kernels and
// computes the curves; polls context.checkCancelled() between steps.
using PartialFigure = std::function<Figure(const std::vector<bq::structured::DpDesignSample>&, double)>;
std::shared_ptr<const SampleState>
buildSampleState(const SampleKey& key,
                 std::shared_ptr<const std::vector<bq::structured::MixingMeasure>> priorDraws,
                 const RunContext& context, const PartialFigure& partial);

} // namespace evx::scenarios::dpbq
