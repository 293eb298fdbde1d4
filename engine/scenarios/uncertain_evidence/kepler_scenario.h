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
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
