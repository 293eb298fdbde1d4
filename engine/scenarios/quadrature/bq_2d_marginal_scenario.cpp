#include "scenarios/quadrature/bq_2d_marginal_scenario.h"

#include "bq/bayes_quadrature.h"
#include "bq/designs.h"
#include "bq/marginal_gp.h"
#include "core/errors.h"
#include "scenarios/quadrature/quadrature_common.h"
#include "stats/densities.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace evx::scenarios {
namespace {

using namespace quadrature;

constexpr int kMapPoints = 61;
constexpr int kCurvePoints = 161;
constexpr int kActiveSide = 31;
// Lengthscales are fitted to at most this many samples; later ones condition the GP but do not
// refit it. From 93 to 150 samples the fitted lengthscales move by about 1 % and log p by 0.3–1.6
// nats, while a fit at n = 150 took 5–25 ms of a 16 ms budget: over 3 strategies × n ∈ {110, 130,
// 150} × 10 prior sds, Z's mean error with and without this limit agreed within 0.0005 relative
// in every cell and no run left its ±2 sd band.
constexpr int kMaxFitSamples = 100;

// The integrand's two bumps: exp(−q/2) with q the Mahalanobis form of means (mx, my), sds (sx, sy)
// and correlation r, times a height.
struct Bump {
    double height, mx, my, sx, sy, r;
};
constexpr Bump kBumps[] = {{1.0, 0.5, -0.3, 0.6, 0.8, 0.6}, {0.6, -1.2, 0.9, 0.4, 0.5, 0.0}};

bool isFitPoint(int n)
{
    int v = 3;
    while (v < n)
        v = int(std::ceil(v * 1.5));
    return v == n;
}

} // namespace

double Bq2dMarginalScenario::integrand(double x, double y)
{
    double f = 0;
    for (const Bump& b : kBumps) {
        const double u = (x - b.mx) / b.sx, v = (y - b.my) / b.sy;
        f += b.height * std::exp(-0.5 * (u * u - 2 * b.r * u * v + v * v) / (1 - b.r * b.r));
    }
    return f;
}

double Bq2dMarginalScenario::trueMarginal(double x, double ySd)
{
    // exp(−q/2) = 2π sx sy √(1 − r²) N([x, y]; m, Σ); given x, y ~ N(my + r sy (x − mx)/sx, sy²(1 − r²)),
    // and ∫ N(y; c, v) N(y; 0, σ_y²) dy = N(c; 0, v + σ_y²).
    double f = 0;
    for (const Bump& b : kBumps) {
        const double c = b.my + b.r * b.sy * (x - b.mx) / b.sx;
        const double v = b.sy * b.sy * (1 - b.r * b.r);
        f += b.height * 2 * std::numbers::pi * b.sx * b.sy * std::sqrt(1 - b.r * b.r) *
             stats::normalPdf(x, b.mx, b.sx) * stats::normalPdf(c, 0, std::sqrt(v + ySd * ySd));
    }
    return f;
}

double Bq2dMarginalScenario::trueIntegral(double xSd, double ySd)
{
    // ∫∫ N([x, y]; m, Σ) N(x; 0, σ_x²) N(y; 0, σ_y²) = N(m; 0, Σ + diag(σ_x², σ_y²)).
    double z = 0;
    for (const Bump& b : kBumps) {
        const double sxx = b.sx * b.sx + xSd * xSd, syy = b.sy * b.sy + ySd * ySd, sxy = b.r * b.sx * b.sy;
        const double det = sxx * syy - sxy * sxy;
        const double quad = (syy * b.mx * b.mx - 2 * sxy * b.mx * b.my + sxx * b.my * b.my) / det;
        z += b.height * b.sx * b.sy * std::sqrt(1 - b.r * b.r) * std::exp(-0.5 * quad) / std::sqrt(det);
    }
    return z;
}

Bq2dMarginalScenario::Bq2dMarginalScenario()
    : m_schema({
          realParameter("x_prior_sd", "Prior sd of x", "", 0.3, 3, 1, "p(x) = N(0, sd²)", true),
          realParameter("y_prior_sd", "Prior sd of y (nuisance)", "", 0.3, 3, 1,
                        "p(y) = N(0, sd²), integrated out", true),
          choiceParameter("strategy", "Sampling strategy", {"mc", "grid", "active"}, 1,
                          "Random draws from p(x, y), a quasi-random (Halton) design, or active sampling "
                          "(the point that most reduces V[Z])"),
          integerParameter("n_samples", "Number of samples", 3, 150, 30,
                           "Samples placed by the strategy (after any you clicked); Play adds one at a time",
                           true),
          realParameter(
              "lengthscale", "Kernel lengthscale (0 = fitted)", "", 0, 3, 0,
              "Lengthscale of the Gaussian kernel in x and y; 0 fits one per axis by maximum likelihood "
              "(to the first 100 samples)"),
          integerParameter("seed", "Random seed", 1, 1000, 1,
                           "Seed of the Monte Carlo draws and of the quasi-random shift"),
      })
{
}

ScenarioInfo Bq2dMarginalScenario::info() const
{
    return {"bq-2d-marginal", "Marginal of a 2-D GP over a nuisance input", "Bayesian quadrature",
            "∫ f(x, y) p(y) dy from a GP on f in closed form (BQ paper Sec. 1.13)"};
}

std::vector<Preset> Bq2dMarginalScenario::presets() const
{
    return {{"few-samples", "Twelve quasi-random samples: a wide band", {{"n_samples", 12}}},
            {"active", "Active sampling of 40 points", {{"strategy", 2}, {"n_samples", 40}}}};
}

ScenarioInputs Bq2dMarginalScenario::inputs() const
{
    ScenarioInputs in;
    in.userPoints = true;
    in.pointPlot = 0;
    in.pointsHelp = "Click the integrand map to add a sample at (x, y)";
    // Ten of the widest prior sds (3) on either axis.
    in.pointMin = {-30, -30};
    in.pointMax = {30, 30};
    return in;
}

Figure Bq2dMarginalScenario::run(const ParameterValues& values, const RunContext& context) const
{
    return runWith(RunInput{values, {}, {}}, context);
}

Figure Bq2dMarginalScenario::runWith(const RunInput& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input.values);
    const double sx = v.at("x_prior_sd"), sy = v.at("y_prior_sd");
    const int n = int(v.at("n_samples")), strategy = int(v.at("strategy"));
    const double fixedW = v.at("lengthscale");
    const auto seed = std::uint64_t(v.at("seed"));
    bq::GaussianMeasure p{Eigen::Vector2d(0, 0), Eigen::Vector2d(sx * sx, sy * sy)};

    const Eigen::MatrixXd mc = bq::monteCarloDesign(p, n, seed);
    const Eigen::MatrixXd quasi = bq::quasiRandomDesign(p, n, seed);
    Eigen::MatrixXd activeGrid(kActiveSide * kActiveSide, 2);
    for (int i = 0; i < kActiveSide; ++i)
        for (int j = 0; j < kActiveSide; ++j)
            activeGrid.row(i * kActiveSide + j) << 3 * sx * (2.0 * j / (kActiveSide - 1) - 1),
                3 * sy * (2.0 * i / (kActiveSide - 1) - 1);

    std::vector<Eigen::Vector2d> pts;
    for (const auto& c : input.points)
        pts.emplace_back(c[0], c[1]);
    const int users = int(pts.size());
    const Eigen::Vector2d initialW(fixedW > 0 ? fixedW : 0.5 * sx, fixedW > 0 ? fixedW : 0.5 * sy);
    Eigen::Vector2d w = initialW;
    auto kernelFor = [&] { return gp::Kernel(gp::KernelKind::Gaussian, 1.0, w); };
    bq::IncrementalBq inc(kernelFor(), p, true);
    inc.expectSamples(users + n);
    Eigen::MatrixXd x(0, 2);
    Eigen::VectorXd y(0);
    // Unless sampling actively, where the samples come from, the samples do not depend on the GP,
    // and with fitted lengthscales the last sample builds it from scratch: before then only the
    // fits matter (as the next fit's starting point), not the GP between them.
    const bool gpEachStep = strategy == 2 || fixedW > 0;
    // Grid points within 1e-9 of a sample: marked once per sample, not rescanned at every step
    // (961 × n distances per step were a sizeable part of an active run at n = 150).
    std::vector<bool> sampled(size_t(activeGrid.rows()), false);
    const int fitLimit = std::min(users + n, kMaxFitSamples);
    for (int i = 0; i < users + n; ++i) {
        context.checkCancelled();
        Eigen::Vector2d xi;
        Eigen::Index acquired = -1; // the grid point an active step chose
        if (i < users)
            xi = pts[size_t(i)];
        else if (strategy == 0)
            xi = mc.row(i - users).transpose();
        else if (strategy == 1 || i < 3)
            xi = quasi.row(i - users).transpose();
        else {
            Eigen::VectorXd red = inc.varianceReduction(activeGrid);
            for (int g = 0; g < red.size(); ++g)
                if (sampled[size_t(g)])
                    red[g] = -1;
            red.maxCoeff(&acquired);
            xi = activeGrid.row(acquired).transpose();
        }
        x.conservativeResize(x.rows() + 1, Eigen::NoChange);
        x.row(x.rows() - 1) = xi.transpose();
        if (acquired >= 0)
            sampled[size_t(acquired)] = true;
        else if (strategy == 2)
            for (int g = 0; g < activeGrid.rows(); ++g)
                if ((activeGrid.row(g) - x.row(x.rows() - 1)).norm() < 1e-9)
                    sampled[size_t(g)] = true;
        y.conservativeResize(y.size() + 1);
        y[y.size() - 1] = integrand(xi[0], xi[1]);
        const int k = int(y.size());
        // Without a GP between fits, a fit point whose successor lies past the last fit only
        // warm-starts that fit a few samples later: skipped (its O(n³) evaluations were a third
        // of a 150-sample run; the last fit then starts from the fit before it). Sampling
        // actively, such a fit also steers the acquisitions up to the last fit; within a tenth
        // of it (93 before 100) those are a few samples, while its fit and the grid's rebuild
        // were a fifth of an active run at n = 150.
        const bool lastFit = k == fitLimit;
        const bool beforeLastFit = !lastFit && int(std::ceil(k * 1.5)) > fitLimit;
        const bool skipFit = beforeLastFit && (!gpEachStep || 10 * k >= 9 * fitLimit);
        const bool fitHere =
            fixedW <= 0 && k >= 3 && k <= fitLimit && ((isFitPoint(k) && !skipFit) || lastFit);
        if (fitHere) {
            // Maximum likelihood per axis, output scale profiled (Sec. 1.10); bounded to
            // [sd/20, 10 sd] so a few samples cannot pick a degenerate value.
            gp::GpRegression g(kernelFor());
            g.setData(x, y);
            gp::FitOptions o;
            o.minLengthscale = std::min(sx, sy) / 20;
            o.maxLengthscale = 10 * std::max(sx, sy);
            // log p is known to ~1e-6 of its size at n ≈ 100 (gp_regression.h): stop there rather
            // than let the line search chase rounding, which made the slowest seeds' fits 100 ms.
            o.relativeImprovement = 1e-6;
            o.maxLineSearch = 10;
            // Past n ≈ 100, log p jumps by tenths of a nat between lengthscales 1e-9 apart: a
            // line search chasing that noise took 13–23 evaluations (~1 ms each at n = 150)
            // and ended "not converged". Lengthscales to 1e-4 are far finer than Z can tell.
            o.resolution = 1e-4;
            o.boundMargin = 0.05; // a warm start from a bound can leave it (gp_regression.h)
            // The initial lengthscales where the data now prefer them to the last fit's: with
            // x_prior_sd ≥ 2 the first Halton points miss the bumps, and the fits until n = 27
            // end near w = (0.1, 15), a basin later samples rule out (gp_regression.h).
            o.otherStarts = {initialW};
            gp::fitHyperparameters(g, o);
            w = g.kernel().lengthscales();
        }
        if (fitHere && gpEachStep)
            inc.setKernelAndData(kernelFor(), x, y);
        else if (gpEachStep)
            inc.add(xi, y[y.size() - 1]);
        else if (k == users + n)
            inc.setKernelAndData(kernelFor(), x, y);
    }

    Figure figure;
    const double xLo = -3.5 * sx, xHi = 3.5 * sx, yLo = -3.5 * sy, yHi = 3.5 * sy;
    HeatMap truthMap{"integrand f(x, y)", xLo, xHi, yLo, yHi, kMapPoints, kMapPoints, {}};
    HeatMap meanMap{"GP mean of f", xLo, xHi, yLo, yHi, kMapPoints, kMapPoints, {}};
    const Eigen::VectorXd mapX = Eigen::VectorXd::LinSpaced(kMapPoints, xLo, xHi);
    const Eigen::VectorXd mapY = Eigen::VectorXd::LinSpaced(kMapPoints, yLo, yHi);
    for (int iy = 0; iy < kMapPoints; ++iy)
        for (int ix = 0; ix < kMapPoints; ++ix)
            truthMap.values.push_back(integrand(mapX[ix], mapY[iy]));
    const Eigen::MatrixXd mm = bq::productGridMean(inc.gp(), mapX, mapY); // (ix, iy): x fastest, as the map
    meanMap.values.assign(mm.data(), mm.data() + mm.size());
    Series samples;
    samples.name = "samples";
    samples.kind = SeriesKind::Scatter;
    samples.colour = 4;
    for (int i = 0; i < x.rows(); ++i) {
        samples.x.push_back(x(i, 0));
        samples.y.push_back(x(i, 1));
    }
    Plot top;
    top.title = "Integrand f(x, y) with the samples";
    top.xLabel = "x";
    top.yLabel = "y (nuisance)";
    top.heatMaps.push_back(std::move(truthMap));
    top.series.push_back(samples);
    figure.plots.push_back(std::move(top));
    Plot gpPlot;
    gpPlot.title = "GP posterior mean of f(x, y)";
    gpPlot.xLabel = "x";
    gpPlot.yLabel = "y (nuisance)";
    gpPlot.heatMaps.push_back(std::move(meanMap));
    gpPlot.series.push_back(std::move(samples));
    figure.plots.push_back(std::move(gpPlot));

    context.checkCancelled();
    const bq::MarginalGp marginal(inc.gp(), 0.0, sy);
    const double hHat = inc.outputScale(); // variances scale by ĥ (output scale integrated out)
    Plot mPlot;
    mPlot.title = "Marginal ∫ f(x, y) p(y) dy: GP (y integrated out in closed form) against the truth";
    mPlot.xLabel = "x";
    mPlot.yLabel = "∫ f(x, y) p(y) dy";
    Band band;
    band.name = "±2 sd";
    band.colour = 1;
    Series mean, truth;
    mean.name = "GP marginal mean";
    mean.colour = 3;
    truth.name = "true marginal (numerical integration)";
    truth.colour = kReferenceColour;
    truth.dashed = true;
    double maxErr = 0, maxSd = 0;
    Eigen::VectorXd curveX(kCurvePoints), curveMean, curveVar;
    for (int i = 0; i < kCurvePoints; ++i)
        curveX[i] = xLo + (xHi - xLo) * i / (kCurvePoints - 1);
    marginal.evaluate(curveX, curveMean, curveVar);
    for (int i = 0; i < kCurvePoints; ++i) {
        const double gx = curveX[i];
        const double m = curveMean[i], sdv = std::sqrt(hHat * curveVar[i]);
        const double t = trueMarginal(gx, sy);
        band.x.push_back(gx);
        band.lower.push_back(m - 2 * sdv);
        band.upper.push_back(m + 2 * sdv);
        mean.x.push_back(gx);
        mean.y.push_back(m);
        truth.x.push_back(gx);
        truth.y.push_back(t);
        maxErr = std::max(maxErr, std::fabs(m - t));
        maxSd = std::max(maxSd, sdv);
    }
    mPlot.bands.push_back(std::move(band));
    mPlot.series = {std::move(truth), std::move(mean)};
    figure.plots.push_back(std::move(mPlot));

    const double zTrue = trueIntegral(sx, sy);
    const bq::ZEstimate z = inc.estimate();
    figure.summary.set("z.true", zTrue);
    figure.summary.set("z.mean", z.mean);
    figure.summary.set("z.sd", z.sd());
    figure.summary.set("z.rel_error", std::fabs(z.mean - zTrue) / zTrue);
    figure.summary.set("marginal.max_abs_error", maxErr);
    figure.summary.set("marginal.max_sd", maxSd);
    figure.summary.set("kernel.lengthscale_x", w[0]);
    figure.summary.set("kernel.lengthscale_y", w[1]);
    figure.summary.set("kernel.fit_samples", fixedW > 0 ? 0.0 : double(fitLimit));
    figure.summary.set("jitter.added", inc.gp().jitter());
    figure.summary.set("samples.n", double(x.rows()));
    return figure;
}

} // namespace evx::scenarios
