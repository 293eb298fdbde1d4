#pragma once
// wvo-normal-hyper: the WVO paper's two-level example (Sec. 3.2, Fig. 3): the Normal model
// with a hyperprior on the mean. The paper's formulas were lost in extraction; this
// scenario uses (stated in its explanation page)
//   m ~ N(0, s_m²),  σ ~ half-N(0, s_σ²)    hyperparameters θ = (m, σ)
//   μ | m ~ N(m, τ²)                         the intermediate latent variable φ
//   y_j | μ, σ ~ N(μ, σ²), j = 1..10          the same data as wvo-normal.
// p(y | m, σ) is exact (μ integrated out in closed form). A virtual observation is either a
// whole virtual group of N values sharing one μ (Cor. 1; the default, Σ w = 1 group) or a
// single value with its own μ (Thm 4 read literally; Σ w = N). Either way
// p(ỹ | θ) = ∫ p(ỹ | μ, σ) p(μ | m) dμ is estimated once by Monte Carlo over S forward draws
// μ_s = m + τ z_s (common random numbers z_s), or exactly (S = 0). Single observations cannot
// express that the data share one μ, so that form reconstructs only approximately.

#include "core/scenario.h"

namespace evx::scenarios {

class WvoNormalHyperScenario final : public Scenario {
public:
    WvoNormalHyperScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    std::vector<WorkBudget> workBudget(const RunInput& input) const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
