#pragma once
// bnn-identifiability: Theorem 1 of the BNN+LV paper on screen. One LeakyReLU node with a
// latent input; the joint log density along the family (W/C, (C − 1)x + Cz) that reproduces
// the data exactly, with the truth at C = 1, the maximiser, C_lo and C* marked; the data with
// the true and the preferred function; and the preferred ẑ against x, which memorise it.

#include "core/scenario.h"

namespace evx::scenarios {

class BnnIdentifiabilityScenario final : public Scenario {
public:
    BnnIdentifiabilityScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    // The gain is a difference of log densities, as the first plot's axis says.
    std::vector<SummaryUnit> summaryUnits() const override { return {{"log_density_gain", "nats"}}; }
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
