#pragma once
// ue-discrete: uncertain evidence on a discrete observable (uncertain-evidence paper, eq. 1
// and eq. 3): the same numbers read as likelihood ratios (virtual evidence) or as a target
// marginal (Jeffrey's rule), and the equivalence λ_k ∝ q(y_k) / p(y_k) between the two.

#include "core/scenario.h"

namespace evx::scenarios {

class DiscreteScenario final : public Scenario {
public:
    static constexpr int kMaxStates = 4;

    DiscreteScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
