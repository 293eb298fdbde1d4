#pragma once
// wvo-attainment: the WVO paper's third case study (Sec. 4.3, Fig. 8) on the Scottish
// secondary-school attainment data, opened by the user (File → Open Data Set…, or --data).
// Full inference of the mixed-effects model (models/scots_attainment.h) on all schools with
// the general ensemble sampler, against incremental inference for one school: the posterior
// on the other schools is compressed into K weighted virtual schools of n pupils each, and
// the sampler then sees only those plus the new school. Reports the compression ratio and
// the speed-up (the paper: 6-fold fewer observations, about 8-fold faster).

#include "core/scenario.h"

namespace evx::scenarios {

class WvoAttainmentScenario final : public Scenario {
public:
    WvoAttainmentScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    ScenarioInputs inputs() const override;
    std::vector<WorkBudget> workBudget(const RunInput& input) const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;
    Figure runWith(const RunInput& input, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
