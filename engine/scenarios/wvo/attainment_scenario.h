#pragma once
// wvo-attainment: the WVO paper's third case study (Sec. 4.3, Fig. 8) on the Scottish
// secondary-school attainment data, opened by the user (File → Open Data Set…, or --data).
// Full inference of the mixed-effects model (models/scots_attainment.h) on all schools with
// the general ensemble sampler, against incremental inference for one school: the posterior
// on the other schools is compressed into K weighted virtual schools of n pupils each, and
// the sampler then sees only those plus the new school. Reports the compression ratio and
// the speed-up (the paper: 6-fold fewer observations, about 8-fold faster).
// time.speedup is the ratio of two sampler runs with the same settings (walkers 4 d + 4 for d
// sampled dimensions, steps, seed). Its size depends on the form of the model (`intercepts`):
// - integrated (the default): both runs sample the 7 hyperparameters, every school intercept
//   integrated out and every school evaluated from sufficient statistics
//   (models::AttainmentSchoolSet). The 3435 real pupils collapse into 930 (school, verbal score)
//   cells, the 540 virtual pupils plus school 1's 219 into about 535, so the incremental run is
//   about as fast as the full one (shared design: 2 to 4 times).
// - sampled (the paper preset): the paper's model as its probabilistic program states it, real
//   schools' intercepts sampled beside θ and every pupil one term
//   (models::SampledInterceptSchools): the full run samples 7 + 19 dimensions with 108 walkers
//   over 3435 pupils, the incremental one 7 + 1 with 36 walkers over 759: about 8.5 times faster
//   (seeds 1–10: mean 8.5, 7.3 to 9.8 as the machine's speed varied); the paper's "almost
//   8-fold". An incremental evaluation costs more than its 759 pupils' share: a virtual pupil
//   adds to three sums, a real one to one, and each virtual school adds a division and a log
//   (taken vectorised); a full one costs about 3 of them (bench_attainment), not 3435/759. The
//   costs both runs share, one precision per distinct verbal score, are a geometric sequence
//   on the scores' lattice rather than an exp each. The 26 dimensions need a
//   longer burn-in (kSampledBurnIn).
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
