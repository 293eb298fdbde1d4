#pragma once
// ue-kepler: orbital parameters of a planet from uncertain transit times (uncertain-evidence
// paper, Sec. 4.3, Fig. 5) under Jeffrey's rule, virtual and distributional evidence, sampled
// with the ensemble sampler on the worker, with intermediate figures as the chains grow.

#include "core/scenario.h"

namespace evx::scenarios {

class KeplerScenario final : public Scenario {
public:
    KeplerScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    std::vector<WorkBudget> workBudget(const RunInput& input) const override;
    // The period is in days, as the transit times are; ω and ω + M take their unit (deg)
    // from the parameters true_omega and true_omega_plus_m.
    std::vector<SummaryUnit> summaryUnits() const override
    {
        return {{"*.P.mean", "d"},
                {"*.P.sd", "d"},
                {"jeffrey.var_y", "d²"},
                {"jeffrey.expected_var_given_zeta", "d²"}};
    }
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
