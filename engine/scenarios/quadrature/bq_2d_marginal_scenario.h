#pragma once
// bq-2d-marginal: GP Bayesian quadrature of a 2-D integrand f(x, y) under p(x) p(y), and the
// marginal mean function ∫ f(x, y) p(y) dy with its ±2 sd band, integrating y out in closed
// form (BQ paper Sec. 1.13), against the true marginal by numerical integration.

#include "core/scenario.h"

namespace evx::scenarios {

class Bq2dMarginalScenario final : public Scenario {
public:
    Bq2dMarginalScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    ScenarioInputs inputs() const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;
    Figure runWith(const RunInput& input, const RunContext& context) const override;

    // The integrand, for tests: two correlated Gaussian bumps.
    static double integrand(double x, double y);

private:
    ParameterSchema m_schema;
};

}  // namespace evx::scenarios
