#pragma once
// ue-gaussian-hetero: distributional evidence when the model noise depends on x
// (uncertain-evidence paper, Sec. 3.3 and App. C.1): Z(x), the adjusted prior p_a(x), and the
// exact (Z known) and implied (pseudo-likelihood) posteriors beside Jeffrey's rule and
// virtual evidence.

#include "core/scenario.h"

namespace evx::scenarios {

class HeteroScenario final : public Scenario {
public:
    HeteroScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
