#pragma once
// wvo-attainment: the WVO paper's third case study (Sec. 4.3, Fig. 8) on the Scottish
// secondary-school attainment data, opened by the user (File → Open Data Set…, or --data).
// Full inference of the mixed-effects model (models/scots_attainment.h) on all schools with
// the general ensemble sampler, against incremental inference for one school: the posterior
// on the other schools is compressed into K weighted virtual schools of n pupils each, and
// the sampler then sees only those plus the new school. Reports the compression ratio and
// the speed-up (the paper: 6-fold fewer observations, about 8-fold faster).
// time.speedup is the ratio of two sampler runs with the same settings (walkers, steps, seed),
// each on its data evaluated from sufficient statistics (models::AttainmentSchoolSet): the 3435
// real pupils collapse into 930 (school, verbal score) cells, the 540 virtual pupils plus school
// 1's 219 into about 535, so the exact incremental run is about as fast as the full one (shared
// design: about 2 times). Pupil by pupil the ratio was bounded by the pupil counts (3435/759 = 4.5
// for school 1). The paper's 8-fold also drops the sampled dimension (school intercepts of the
// other schools); here both runs sample the same 7 hyperparameters, intercepts integrated out.

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
