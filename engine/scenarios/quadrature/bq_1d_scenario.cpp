#include "scenarios/quadrature/bq_1d_scenario.h"

#include "core/errors.h"
#include "scenarios/quadrature/integrands.h"
#include "scenarios/quadrature/quadrature_common.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace evx::scenarios {
namespace {

using namespace quadrature;

constexpr int kPlotPoints = 241;

std::vector<ParameterSpec> bq1dParameters()
{
    std::vector<ParameterSpec> specs = {
        choiceParameter("integrand", "Integrand ℓ(x)", integrandNames(), 0,
                        "peaked likelihood, two-mode mixture, wide smooth bump, or the drop-of-a-ball "
                        "virtual-evidence likelihood of g (ue-drop-ball; use prior mean ≈ 10)"),
        realParameter("prior_mean", "Prior mean b", "", -5, 15, 0,
                      "Mean of the Gaussian prior p(x) = N(b, s²)"),
        realParameter("prior_sd", "Prior sd s", "", 0.1, 5, 1, "Standard deviation of the prior p(x)", true),
    };
    for (auto& s : studyParameters(5, 15))
        specs.push_back(std::move(s));
    return specs;
}

} // namespace

Bq1dScenario::Bq1dScenario() : m_schema(bq1dParameters()) {}

ScenarioInfo Bq1dScenario::info() const
{
    return {"bq-1d", "Bayesian quadrature in one dimension", "Bayesian quadrature",
            "GP and log-GP Bayesian quadrature of ∫ ℓ(x) p(x) dx against Monte Carlo"};
}

std::vector<Preset> Bq1dScenario::presets() const
{
    return {{"peaked-log-gp",
             "Peaked likelihood, log-GP BQ with active sampling (the default)",
             {{"integrand", 0}, {"method", 1}, {"strategy", 2}}},
            {"peaked-gp",
             "Peaked likelihood, GP BQ on ℓ itself: a stationary GP fits a peak badly",
             {{"integrand", 0}, {"method", 0}, {"strategy", 2}}},
            {"two-mode",
             "Two-mode mixture, log-GP BQ with active sampling: it finds the second mode",
             {{"integrand", 1}, {"method", 1}, {"strategy", 2}, {"n_samples", 25}}},
            {"two-mode-grid",
             "Two-mode mixture on a quasi-random design: log-GP BQ's weak case (wide band, jumpy Z)",
             {{"integrand", 1}, {"method", 1}, {"strategy", 1}, {"n_samples", 25}}},
            {"drop-ball",
             "The drop-of-a-ball virtual-evidence likelihood of g under the prior N(10, 1²)",
             {{"integrand", 3}, {"prior_mean", 10}, {"prior_sd", 1}, {"method", 1}, {"strategy", 2}}}};
}

ScenarioInputs Bq1dScenario::inputs() const
{
    ScenarioInputs in;
    in.userPoints = true;
    in.pointPlot = 0;
    in.pointsHelp = "Click the top plot to add a sample at x";
    // Ten of the widest prior sds beyond the extreme prior means: far enough for any click
    // on a plot, near enough that ℓ(x) and the plot's range stay representable.
    in.pointMin = {-100, -1e6};
    in.pointMax = {100, 1e6};
    return in;
}

Figure Bq1dScenario::run(const ParameterValues& values, const RunContext& context) const
{
    return runWith(RunInput{values, {}, {}}, context);
}

Figure Bq1dScenario::runWith(const RunInput& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input.values);
    const auto which = Integrand(int(v.at("integrand")));
    const double b = v.at("prior_mean"), s = v.at("prior_sd");
    const bq::GaussianMeasure p = bq::GaussianMeasure::oneDimensional(b, s);
    bq::StudySettings settings = studySettings(v, &input);
    Figure figure;
    if (settings.method == bq::Method::MonteCarlo && !settings.userPoints.empty())
        figure.warnings.push_back("Monte Carlo draws from p(x): clicked samples are not used");
    if (settings.method == bq::Method::MonteCarlo && settings.strategy != bq::Strategy::MonteCarlo)
        figure.warnings.push_back("Monte Carlo always draws from p(x); the strategy applies to BQ only");
    if (which == Integrand::DropBall && b - 4 * s < 1)
        figure.warnings.push_back("the drop-of-a-ball likelihood is a function of g > 0 near 10.8 m/s²; "
                                  "use a prior like N(10, 1²) (preset drop-ball)");

    double lo = b - 4 * s, hi = b + 4 * s;
    for (double x : settings.userPoints) {
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    const double truth = trueIntegral(which, b, s);
    const bq::StudyResult r = bq::runStudy([&](double x) { return logIntegrand(which, x); }, p, settings, lo,
                                           hi, kPlotPoints, context);

    const std::string xName = which == Integrand::DropBall ? "g (m/s²)" : "x";
    Plot top;
    top.title = "Integrand ℓ(x), samples and the " + methodName(settings.method) + " model";
    top.xLabel = xName;
    top.yLabel = "ℓ(x)";
    addModel(top, r, settings.method, int(settings.userPoints.size()));
    Series truthCurve, prior;
    truthCurve.name = "true integrand ℓ(x)";
    truthCurve.colour = kReferenceColour;
    truthCurve.dashed = true;
    double lMax = 0;
    for (double x : r.gridX) {
        const double l = std::exp(logIntegrand(which, x));
        truthCurve.x.push_back(x);
        truthCurve.y.push_back(l);
        lMax = std::max(lMax, l);
    }
    // p(x) has other units than ℓ: drawn rescaled so that its peak matches the peak of ℓ.
    prior.name = "prior p(x), rescaled";
    prior.colour = 2;
    for (double x : r.gridX) {
        prior.x.push_back(x);
        prior.y.push_back(lMax * std::exp(-0.5 * std::pow((x - b) / s, 2)));
    }
    top.series.insert(top.series.begin(), std::move(truthCurve));
    top.series.push_back(std::move(prior));
    for (const std::string& w : r.warnings)
        figure.warnings.push_back(w);
    figure.plots.push_back(std::move(top));
    figure.plots.push_back(convergencePlot(r, settings.method, truth, "Z"));
    figure.plots.push_back(relativeErrorPlot(r, settings.method, truth));

    const bq::TracePoint mc = r.mcTrace.back();
    figure.summary.set("z.true", truth);
    figure.summary.set("z.mean", r.estimate.mean);
    figure.summary.set("z.sd", r.estimate.sd());
    if (settings.method != bq::Method::MonteCarlo)
        figure.summary.set("z.sd_plugin", r.pluginEstimate.sd());
    figure.summary.set("z.rel_error", std::fabs(r.estimate.mean - truth) / truth);
    figure.summary.set("mc.z.mean", mc.mean);
    figure.summary.set("mc.z.rel_error", std::fabs(mc.mean - truth) / truth);
    figure.summary.set("jitter.added", r.jitter);
    figure.summary.set("samples.n", double(r.x.size()));
    if (settings.method != bq::Method::MonteCarlo)
        figure.summary.set("kernel.lengthscale", r.lengthscale);
    return figure;
}

} // namespace evx::scenarios
