#pragma once
// wvo-rats: the WVO paper's second case study (Sec. 4.2, Figs. 6–7) on Tarone's 71 rat
// tumour experiments. The exact back-end is the grid posterior p(α, β | y) of the
// beta-binomial on (log(α/β), log(α + β)) (models/rat_tumors.h); a virtual observation is a
// whole virtual lab (ỹ, n) with the exact beta-binomial marginal. Reconstruction; leave-one-
// lab-out incremental posteriors of each lab's rate (ellipses: original mean ± sd across,
// incremental up); and the reconstruction error when only K' virtual labs are used.

#include "core/scenario.h"

namespace evx::scenarios {

class WvoRatsScenario final : public Scenario {
public:
    WvoRatsScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    std::vector<WorkBudget> workBudget(const RunInput& input) const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
