#pragma once
// wvo-normal: the WVO paper's second example (Sec. 3.1, Fig. 2): y ~ N(μ, σ²) with the
// non-informative prior p(μ, σ) ∝ 1/σ and 10 observations. Posterior draws are exact
// (σ² ~ scaled-Inv-χ²(n − 1, s²), μ | σ ~ N(ȳ, σ²/n)); the original, unweighted-virtual and
// weighted-virtual posteriors are tabulated on one (μ, σ) grid, where a weighted sample
// enters through its sufficient statistics Σw, Σwỹ, Σwỹ².

#include "core/scenario.h"

namespace evx::scenarios {

class WvoNormalScenario final : public Scenario {
public:
    WvoNormalScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
