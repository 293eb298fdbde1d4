#pragma once
// ue-gaussian: the Gaussian model of the uncertain-evidence paper (Sec. 4.1, Fig. 2)
// under Jeffrey's rule, virtual and distributional evidence, in closed form.

#include "core/scenario.h"

namespace evx::scenarios {

class GaussianScenario final : public Scenario {
public:
    GaussianScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
