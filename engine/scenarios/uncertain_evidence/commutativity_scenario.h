#pragma once
// ue-commutativity: two pieces of uncertain evidence on the same y (uncertain-evidence paper,
// App. A). Jeffrey's rule applied A then B ends at B alone and B then A at A alone (the second
// overwrites the first); virtual evidence gives one answer in either order; Jeffrey's rule
// with the mixture of the two q's takes both into account.

#include "core/scenario.h"

namespace evx::scenarios {

class CommutativityScenario final : public Scenario {
public:
    CommutativityScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
