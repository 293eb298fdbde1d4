#pragma once
// bq-dp-mixture (BQ paper Fig. 1.5, METHODS.md §2b): the evidence of a DP mixture of 1-D Gaussian
// or Student-t components, p(x) = ∫ p(x | G) dDP(G | α, N(λ, σ_p²)), estimated by BQ over mixing
// measures G from S likelihood evaluations (Gibbs draws, prior draws or both), beside the exact
// evidence (a sum over set partitions, n ≤ 14) and plain Monte Carlo over M = 2000 prior draws.
// Kernels: the paper's bilinear (1.74)+(1.78) with closed-form z, V (1.79)/(1.80), and
// exp(−MMD²/2ℓ²) with z, V by Monte Carlo over the prior draws; a GP on f or WSABI-L.
// One sample set, drawn at λ = sample_base_mean with Gaussian components, serves every query:
// moving λ, components or dof re-evaluates p(x | G) at the samples and solves again.

#include "core/scenario.h"
#include "scenarios/quadrature/bq_dp_mixture_state.h"

#include <map>
#include <mutex>

namespace evx::scenarios {

class BqDpMixtureScenario final : public Scenario {
public:
    BqDpMixtureScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    ScenarioInputs inputs() const override;
    std::vector<WorkBudget> workBudget(const RunInput& input) const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;
    Figure runWith(const RunInput& input, const RunContext& context) const override;

    // The data a run uses: the file's single column (4–14 values, not all equal) or
    // simulateDpData(n, seed). Throws InvalidParameter.
    static std::vector<double> dataFor(const ParameterValues& values, const std::string& dataPath);

private:
    std::shared_ptr<const dpbq::SampleState> sampleState(const dpbq::SampleKey& key,
                                                         const RunContext& context,
                                                         const dpbq::PartialFigure& partial) const;
    std::shared_ptr<const std::vector<bq::structured::MixingMeasure>> priorDraws(double alpha) const;

    ParameterSchema m_schema;
    // Caches: pure functions of their keys, so run() stays pure whatever they hold.
    mutable std::mutex m_cacheMutex;
    mutable std::vector<std::shared_ptr<const dpbq::SampleState>> m_states;
    mutable std::map<double, std::shared_ptr<const std::vector<bq::structured::MixingMeasure>>> m_priorDraws;
};

} // namespace evx::scenarios
