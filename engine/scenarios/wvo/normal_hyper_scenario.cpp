#include "scenarios/wvo/normal_hyper_scenario.h"

#include "core/errors.h"
#include "scenarios/wvo/wvo_common.h"
#include "scenarios/wvo/wvo_figure.h"
#include "stats/densities.h"
#include "wvo/grid_fit.h"
#include "wvo/grid_reconstruction.h"
#include "wvo/multilevel.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <random>

namespace evx::scenarios {

using namespace wvo_figure;

namespace {

constexpr int kGrid = 90;

} // namespace

WvoNormalHyperScenario::WvoNormalHyperScenario()
    : m_schema(wvo_common::withVirtualObservationParameters(
          {
              integerParameter("observations", "Observations N", 3, 200, 10,
                               "Number of original observations"),
              realParameter("data_mean", "Mean of the simulated data", "", -10, 10, 1,
                            "The original observations are drawn from N(mean, sd²) (as in wvo-normal)"),
              realParameter("data_sd", "Sd of the simulated data", "", 0.1, 10, 2, "Sd of the simulated data",
                            true),
              integerParameter("data_seed", "Data seed", 1, 100000, 7, "Seed of the original observations"),
              realParameter("tau", "Sd τ of μ around m", "", 0.05, 10, 1, "μ | m ~ N(m, τ²)", true),
              realParameter("prior_mean_sd", "Hyperprior sd of m", "", 0.5, 100, 10, "m ~ N(0, s_m²)", true),
              realParameter("prior_sigma_sd", "Hyperprior scale of σ", "", 0.5, 100, 5, "σ ~ half-N(0, s_σ²)",
                            true),
              integerParameter(
                  "mc_draws", "Monte Carlo draws S of μ (0 = exact)", 0, 2000, 100,
                  "Forward draws μ_s ~ p(μ | m) estimating each virtual p(ỹ | m, σ) (Thm 4); 0 uses "
                  "the closed form N(ỹ | m, σ² + τ²)"),
              {"virtual_form",
               "Virtual observation",
               "",
               ParameterKind::Choice,
               0,
               1,
               1,
               1,
               0,
               {"single observations (Thm 4)", "whole groups of N (Cor. 1)"},
               "Thm 4: each virtual observation ỹ_i has its own μ integrated out, Σ w = N. Cor. 1: each "
               "virtual "
               "observation is a whole group of N values sharing one μ, like the data; Σ w = 1 group"},
          },
          10, 1))
{
}

ScenarioInfo WvoNormalHyperScenario::info() const
{
    return {"wvo-normal-hyper", "WVO: Normal with a hyperprior on the mean", "Weighted virtual observations",
            "A two-level Normal model: virtual observations with Monte Carlo marginals (WVO paper Fig. 3)"};
}

std::vector<Preset> WvoNormalHyperScenario::presets() const
{
    return {
        {"fig3", "Fig. 3: 10 observations, 10 virtual groups", {{"virtual_count", 10}, {"virtual_form", 1}}},
        {"exact-marginals",
         "The same with exact virtual marginals instead of Monte Carlo",
         {{"mc_draws", 0}}},
        {"single-observations",
         "Thm 4 literally: single virtual observations, each with its own μ (approximate)",
         {{"virtual_form", 0}}}};
}

// Every virtual likelihood is evaluated at each posterior draw and grid cell, each one a
// mean over S Monte Carlo draws of μ: the default 9.1e6 terms take 0.13 s, so 1e9 allow about
// 15 s (the largest settings ran for minutes).
std::vector<WorkBudget> WvoNormalHyperScenario::workBudget(const RunInput& input) const
{
    const ParameterValues v = m_schema.complete(input.values);
    const double terms =
        v.at("virtual_count") * (v.at("posterior_draws") + kGrid * kGrid) * std::max(1.0, v.at("mc_draws"));
    return {{"Monte Carlo likelihood terms", terms, 1e9, "virtual_count, posterior_draws or mc_draws"}};
}

Figure WvoNormalHyperScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    const int n = static_cast<int>(v.at("observations"));
    const int kVirtual = static_cast<int>(v.at("virtual_count"));
    const int m = static_cast<int>(v.at("posterior_draws"));
    const int s = static_cast<int>(v.at("mc_draws"));
    const double tau = v.at("tau"), sm = v.at("prior_mean_sd"), ss = v.at("prior_sigma_sd");
    context.checkCancelled();

    std::mt19937_64 dataRng(static_cast<std::uint64_t>(v.at("data_seed")));
    std::normal_distribution<double> dataDist(v.at("data_mean"), v.at("data_sd"));
    std::vector<double> y(n);
    double ybar = 0;
    for (double& yi : y) {
        yi = dataDist(dataRng);
        ybar += yi / n;
    }
    double ssq = 0;
    for (double yi : y)
        ssq += (yi - ybar) * (yi - ybar);
    const double sd = std::sqrt(ssq / (n - 1));

    auto logPrior = [sm, ss](double mm, double sigma) {
        if (sigma <= 0)
            return -std::numeric_limits<double>::infinity();
        return -0.5 * mm * mm / (sm * sm) - 0.5 * sigma * sigma / (ss * ss);
    };
    // μ integrated out: Π N(y_j | μ, σ²) N(μ | m, τ²) dμ in closed form.
    auto logLik = [=](double mm, double sigma) {
        const double s2 = sigma * sigma;
        return -0.5 * n * std::log(2 * std::numbers::pi * s2) - ssq / (2 * s2) +
               0.5 * std::log(2 * std::numbers::pi * s2 / n) +
               stats::normalLogPdfVar(ybar, mm, s2 / n + tau * tau);
    };
    auto logPosterior = [&](double mm, double sigma) { return logPrior(mm, sigma) + logLik(mm, sigma); };
    // The grid holds all but 1e-6 of the original posterior (with few observations σ's tail
    // reaches far past a fixed multiple of the sample sd).
    const double spread = std::sqrt(sd * sd / n + tau * tau);
    const wvo::FittedGrid grid = wvo::fitGrid(logPosterior, {ybar - 7 * spread, ybar + 7 * spread, 1},
                                              {0.2 * sd, 3.2 * sd, 1}, {}, {0, 1e300}, kGrid, kGrid);
    const wvo::Axis mAxis = grid.x, sAxis = grid.y;
    const wvo::GridPosterior full(mAxis, sAxis, logPosterior);

    std::mt19937_64 rng(static_cast<std::uint64_t>(v.at("seed")));
    // Common random numbers for the Monte Carlo marginals: the same z_s at every θ keeps the
    // estimate smooth in θ, which the optimiser and the grid need.
    auto z = std::make_shared<std::vector<double>>(s);
    {
        std::normal_distribution<double> nd;
        for (double& zi : *z)
            zi = nd(rng);
    }
    const bool groups = v.at("virtual_form") == 1;
    auto drawGroup = [&, z](double mm, double sigma, std::mt19937_64& r) -> wvo::VirtualGroup {
        std::normal_distribution<double> nd;
        const double mu = mm + tau * nd(r);
        double gm = 0, gss = 0;
        std::vector<double> g(n);
        for (double& gi : g) {
            gi = mu + sigma * nd(r);
            gm += gi / n;
        }
        for (double gi : g)
            gss += (gi - gm) * (gi - gm);
        if (s == 0)
            return {[=](double a, double b) {
                        const double s2 = b * b;
                        return -0.5 * n * std::log(2 * std::numbers::pi * s2) - gss / (2 * s2) +
                               0.5 * std::log(2 * std::numbers::pi * s2 / n) +
                               stats::normalLogPdfVar(gm, a, s2 / n + tau * tau);
                    },
                    nullptr};
        return {[=](double a, double b) {
                    const double s2 = b * b;
                    std::vector<double> l(z->size());
                    for (std::size_t i = 0; i < z->size(); ++i) {
                        const double d = gm - (a + tau * (*z)[i]);
                        l[i] = -0.5 * n * std::log(2 * std::numbers::pi * s2) - (gss + n * d * d) / (2 * s2);
                    }
                    return wvo::logMeanExp(l);
                },
                nullptr};
    };
    auto drawVirtual = [&, z](double mm, double sigma, std::mt19937_64& r) -> wvo::VirtualGroup {
        if (groups)
            return drawGroup(mm, sigma, r);
        std::normal_distribution<double> nd;
        const double yv = mm + tau * nd(r) + sigma * nd(r);
        if (s == 0)
            return {
                [yv, tau](double a, double b) { return stats::normalLogPdfVar(yv, a, b * b + tau * tau); },
                nullptr};
        return {[yv, tau, z](double a, double b) {
                    std::vector<double> l(z->size());
                    for (std::size_t i = 0; i < z->size(); ++i)
                        l[i] = stats::normalLogPdfVar(yv, a + tau * (*z)[i], b * b);
                    return wvo::logMeanExp(l);
                },
                nullptr};
    };

    // The original posterior first, then the reconstruction (~0.1 s at the defaults, seconds
    // with many Monte Carlo draws): a figure appears at once and fills in.
    auto figureOf = [&](const wvo::GridReconstruction* rec) {
        Figure f;
        Plot joint;
        joint.title = "p(m, σ | y): heat map original; 50\u00a0% (thick) and 90\u00a0% (thin) regions";
        joint.xLabel = "m (hyper-mean)";
        joint.yLabel = "σ";
        HeatMap map;
        map.name = "original posterior density";
        map.nx = kGrid;
        map.ny = kGrid;
        map.xMin = mAxis.centre(0);
        map.xMax = mAxis.centre(kGrid - 1);
        map.yMin = sAxis.centre(0);
        map.yMax = sAxis.centre(kGrid - 1);
        map.values = full.mass();
        for (double& d : map.values)
            d /= mAxis.step() * sAxis.step();
        joint.heatMaps.push_back(std::move(map));
        addContours(joint, full, 0);
        Plot mPlot;
        mPlot.title = "Marginal posterior of m";
        mPlot.xLabel = "m";
        mPlot.yLabel = "probability density";
        mPlot.series = {densityCurve(0, mAxis.centres(), full.marginalX())};
        Plot sPlot;
        sPlot.title = "Marginal posterior of σ";
        sPlot.xLabel = "σ";
        sPlot.yLabel = "probability density";
        sPlot.series = {densityCurve(0, sAxis.centres(), full.marginalY())};
        if (rec) {
            addContours(joint, *rec->unweighted, 1);
            addContours(joint, *rec->weighted, 2);
            mPlot.series.push_back(densityCurve(1, mAxis.centres(), rec->unweighted->marginalX()));
            mPlot.series.push_back(densityCurve(2, mAxis.centres(), rec->weighted->marginalX()));
            sPlot.series.push_back(densityCurve(1, sAxis.centres(), rec->unweighted->marginalY()));
            sPlot.series.push_back(densityCurve(2, sAxis.centres(), rec->weighted->marginalY()));
        }
        addContourKeys(joint);
        f.plots = {std::move(joint), std::move(mPlot), std::move(sPlot)};
        if (rec)
            f.plots.push_back(
                groups ? weightsPlot(rec->weights.weights, "Weights of the virtual groups (Σ w = 1 group)",
                                     "virtual group k (N values sharing one μ)")
                       : weightsPlot(rec->weights.weights, "Weights of the virtual observations (Σ w = N)",
                                     "virtual observation i"));
        f.summary.set("original.m.mean", full.meanX());
        f.summary.set("original.sigma.mean", full.meanY());
        if (const std::string w = wvo::gridCoverageWarning(grid, {}, "(m, σ)"); !w.empty())
            f.warnings.push_back(w);
        // The original group of N observations sharing one μ, as drawn from data_seed.
        f.data = {{"y", y}};
        return f;
    };
    if (context.wantsProgress())
        context.publish(figureOf(nullptr), 0.1);

    wvo::GridReconstructionInput rin;
    rin.original = &full;
    rin.logPrior = logPrior;
    rin.originalLogLik = logLik;
    rin.totalWeight = groups ? 1.0 : n;
    rin.virtualCount = kVirtual;
    rin.posteriorDraws = m;
    rin.drawVirtual = drawVirtual;
    rin.unweighted = true;
    const wvo::GridReconstruction rec = wvo::reconstructOnGrid(rin, rng, context);

    Figure f = figureOf(&rec);
    addWvoSummary(f.summary, groups ? 1 : n, kVirtual, wvo::klDivergence(full, *rec.weighted),
                  wvo::klDivergence(full, *rec.unweighted), rec.weights.weights.sum());
    f.summary.set("weighted.m.mean", rec.weighted->meanX());
    f.summary.set("weighted.sigma.mean", rec.weighted->meanY());
    f.summary.set("objective.gain", rec.weights.objective - rec.weights.initialObjective);
    return f;
}

} // namespace evx::scenarios
