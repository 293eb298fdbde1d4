#include "scenarios/uncertain_evidence/gaussian_scenario.h"

#include "models/linear_gaussian_model.h"
#include "scenarios/uncertain_evidence/evidence_figure.h"

namespace evx::scenarios {
namespace {

constexpr int kCurvePoints = 401;

// A Normal density on its own grid of mean ± 5 sd, so a narrow posterior is as finely
// drawn as a wide prior.
Series normalSeries(Reading reading, const models::Normal& n, Range range)
{
    std::vector<double> x(kCurvePoints), pdf(kCurvePoints);
    for (int i = 0; i < kCurvePoints; ++i) {
        x[i] = n.mean - 5 * n.sd + 10 * n.sd * i / (kCurvePoints - 1);
        pdf[i] = n.pdf(x[i]);
    }
    return densitySeries(reading, x, pdf, range.lo, range.hi);
}

} // namespace

GaussianScenario::GaussianScenario()
    : m_schema({
          realParameter("mu_x", "Prior mean μ_x", "", -20, 20, -10, "Mean of the prior p(x) = N(μ_x, σ_x²)"),
          realParameter("sigma_x", "Prior sd σ_x", "", 0.05, 20, 2, "Standard deviation of the prior on x",
                        true),
          realParameter("sigma_y_given_x", "Model noise sd σ_y|x", "", 0.05, 20, 1,
                        "Standard deviation of y given x: p(y | x) = N(x, σ_y|x²)", true),
          realParameter("sigma_q", "Evidence sd σ_q", "", 0.05, 20, 2,
                        "Standard deviation of the uncertain evidence q = N(ζ, σ_q²)", true),
          realParameter("zeta", "Evidence centre ζ", "", -20, 20, 2,
                        "Where the uncertain evidence about y is centred"),
          emphasisParameter(),
      })
{
}

ScenarioInfo GaussianScenario::info() const
{
    return {"ue-gaussian", "Gaussian model: three readings", "Uncertain evidence",
            "One uncertain measurement of y read as Jeffrey's rule, virtual and distributional "
            "evidence (paper Fig. 2)"};
}

std::vector<Preset> GaussianScenario::presets() const
{
    return {
        {"fig2-left",
         "Fig. 2 left: the three readings give very different posteriors",
         {{"mu_x", -10}, {"sigma_x", 2}, {"sigma_y_given_x", 1}, {"sigma_q", 2}, {"zeta", 2}}},
        {"fig2-right",
         "Fig. 2 right: the three readings are indistinguishable",
         {{"mu_x", 0}, {"sigma_x", 5}, {"sigma_y_given_x", 2}, {"sigma_q", 0.5}, {"zeta", 2}}},
    };
}

Figure GaussianScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    context.checkCancelled();
    const models::LinearGaussianModel model(v.at("mu_x"), v.at("sigma_x"), v.at("sigma_y_given_x"));
    const double zeta = v.at("zeta");
    const double sigmaQ = v.at("sigma_q");
    const models::GaussianReadings r = models::closedFormReadings(model, zeta, sigmaQ);

    Figure figure;
    Plot posterior;
    posterior.title = "Posterior over x under each reading of the evidence";
    posterior.xLabel = "x";
    posterior.yLabel = "probability density";
    const Range range = displayRange({{r.prior.mean, r.prior.sd},
                                      {r.jeffrey.mean, r.jeffrey.sd},
                                      {r.virtualEvidence.mean, r.virtualEvidence.sd},
                                      {r.distributional.mean, r.distributional.sd}});
    posterior.series = {normalSeries(Reading::Prior, r.prior, range),
                        normalSeries(Reading::Jeffrey, r.jeffrey, range),
                        normalSeries(Reading::Virtual, r.virtualEvidence, range),
                        normalSeries(Reading::Distributional, r.distributional, range)};
    figure.plots.push_back(std::move(posterior));

    Plot observable;
    observable.title = "The observable y: what the model predicts and what the evidence says";
    observable.xLabel = "y";
    observable.yLabel = "probability density";
    const models::Normal evidence{zeta, sigmaQ};
    const Range yRange = displayRange({{r.predictive.mean, r.predictive.sd}, {zeta, sigmaQ}});
    Series predictive = normalSeries(Reading::Prior, r.predictive, yRange);
    predictive.name = "Prior predictive p(y)";
    Series q = normalSeries(Reading::Jeffrey, evidence, yRange);
    q.name = "Evidence q = N(ζ, σ_q²)";
    q.colour = kEvidenceColour;
    observable.series = {std::move(predictive), std::move(q)};
    observable.markers.push_back({"ζ", zeta});
    figure.plots.push_back(std::move(observable));

    addMoments(figure.summary, Reading::Prior, r.prior.mean, r.prior.sd);
    addMoments(figure.summary, Reading::Jeffrey, r.jeffrey.mean, r.jeffrey.sd);
    addMoments(figure.summary, Reading::Virtual, r.virtualEvidence.mean, r.virtualEvidence.sd);
    addMoments(figure.summary, Reading::Distributional, r.distributional.mean, r.distributional.sd);
    addMoments(figure.summary, Reading::Exact, r.exact.mean, r.exact.sd);
    addConsistency(figure, {r.varY, r.expectedVarGivenZeta}, "y");
    applyEmphasis(figure, v);
    return figure;
}

} // namespace evx::scenarios
