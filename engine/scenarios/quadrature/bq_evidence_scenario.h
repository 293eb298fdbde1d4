#pragma once
// bq-evidence: the model evidence of the drop-of-a-ball model under virtual evidence,
// Z = ∫ N(t̂ | sqrt(2h/g), σ_model² + σ_obs²) N(g | μ, σ²) dg, estimated by log-GP BQ (or GP BQ,
// Monte Carlo) as samples are added, beside numerical integration; and the posterior over g
// it implies, ℓ̄(g) p(g) / Z_0, with its pointwise ±2 sd band (BQ paper eq. 1.58).

#include "core/scenario.h"

namespace evx::scenarios {

class BqEvidenceScenario final : public Scenario {
public:
    BqEvidenceScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    ScenarioInputs inputs() const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;
    Figure runWith(const RunInput& input, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

}  // namespace evx::scenarios
