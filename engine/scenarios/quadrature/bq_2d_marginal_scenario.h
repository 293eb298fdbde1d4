#pragma once
// bq-2d-marginal: GP Bayesian quadrature of a 2-D integrand f(x, y) under p(x) p(y), and the
// marginal mean function ∫ f(x, y) p(y) dy with its ±2 sd band, integrating y out in closed
// form (BQ paper Sec. 1.13), against the true marginal. The integrand is a sum of Gaussian bumps,
// so the truth is closed form too: ∫ f(x, y) N(y; 0, σ_y²) dy and ∫∫ f N(x; 0, σ_x²) N(y; 0, σ_y²)
// are Gaussian integrals (tested against Gauss–Kronrod in test_bq).

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
    // ∫ f(x, y) N(y; 0, ySd²) dy, and Z = ∫∫ f(x, y) N(x; 0, xSd²) N(y; 0, ySd²) dx dy.
    static double trueMarginal(double x, double ySd);
    static double trueIntegral(double xSd, double ySd);

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
