#include "scenarios/quadrature/bq_evidence_scenario.h"

#include "core/errors.h"
#include "scenarios/quadrature/integrands.h"
#include "scenarios/quadrature/quadrature_common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace evx::scenarios {
namespace {

using namespace quadrature;

constexpr int kPlotPoints = 241;
constexpr double kEarthG = 9.81;

std::vector<ParameterSpec> evidenceParameters()
{
    std::vector<ParameterSpec> specs = {
        realParameter("height", "Fall height h", "m", 0.1, 10, 1, "Height the ball falls from"),
        realParameter("t_obs", "Stopwatch reading t̂", "s", 0.05, 2, 0.43, "The time read off the stopwatch"),
        realParameter("sigma_model", "Model error sd", "s", 0.001, 0.05, 0.005,
                      "Physics the formula t = sqrt(2h/g) ignores", true),
        realParameter("sigma_obs", "Timing error sd", "s", 0.001, 0.1, 0.025,
                      "How far the student's reaction may be off the true time", true),
        realParameter("g_prior_mean", "Prior mean of g", "m/s²", 1, 30, 10, "Mean of the Normal prior on g"),
        realParameter("g_prior_sd", "Prior sd of g", "m/s²", 0.05, 5, 1,
                      "Standard deviation of the prior on g", true),
    };
    for (auto& s : studyParameters(5, 10))
        specs.push_back(std::move(s));
    return specs;
}

} // namespace

BqEvidenceScenario::BqEvidenceScenario() : m_schema(evidenceParameters()) {}

ScenarioInfo BqEvidenceScenario::info() const
{
    return {
        "bq-evidence", "Model evidence of the drop of a ball by log-GP BQ", "Bayesian quadrature",
        "The evidence of the drop-of-a-ball model under virtual evidence, and the posterior over g, by BQ"};
}

std::vector<Preset> BqEvidenceScenario::presets() const
{
    return {{"fig4",
             "The drop of a ball of ue-drop-ball (Fig. 4 of the uncertain-evidence paper), log-GP BQ",
             {{"height", 1},
              {"t_obs", 0.43},
              {"sigma_model", 0.005},
              {"sigma_obs", 0.025},
              {"g_prior_mean", 10},
              {"g_prior_sd", 1},
              {"method", 1},
              {"strategy", 2}}},
            {"wide-prior",
             "A wide prior on g: the likelihood is a narrow peak within it",
             {{"g_prior_sd", 1.5}, {"n_samples", 20}}}};
}

ScenarioInputs BqEvidenceScenario::inputs() const
{
    ScenarioInputs in;
    in.userPoints = true;
    in.pointPlot = 0;
    in.pointsHelp = "Click the top plot to add a sample at g";
    // g is positive, and the widest prior reaches about 30 + 10 · 5 m/s².
    in.pointMin = {0.1, -1e6};
    in.pointMax = {100, 1e6};
    return in;
}

Figure BqEvidenceScenario::run(const ParameterValues& values, const RunContext& context) const
{
    return runWith(RunInput{values, {}, {}}, context);
}

Figure BqEvidenceScenario::runWith(const RunInput& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input.values);
    const double mu = v.at("g_prior_mean"), sd = v.at("g_prior_sd");
    if (mu - 6 * sd < 0.5) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "the prior on g must keep g positive: g_prior_mean − 6·g_prior_sd = %.3g m/s² "
                      "must be at least 0.5 m/s²",
                      mu - 6 * sd);
        throw InvalidParameter(buf);
    }
    const DropBallEvidence model{v.at("height"), v.at("t_obs"), v.at("sigma_model"), v.at("sigma_obs")};
    auto logL = [&](double g) { return std::max(model.logLikelihood(g), kLogFloor); };
    const bq::GaussianMeasure p = bq::GaussianMeasure::oneDimensional(mu, sd);
    const bq::StudySettings settings = studySettings(v, &input);
    Figure figure;
    if (settings.method == bq::Method::MonteCarlo && !settings.userPoints.empty())
        figure.warnings.push_back("Monte Carlo draws from p(g): clicked samples are not used");

    double lo = std::max(mu - 4 * sd, 0.1), hi = mu + 4 * sd;
    for (double x : settings.userPoints) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    const bq::StudyResult r = bq::runStudy(logL, p, settings, lo, hi, kPlotPoints, context);
    context.checkCancelled();
    // The reference: adaptive Gauss–Kronrod over ±12 prior sds (integrands.cpp).
    const double truth = integrateAgainstPrior(logL, mu, sd);
    const double postMean = integrateAgainstPrior(logL, mu, sd, 1) / truth;
    const double postVar = integrateAgainstPrior(logL, mu, sd, 2) / truth - postMean * postMean;

    Plot top;
    top.title = "Virtual-evidence likelihood ℓ(g) = N(t̂ | sqrt(2h/g), σ_model² + σ_obs²) and its model";
    top.xLabel = "g (m/s²)";
    top.yLabel = "ℓ(g) (1/s)";
    addModel(top, r, settings.method, int(settings.userPoints.size()));
    Series truthCurve;
    truthCurve.name = "true likelihood ℓ(g)";
    truthCurve.colour = kReferenceColour;
    truthCurve.dashed = true;
    for (double g : r.gridX) {
        truthCurve.x.push_back(g);
        truthCurve.y.push_back(std::exp(logL(g)));
    }
    top.series.insert(top.series.begin(), std::move(truthCurve));
    top.markers.push_back({"g = 9.81 m/s²", kEarthG});
    for (const std::string& w : r.warnings)
        figure.warnings.push_back(w);
    figure.plots.push_back(std::move(top));

    Plot evidence = convergencePlot(r, settings.method, truth, "evidence Z");
    evidence.yLabel = "evidence Z = p(t̂) (1/s)";
    figure.plots.push_back(std::move(evidence));

    Plot posterior;
    posterior.title = "Posterior over g: ℓ̄(g) p(g) / Z₀ with its ±2 sd band, against numerical integration";
    posterior.xLabel = "g (m/s²)";
    posterior.yLabel = "probability density (s²/m)";
    Series exact;
    exact.name = "posterior by numerical integration";
    exact.colour = kReferenceColour;
    exact.dashed = true;
    Series bqPost;
    bqPost.name = methodName(settings.method) + " posterior";
    bqPost.colour = 3;
    Band band;
    band.name = "±2 sd";
    band.colour = 1;
    double bqMean = 0, bqSecond = 0, norm = 0;
    const double dg = r.gridX.size() > 1 ? r.gridX[1] - r.gridX[0] : 1;
    for (size_t i = 0; i < r.gridX.size(); ++i) {
        const double g = r.gridX[i];
        const double pg = p.density(&g);
        exact.x.push_back(g);
        exact.y.push_back(std::exp(logL(g)) * pg / truth);
        if (settings.method == bq::Method::MonteCarlo)
            continue;
        // Pointwise: V[ℓ̄(g)] p(g)² / Z₀², Z₀ held fixed (its own uncertainty is the plot above).
        const double m = r.modelMean[i] * pg / r.estimate.mean;
        const double half = (r.modelUpper[i] - r.modelMean[i]) * pg / r.estimate.mean;
        bqPost.x.push_back(g);
        bqPost.y.push_back(m);
        band.x.push_back(g);
        band.lower.push_back(m - half);
        band.upper.push_back(m + half);
        norm += m * dg;
        bqMean += g * m * dg;
        bqSecond += g * g * m * dg;
    }
    if (settings.method != bq::Method::MonteCarlo) {
        posterior.bands.push_back(std::move(band));
        posterior.series.push_back(std::move(bqPost));
    }
    posterior.series.push_back(std::move(exact));
    posterior.markers.push_back({"g = 9.81 m/s²", kEarthG});
    figure.plots.push_back(std::move(posterior));

    figure.summary.set("evidence.true", truth);
    figure.summary.set("evidence.mean", r.estimate.mean);
    figure.summary.set("evidence.sd", r.estimate.sd());
    if (settings.method != bq::Method::MonteCarlo)
        figure.summary.set("evidence.sd_plugin", r.pluginEstimate.sd());
    figure.summary.set("evidence.rel_error", std::fabs(r.estimate.mean - truth) / truth);
    figure.summary.set("mc.evidence.mean", r.mcTrace.back().mean);
    figure.summary.set("mc.evidence.rel_error", std::fabs(r.mcTrace.back().mean - truth) / truth);
    figure.summary.set("posterior_true.mean", postMean);
    figure.summary.set("posterior_true.sd", std::sqrt(std::max(postVar, 0.0)));
    if (settings.method != bq::Method::MonteCarlo && norm > 0) {
        const double m1 = bqMean / norm;
        figure.summary.set("posterior.mean", m1);
        figure.summary.set("posterior.sd", std::sqrt(std::max(bqSecond / norm - m1 * m1, 0.0)));
    }
    figure.summary.set("jitter.added", r.jitter);
    figure.summary.set("samples.n", double(r.x.size()));
    return figure;
}

} // namespace evx::scenarios
