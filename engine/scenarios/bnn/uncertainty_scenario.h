#pragma once
// bnn-uncertainty: the entropy decomposition of the posterior predictive (bnn-latent-variables-
// ncai, Sec. 7.3, Fig. 6; Depeweg et al. 2018) for BNN+LV by mean-field VI, by NCAI and by HMC
// (the reference posterior), side by side over x:
//   total H[p(y | x)],  aleatoric E_W H[p(y | x, W)],  epistemic = total − aleatoric,
// with the truth's own entropy H[p(y | x)] (all aleatoric) beside them.

#include "core/scenario.h"

namespace evx::scenarios {

class BnnUncertaintyScenario final : public Scenario {
public:
    BnnUncertaintyScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    std::vector<WorkBudget> workBudget(const RunInput& input) const override;
    // Entropies of the predictive on raw y and their rms differences, as the plot's axis says.
    std::vector<SummaryUnit> summaryUnits() const override
    {
        return {{"*.total.mean", "nats"},
                {"*.aleatoric.mean", "nats"},
                {"*.epistemic.mean", "nats"},
                {"*.rms_vs_hmc", "nats"},
                {"*.rms_vs_truth", "nats"}};
    }
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

// The truth's entropy H[p(y | x)] in nats on raw y, by the trapezoid rule over y (exact for the
// Gaussian cases to ~1e-10; the heavy tail's density is itself a quadrature over z).
double trueAleatoricEntropy(const std::string& datasetId, double x);

} // namespace evx::scenarios
