#pragma once
// wvo-eight-schools: the WVO paper's first case study (Sec. 4.1, Figs. 4–5) on Rubin's eight
// schools. The exact back-end is the grid posterior p(μ, τ | y) with the school effects
// integrated out (models/eight_schools.h); a virtual observation is a whole virtual school
// (ỹ, σ̃) with the exact marginal N(ỹ | μ, σ̃² + τ²) (Thm 4, conjugate case).
// Reconstruction of p(μ, τ | y); leave-one-school-out incremental updates: WVO for seven
// schools plus the eighth school's data, against the full posterior and against marginal
// empirical Bayes (a Normal fitted to μ, a Gamma to τ, used as the prior).

#include "core/scenario.h"

namespace evx::scenarios {

class WvoEightSchoolsScenario final : public Scenario {
public:
    WvoEightSchoolsScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
