#pragma once
// bq-1d: Bayesian quadrature of a 1-D integral Z = ∫ ℓ(x) N(x | b, s²) dx with GP BQ,
// log-GP BQ and Monte Carlo (BQ paper Sec. 1.1–1.2, 1.5; METHODS.md §2). The user may click the
// top plot to add samples.

#include "core/scenario.h"

namespace evx::scenarios {

class Bq1dScenario final : public Scenario {
public:
    Bq1dScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    ScenarioInputs inputs() const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;
    Figure runWith(const RunInput& input, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
