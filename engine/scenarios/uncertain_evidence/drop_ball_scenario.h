#pragma once
// ue-drop-ball: timing a falling ball to infer g (uncertain-evidence paper, Sec. 4.2, Fig. 4)
// under the three readings, by numerical integration on grids (evidence/readings.h).

#include "core/scenario.h"

namespace evx::scenarios {

class DropBallScenario final : public Scenario {
public:
    DropBallScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    // Every posterior is over g; var_y is the variance of the stopwatch reading.
    std::vector<SummaryUnit> summaryUnits() const override
    {
        return {{"*.mean", "m/s²"},
                {"*.sd", "m/s²"},
                {"jeffrey.var_y", "s²"},
                {"jeffrey.expected_var_given_zeta", "s²"}};
    }
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
