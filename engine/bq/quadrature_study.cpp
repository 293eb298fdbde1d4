#include "bq/quadrature_study.h"

#include "bq/band_diagnostics.h"
#include "bq/designs.h"
#include "bq/lengthscale_mixture_bq.h"
#include "bq/log_gp_bq.h"
#include "bq/log_gp_mixture.h"
#include "core/errors.h"
#include "gp/fixed_point_predictor.h"
#include "gp/gp_regression.h"
#include "stats/densities.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

namespace evx::bq {
namespace {

constexpr int kInitialQuasiRandom = 3;
// A log-likelihood varies more slowly than the likelihood: the GP on log ℓ may not take a
// lengthscale below this fraction of p's sd. Shorter ones let V_logℓ return to its prior
// between samples, and e^{V/2} in m_exp then swamps the estimate (seen on the two-mode integrand).
constexpr double kLogMinLengthscale = 0.1;
// Lengthscales scanned for the log-GP fit's starting point (log-spaced over its bounds, ratio
// 2.1 between neighbours): see FitOptions::startGrid.
constexpr int kLogStartGrid = 8;
constexpr int kActiveGridPoints = 101;
// GP BQ integrates its lengthscale over this many log-spaced values across the fit's bounds
// (LengthscaleMixtureBq): neighbours 41 % apart. 41 values (19 % apart) gave the same coverage
// within noise (93/97/90 % against 94/97/89 % at n = 10/25/50) at twice the time.
constexpr int kMixtureGrid = 21;
constexpr double kMinLengthscaleFraction = 1.0 / 50, kMaxLengthscaleFraction = 20;
constexpr double kActiveReachSd = 4;

// n = 3, 6, 12, 24, 48, …: refits get rarer as they get dearer and change less.
bool isFitPoint(int n)
{
    int v = 3;
    while (v < n)
        v *= 2;
    return v == n;
}

Eigen::MatrixXd column(const std::vector<double>& v)
{
    return Eigen::Map<const Eigen::MatrixXd>(v.data(), Eigen::Index(v.size()), 1);
}

Eigen::VectorXd vec(const std::vector<double>& v)
{
    return Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
}

// Maximum-likelihood lengthscale (output scale profiled out, Sec. 1.10), bounded to
// [sd/50, 20 sd] of p so that a handful of samples cannot drive it to a degenerate value.
double fitLengthscale(const std::vector<double>& x, const std::vector<double>& y, double mean, double start,
                      double priorSd, double minFraction = kMinLengthscaleFraction, int startGrid = 0)
{
    gp::GpRegression g(gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, start)), mean);
    g.setData(column(x), vec(y));
    gp::FitOptions o;
    o.minLengthscale = priorSd * minFraction;
    o.maxLengthscale = priorSd * kMaxLengthscaleFraction;
    // A lengthscale to ~1e-4 of its log is more than a quadrature estimate can tell apart;
    // the looser stop saves most of the iterations (the fit dominates a run's time).
    o.tolerance = 1e-4;
    o.startGrid = startGrid;
    gp::fitHyperparameters(g, o);
    return g.kernel().lengthscales()[0];
}

// log ℓ minus the log-GP's quadratic prior mean (LogGpBq), the GP's actual targets.
std::vector<double> logResidual(const std::vector<double>& x, const std::vector<double>& logL,
                                const LogMean& q)
{
    std::vector<double> r(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        r[i] = logL[i] - q(x[i]);
    return r;
}

std::vector<double> logResidual(const std::vector<double>& x, const std::vector<double>& logL)
{
    return logResidual(x, logL, LogMean::fit(vec(x), vec(logL)));
}

// Floor of the log-GP output scale: a prior sd of log ℓ of at least 0.01 (ℓ known to 1 % at
// best, away from the samples). When the quadratic mean explains the samples to rounding, ĥ → 0
// and the model would claim Z to 1e-18 while its error is 1e-8.
double logFloorH(double w)
{
    return 1e-4 * stats::kSqrt2Pi * w;
}

std::vector<int> traceSteps(int total, int limit)
{
    std::vector<int> steps;
    if (total <= limit) {
        for (int k = 1; k <= total; ++k)
            steps.push_back(k);
        return steps;
    }
    for (int i = 0; i < limit; ++i) {
        const int k = 1 + int(std::lround(double(i) * (total - 1) / (limit - 1)));
        if (steps.empty() || k > steps.back())
            steps.push_back(k);
    }
    return steps;
}

} // namespace

TracePoint monteCarloEstimate(const std::vector<double>& values, int k)
{
    double mean = 0;
    for (int i = 0; i < k; ++i)
        mean += values[size_t(i)];
    mean /= k;
    double ss = 0;
    for (int i = 0; i < k; ++i)
        ss += std::pow(values[size_t(i)] - mean, 2);
    const double sd = k > 1 ? std::sqrt(ss / (k - 1) / k) : std::fabs(mean);
    return {k, mean, sd};
}

StudyResult runStudy(const LogIntegrand& logL, const GaussianMeasure& p, const StudySettings& s,
                     double plotLo, double plotHi, int plotPoints, const RunContext& context)
{
    if (p.dimension() != 1)
        throw InvalidParameter("the quadrature study is one-dimensional");
    const double b = p.mean[0], sd = std::sqrt(p.variance[0]);
    const bool fitted = !(s.lengthscale > 0);
    StudyResult r;

    // Monte Carlo from p: the comparison, and the whole story when the method is Monte Carlo.
    const Eigen::MatrixXd mcDesign = monteCarloDesign(p, s.samples, s.seed);
    std::vector<double> mcValues(size_t(s.samples));
    for (int i = 0; i < s.samples; ++i)
        mcValues[size_t(i)] = std::exp(logL(mcDesign(i, 0)));
    for (int k : traceSteps(s.samples, std::max(s.traceLimit, 2)))
        r.mcTrace.push_back(monteCarloEstimate(mcValues, k));

    if (s.method == Method::MonteCarlo) {
        for (int i = 0; i < s.samples; ++i) {
            r.x.push_back(mcDesign(i, 0));
            r.logL.push_back(std::log(mcValues[size_t(i)]));
        }
        r.trace = r.mcTrace;
        const TracePoint last = monteCarloEstimate(mcValues, s.samples);
        r.estimate = {last.mean, last.sd * last.sd};
        r.pluginEstimate = r.estimate;
        return r;
    }

    const Eigen::MatrixXd quasi = quasiRandomDesign(p, s.samples, s.seed);
    std::vector<double> activeGrid(kActiveGridPoints);
    for (int i = 0; i < kActiveGridPoints; ++i)
        activeGrid[size_t(i)] = b + kActiveReachSd * sd * (2.0 * i / (kActiveGridPoints - 1) - 1);
    const Eigen::MatrixXd activeGridX = column(activeGrid);
    gp::FixedPointPredictor logOnGrid(activeGridX);

    const int users = int(s.userPoints.size());
    const int total = users + s.samples;
    // Log-GP BQ builds two GPs per trace point and lengthscale node (up to three), GP BQ's
    // estimate is O(n²) per lengthscale: far fewer points for the former.
    const int limit = s.method == Method::LogGpBq ? std::min(s.traceLimit, 8) : s.traceLimit;
    const std::vector<int> steps = traceSteps(total, std::max(limit, 2));
    double w = fitted ? sd : s.lengthscale;
    std::vector<double> values; // ℓ, for GP BQ
    // GP BQ: the lengthscale integrated out (or the given one) and h integrated out (Student-t)
    // give the design, E[Z], V[Z] and the band; no fit is needed while sampling.
    std::unique_ptr<LengthscaleMixtureBq> mix;
    if (s.method == Method::GpBq)
        mix = fitted ? std::make_unique<LengthscaleMixtureBq>(p, sd * kMinLengthscaleFraction,
                                                              sd * kMaxLengthscaleFraction, kMixtureGrid)
                     : std::make_unique<LengthscaleMixtureBq>(p, s.lengthscale, s.lengthscale, 1);
    std::unique_ptr<LogGpMixture> lg;
    // Log-GP BQ: unitLog is the GP on log ℓ − q at h = 1, grown by row appends and refactored
    // only when the lengthscale changes; only its targets (the residuals from the refitted q)
    // and ĥ change from step to step. The acquisition predicts from it, and every estimate
    // takes its ĥ from it (no factorisation of its own for that).
    std::unique_ptr<gp::GpRegression> unitLog;
    LogMean q;
    auto rebuildUnitLog = [&] {
        unitLog = std::make_unique<gp::GpRegression>(
            gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, w)), 0.0);
        if (!r.x.empty())
            unitLog->setData(column(r.x), vec(logResidual(r.x, r.logL)));
    };
    // Refits q to all samples and sets unitLog's targets to the residuals; returns the posterior
    // mean of h under p(h) ∝ 1/h, ĥ·n/(n − 2) (Sec. 1.10: Z's variance under the linearisation is
    // linear in h, so this is its variance with h integrated out).
    auto refreshLogTargets = [&] {
        q = LogMean::fit(vec(r.x), vec(r.logL));
        unitLog->setTargets(vec(logResidual(r.x, r.logL, q)));
        const int n = unitLog->size();
        return std::max(unitLog->profiledOutputScale() * (n > 2 ? double(n) / (n - 2) : 1.0), logFloorH(w));
    };
    // Estimates integrate the log-GP's lengthscale out (LogGpMixture; the fitted w above only
    // steers active sampling), or use the given one. Each builds fresh factors at h rather than
    // reusing unitLog's: equal in exact arithmetic, but when the lengthscale is long K is so ill
    // conditioned that the two roundings move Z by 1e-4 (bq-evidence), and the estimate should
    // not depend on which samples were appended when.
    LogGpMixtureOptions mixture;
    mixture.minLengthscale = fitted ? sd * kLogMinLengthscale : s.lengthscale;
    mixture.maxLengthscale = fitted ? sd * kMaxLengthscaleFraction : s.lengthscale;
    mixture.minOutputScale = logFloorH(1.0);
    std::optional<LogLengthscaleGrid> logGrid;
    if (s.method == Method::LogGpBq && fitted)
        logGrid.emplace(mixture.minLengthscale, mixture.maxLengthscale, mixture.gridPoints);
    auto rebuildLog = [&] {
        if (fitted)
            mixture.centralLengthscale = w;
        lg = std::make_unique<LogGpMixture>(column(r.x), vec(r.logL), p, mixture,
                                            logGrid ? &*logGrid : nullptr);
    };
    // With a fitted lengthscale the last log-GP estimate comes from a final refit after the loop.
    const bool finalRefit = s.method == Method::LogGpBq && fitted && !isFitPoint(total) && total >= 3;

    size_t nextStep = 0;
    for (int i = 0; i < total; ++i) {
        context.checkCancelled();
        double xi;
        if (i < users)
            xi = s.userPoints[size_t(i)];
        else if (s.strategy == Strategy::MonteCarlo)
            xi = mcDesign(i - users, 0);
        else if (s.strategy == Strategy::QuasiRandom || i < kInitialQuasiRandom)
            xi = quasi(i - users, 0);
        else {
            std::vector<double> a;
            if (s.method == Method::GpBq) {
                const Eigen::VectorXd red = mix->varianceReduction(activeGridX);
                a.assign(red.data(), red.data() + red.size());
            } else {
                // V_logℓ·m_exp²·p² from the log-GP alone (logGpAcquisition): it never depends on
                // which steps are drawn on the trace, so designs stay nested.
                const double hHat = refreshLogTargets();
                Eigen::VectorXd mean, variance;
                logOnGrid.predict(*unitLog, mean, variance);
                a = logGpAcquisition(mean, variance, hHat, q, p, activeGrid,
                                     *std::max_element(r.logL.begin(), r.logL.end()));
            }
            // Never pick a grid point that is already a sample: there the model knows ℓ, and
            // what the acquisition says is rounding (jitter) only.
            const double tooClose = 0.25 * (activeGrid[1] - activeGrid[0]);
            for (size_t g = 0; g < a.size(); ++g)
                for (double xs : r.x)
                    if (std::fabs(activeGrid[g] - xs) < tooClose)
                        a[g] = -1;
            xi = activeGrid[size_t(std::max_element(a.begin(), a.end()) - a.begin())];
        }
        const double li = logL(xi);
        if (!std::isfinite(li))
            throw NumericalError("the integrand's log ℓ is not finite at a sample");
        r.x.push_back(xi);
        r.logL.push_back(li);
        values.push_back(std::exp(li));
        const int k = i + 1;

        bool refit = false;
        if (s.method == Method::LogGpBq && fitted && k >= 3 && isFitPoint(k)) {
            const double old = w;
            w = fitLengthscale(r.x, logResidual(r.x, r.logL), 0.0, w, sd, kLogMinLengthscale, kLogStartGrid);
            refit = (w != old);
        }
        if (s.method == Method::GpBq) {
            mix->add(Eigen::VectorXd::Constant(1, xi), values.back());
        } else {
            lg.reset();
            if (logGrid)
                logGrid->add(xi);
            if (refit || !unitLog)
                rebuildUnitLog();
            else
                unitLog->addObservation(Eigen::VectorXd::Constant(1, xi), 0.0); // targets set before use
        }
        while (nextStep < steps.size() && steps[nextStep] < k)
            ++nextStep;
        // Log-GP BQ needs three samples for its quadratic prior mean, and GP BQ's Student-t
        // variance needs three; before that neither estimate is worth drawing.
        const bool ready = k >= 3;
        if (ready && nextStep < steps.size() && steps[nextStep] == k) {
            ++nextStep;
            ZEstimate e;
            if (s.method == Method::GpBq)
                e = mix->estimate();
            else if (k == total) {
                // The final model below (refitted, with the diagnostics) replaces this point.
            } else {
                rebuildLog();
                e = lg->estimate();
            }
            r.trace.push_back({k, e.mean, e.sd()});
        }
    }

    // The final model: refit on all samples when the lengthscale is fitted (this does not
    // change the design, only the last estimate).
    if (finalRefit) {
        const double old = w;
        w = fitLengthscale(r.x, logResidual(r.x, r.logL), 0.0, w, sd, kLogMinLengthscale, kLogStartGrid);
        if (w != old)
            rebuildUnitLog();
        lg.reset();
    }
    r.lengthscale = w;
    r.gridX.resize(size_t(plotPoints));
    for (int i = 0; i < plotPoints; ++i)
        r.gridX[size_t(i)] = plotLo + (plotHi - plotLo) * i / (plotPoints - 1);
    if (s.method == Method::GpBq) {
        // The plug-in model at the maximum-likelihood lengthscale (ĥ, no Student-t factor), as
        // this app reported before the hyperparameters were integrated out: for comparison.
        if (fitted)
            w = fitLengthscale(r.x, values, 0.0, std::exp(mix->posteriorMeanLogLengthscale()), sd,
                               kMinLengthscaleFraction, kLogStartGrid);
        IncrementalBq plugin(gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, w)), p,
                             true);
        for (size_t i = 0; i < r.x.size(); ++i)
            plugin.add(Eigen::VectorXd::Constant(1, r.x[i]), values[i]);
        r.lengthscale = w;
        if (fitted) {
            const std::vector<double> pw = mix->weights();
            const double wMix = std::exp(mix->posteriorMeanLogLengthscale());
            if (auto m = lengthscaleBoundWarning(pw.front(), pw.back(), wMix))
                r.warnings.push_back(*m);
        }
        r.estimate = mix->estimate();
        r.pluginEstimate = plugin.estimate();
        r.jitter = std::max(plugin.gp().jitter(), mix->jitter());
        Eigen::VectorXd m, v;
        mix->predict(column(r.gridX), m, v);
        for (int i = 0; i < plotPoints; ++i) {
            r.modelMean.push_back(m[i]);
            r.modelLower.push_back(m[i] - 2 * std::sqrt(v[i]));
            r.modelUpper.push_back(m[i] + 2 * std::sqrt(v[i]));
        }
    } else {
        mixture.exactMoments = true;
        rebuildLog();
        r.estimate = lg->estimate();
        r.pluginEstimate = lg->linearisedEstimate();
        if (fitted)
            if (auto m = lengthscaleBoundWarning(lg->lowerBoundShare(), lg->upperBoundShare(),
                                                 lg->nodeLengthscales()[lg->nodeLengthscales().size() / 2]))
                r.warnings.push_back(*m);
        if (auto m = linearisationWarning(std::sqrt(lg->exactVariance()), r.pluginEstimate.sd()))
            r.warnings.push_back(*m);
        r.jitter = lg->jitter();
        std::vector<double> lbar, var;
        lg->evaluate(r.gridX, lbar, var);
        for (int i = 0; i < plotPoints; ++i) {
            const double half = 2 * std::sqrt(var[size_t(i)]);
            r.modelMean.push_back(lbar[size_t(i)]);
            r.modelLower.push_back(lbar[size_t(i)] - half);
            r.modelUpper.push_back(lbar[size_t(i)] + half);
        }
    }
    if (auto m = massBeyondSamplesWarning(r.x, r.logL, p))
        r.warnings.insert(r.warnings.begin(), *m);
    if (!r.trace.empty() && r.trace.back().n == total)
        r.trace.back() = {total, r.estimate.mean, r.estimate.sd()};
    return r;
}

} // namespace evx::bq
