#pragma once
// wvo-beta-bernoulli: the WVO paper's first example (Sec. 3.1, Fig. 1): a Bernoulli model
// with a uniform prior on the success probability θ, 12 observations; the posterior is
// rebuilt from K virtual observations drawn from the posterior predictive, unweighted and
// with the weights that maximise L(w) (METHODS.md §3). Everything is conjugate:
// p(θ | ỹ, w) = Beta(1 + Σ w_i ỹ_i, 1 + Σ w_i (1 − ỹ_i)).

#include "core/scenario.h"

namespace evx::scenarios {

class WvoBetaBernoulliScenario final : public Scenario {
public:
    WvoBetaBernoulliScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
