#pragma once
// bnn-ncai: a BNN with a latent input trained live (bnn-latent-variables-ncai, Secs. 5–7):
// mean-field VI lets the latents memorise x or y; NCAI's warm start and penalties (Eq. 27)
// pull them back to white noise while the test log-likelihood improves. The window redraws as
// training goes; the summary holds the paper's metrics (test LL, RMSE, PICP, MPIW, MI, HZ, KS).

#include "core/scenario.h"

namespace evx::scenarios {

class BnnNcaiScenario final : public Scenario {
public:
    BnnNcaiScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    ScenarioInputs inputs() const override;
    std::vector<WorkBudget> workBudget(const RunInput& input) const override;
    // As the trace plots label them: log-likelihoods and the ELBO per point, MI in nats.
    std::vector<SummaryUnit> summaryUnits() const override
    {
        return {
            {"test_ll", "nats/point"}, {"val_ll", "nats/point"}, {"elbo", "nats/point"}, {"mi_x_z", "nats"}};
    }
    Figure run(const ParameterValues& values, const RunContext& context) const override;
    Figure runWith(const RunInput& input, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
