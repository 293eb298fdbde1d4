// Bayesian quadrature: kernel means and prior variances against brute-force quadrature
// (Boost.Math Gauss–Kronrod, 1-D and nested 2-D), exactness in the span of the kernel, the
// incremental estimate against a refit, log-GP BQ's closed-form variance against a brute-force
// double integral, nested designs, and log-GP BQ against GP BQ and Monte Carlo on a peak.
#include "bq/bayes_quadrature.h"
#include "bq/designs.h"
#include "bq/kernel_means.h"
#include "bq/log_gp_bq.h"
#include "bq/marginal_gp.h"
#include "bq/quadrature_study.h"
#include "scenarios/quadrature/integrands.h"
#include "scenarios/registry.h"

#include <QtTest>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <algorithm>
#include <cmath>
#include <numbers>

using namespace evx;
using namespace evx::bq;
using boost::math::quadrature::gauss_kronrod;

Q_DECLARE_METATYPE(evx::gp::KernelKind)

namespace {

double integrate(const std::function<double(double)>& f, double a, double b, int panels = 40)
{
    double s = 0;
    for (int k = 0; k < panels; ++k)
        s += gauss_kronrod<double, 31>::integrate(f, a + (b - a) * k / panels, a + (b - a) * (k + 1) / panels, 10,
                                                  1e-13);
    return s;
}

double normalPdf(double x, double m, double sd)
{
    return std::exp(-0.5 * std::pow((x - m) / sd, 2)) / (sd * std::sqrt(2 * std::numbers::pi));
}

double peakedLog(double x)
{
    return -0.5 * std::pow((x - 0.6) / 0.15, 2);
}

// Brute-force V[Ẑ] = Σ_ij u_i u_j Cov_logℓ(x_i, x_j), u = trapezoid weight · ℓ̄ · p, on 801 points
// over p's ±8 sd, with the covariance and ℓ̄ taken from the model's two GPs pointwise.
double bruteForceVariance(const LogGpBq& model, double b, double sd)
{
    const int n = 801;
    std::vector<double> g(n);
    for (int i = 0; i < n; ++i)
        g[size_t(i)] = b - 8 * sd + 16.0 * sd * i / (n - 1);
    std::vector<double> lbar, vlog;
    model.evaluate(g, lbar, vlog);
    const Eigen::MatrixXd gx = Eigen::Map<const Eigen::MatrixXd>(g.data(), n, 1);
    const gp::GpRegression& lg = model.logGp();
    const Eigen::MatrixXd v = lg.factor().solveL(lg.kernel().matrix(lg.inputs(), gx));
    const Eigen::MatrixXd cov = lg.kernel().matrix(gx) - v.transpose() * v;
    Eigen::VectorXd u(n);
    const double h = 16.0 * sd / (n - 1);
    for (int i = 0; i < n; ++i)
        u[i] = (i == 0 || i == n - 1 ? 0.5 : 1.0) * h * lbar[size_t(i)] * normalPdf(g[size_t(i)], b, sd);
    return u.dot(cov * u);
}

}  // namespace

class TestBq : public QObject {
    Q_OBJECT

private slots:
    void kernelMeansMatchBruteForce_data()
    {
        QTest::addColumn<gp::KernelKind>("kind");
        QTest::addColumn<int>("dims");
        QTest::newRow("gaussian-1d") << gp::KernelKind::Gaussian << 1;
        QTest::newRow("gaussian-2d") << gp::KernelKind::Gaussian << 2;
        QTest::newRow("matern32-1d") << gp::KernelKind::Matern32 << 1;
    }
    void kernelMeansMatchBruteForce()
    {
        QFETCH(gp::KernelKind, kind);
        QFETCH(int, dims);
        Eigen::VectorXd w(dims), b(dims), sd(dims);
        w << 0.7, 1.4;  // only the first `dims` are used
        b << 0.3, -1.0;
        sd << 1.2, 0.6;
        w.conservativeResize(dims), b.conservativeResize(dims), sd.conservativeResize(dims);
        const gp::Kernel k(kind, 2.5, w);
        const GaussianMeasure p{b, sd.array().square().matrix()};
        Eigen::MatrixXd x(3, dims);
        x.col(0) << -0.5, 0.3, 2.0;
        if (dims == 2)
            x.col(1) << 0.1, -1.5, 1.0;
        const Eigen::VectorXd z = kernelMeans(k, x, p);
        // Independent reference: nested adaptive Gauss–Kronrod over ±12 sd of p, written
        // against the kernel's value only (no shared closed form).
        auto density = [&](const double* u) {
            double d = 1;
            for (int j = 0; j < dims; ++j)
                d *= normalPdf(u[j], b[j], sd[j]);
            return d;
        };
        auto over = [&](int j, const std::function<double(double)>& f) {
            return integrate(f, b[j] - 12 * sd[j], b[j] + 12 * sd[j], dims == 1 ? 40 : 12);
        };
        for (int i = 0; i < 3; ++i) {
            double ref;
            if (dims == 1)
                ref = over(0, [&](double u) { const double xi = x(i, 0); return k(&u, &xi) * density(&u); });
            else
                ref = over(0, [&](double u0) {
                    return over(1, [&](double u1) {
                        const double u[2] = {u0, u1}, xi[2] = {x(i, 0), x(i, 1)};
                        return k(u, xi) * density(u);
                    });
                });
            // Both sides are accurate to ~1e-12 relative; 1e-8 leaves room for the Matérn
            // kink, which the brute force does not split at.
            QVERIFY2(std::fabs(z[i] - ref) < 1e-8 * ref, qPrintable(QString("%1 vs %2").arg(z[i]).arg(ref)));
        }
        double vRef;
        if (dims == 1)
            vRef = over(0, [&](double u) {
                return over(0, [&](double v) { return k(&u, &v) * density(&u) * density(&v); });
            });
        else {
            // V_prior = ∬ k p p in 4-D: the inner 2-D integral is ∫ k(u, ·) p = z(u), already
            // checked above at three points, so integrate z against p in 2-D.
            vRef = over(0, [&](double u0) {
                return over(1, [&](double u1) {
                    const double u[2] = {u0, u1};
                    return kernelMean(k, u, p) * density(u);
                });
            });
        }
        const double v = priorVariance(k, p);
        QVERIFY2(std::fabs(v - vRef) < 1e-7 * vRef, qPrintable(QString("%1 vs %2").arg(v).arg(vRef)));
    }

    void exactForIntegrandInTheKernelSpan()
    {
        // f(x) = Σ_j c_j k(x, u_j) lies in the span of the kernel; sampling at the u_j (and
        // more) makes the GP mean equal f, so E[Z] = ∫ f p exactly and V[Z] is ≈ 0 for f's part.
        const gp::Kernel k(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, 0.5));
        const std::vector<double> u = {-1.0, 0.2, 1.1}, c = {0.8, -0.3, 1.5};
        auto f = [&](double x) {
            double s = 0;
            for (size_t j = 0; j < u.size(); ++j)
                s += c[j] * k(&x, &u[j]);
            return s;
        };
        Eigen::MatrixXd x(7, 1);
        x << -1.0, 0.2, 1.1, -2.0, -0.4, 0.7, 2.2;
        Eigen::VectorXd y(7);
        for (int i = 0; i < 7; ++i)
            y[i] = f(x(i, 0));
        gp::GpRegression g(k);
        g.setData(x, y);
        QCOMPARE(g.jitter(), 0.0);
        const GaussianMeasure p = GaussianMeasure::oneDimensional(0.1, 0.9);
        const double truth = integrate([&](double t) { return f(t) * normalPdf(t, 0.1, 0.9); }, -11, 11);
        const ZEstimate e = bqEstimate(g, p);
        // Exact up to rounding in K⁻¹y (cond(K) ~ 1e3 here): 1e-10 relative.
        QVERIFY2(std::fabs(e.mean - truth) < 1e-10 * std::fabs(truth), qPrintable(QString::number(e.mean - truth)));
        // An integrand outside the span (cos) is not integrated exactly by the same design:
        // this checks that the assertion above can fail.
        for (int i = 0; i < 7; ++i)
            y[i] = std::cos(3 * x(i, 0));
        g.setData(x, y);
        const double cosTruth = integrate([&](double t) { return std::cos(3 * t) * normalPdf(t, 0.1, 0.9); }, -11, 11);
        QVERIFY(std::fabs(bqEstimate(g, p).mean - cosTruth) > 1e-4);
    }

    void incrementalMatchesRefit()
    {
        // 20 quasi-random points and lengthscale 0.15: K is well conditioned (checked: no
        // jitter), so both routes agree to rounding and 1e-10 tests the update, not cond(K).
        const gp::Kernel k(gp::KernelKind::Gaussian, 3.0, Eigen::VectorXd::Constant(1, 0.15));
        const GaussianMeasure p = GaussianMeasure::oneDimensional(0.0, 1.0);
        const Eigen::MatrixXd x = quasiRandomDesign(p, 20, 4);
        IncrementalBq inc(k, p, false);
        Eigen::VectorXd y(20);
        for (int i = 0; i < 20; ++i) {
            y[i] = std::exp(peakedLog(x(i, 0)));
            inc.add(x.row(i).transpose(), y[i]);
        }
        gp::GpRegression full(k);
        full.setData(x, y);
        const ZEstimate a = inc.estimate(), b = bqEstimate(full, p);
        QCOMPARE(inc.gp().jitter(), 0.0);
        QCOMPARE(full.jitter(), 0.0);
        QVERIFY2(std::fabs(a.mean - b.mean) < 1e-10 * std::fabs(b.mean), qPrintable(QString("%1 vs %2").arg(a.mean).arg(b.mean)));
        QVERIFY(std::fabs(a.variance - b.variance) < 1e-10 * priorVariance(k, p));
    }

    void logGpVarianceMatchesBruteForce()
    {
        const GaussianMeasure p = GaussianMeasure::oneDimensional(0.2, 1.0);
        Eigen::MatrixXd x(6, 1);
        x << -1.5, -0.6, 0.1, 0.5, 0.9, 1.8;
        Eigen::VectorXd logL(6);
        for (int i = 0; i < 6; ++i)
            logL[i] = -0.5 * std::pow((x(i, 0) - 0.4) / 0.5, 2);
        const gp::Kernel k(gp::KernelKind::Gaussian, 3.0, Eigen::VectorXd::Constant(1, 0.8));
        const LogGpBq model(x, logL, p, k);
        // Brute force (bruteForceVariance): the trapezoid rule on this smooth, decaying
        // integrand is accurate to far below the 1e-6 tolerance.
        const double ref = bruteForceVariance(model, 0.2, 1.0);
        const int n = 801;
        std::vector<double> g(n);
        for (int i = 0; i < n; ++i)
            g[size_t(i)] = 0.2 - 8 + 16.0 * i / (n - 1);
        std::vector<double> lbar, vlog;
        model.evaluate(g, lbar, vlog);
        const double h = 16.0 / (n - 1);
        double zRef = 0;
        for (int i = 0; i < n; ++i)
            zRef += (i == 0 || i == n - 1 ? 0.5 : 1.0) * h * lbar[size_t(i)] * normalPdf(g[size_t(i)], 0.2, 1.0);
        const ZEstimate e = model.estimate();
        QVERIFY2(std::fabs(e.variance - ref) < 1e-6 * ref, qPrintable(QString("%1 vs %2").arg(e.variance).arg(ref)));
        QVERIFY2(std::fabs(e.mean - zRef) < 1e-8 * zRef, qPrintable(QString("%1 vs %2").arg(e.mean).arg(zRef)));
        // Pointwise band (1.58): at a sample V_logℓ = 0 (up to jitter), between samples it is not.
        QVERIFY(vlog[size_t(std::lround((0.1 - g[0]) / h))] < 1e-6);
        QVERIFY(vlog[size_t(std::lround((1.35 - g[0]) / h))] > 1e-4);
    }

    void logGpVarianceIsPositiveWhenLbarIsIllConditioned_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("lengthscale");
        // The wide bump under N(−0.94, 1) on a quasi-random design. With these lengthscales ℓ̄'s
        // weights β reach 1e5–1e8, and the earlier closed form in β gave V = 0 (first, third)
        // or 1e6–1e7 times the truth (second).
        QTest::newRow("n=14, w=0.9") << 14 << 0.9;
        QTest::newRow("n=20, w=1.5") << 20 << 1.5;
        QTest::newRow("n=30, w=0.7") << 30 << 0.7;
    }
    void logGpVarianceIsPositiveWhenLbarIsIllConditioned()
    {
        QFETCH(int, n);
        QFETCH(double, lengthscale);
        const double b = -0.94;
        const GaussianMeasure p = GaussianMeasure::oneDimensional(b, 1.0);
        const Eigen::MatrixXd x = quasiRandomDesign(p, n, 1);
        Eigen::VectorXd logL(n);
        for (int i = 0; i < n; ++i)
            logL[i] = scenarios::quadrature::logIntegrand(scenarios::quadrature::Integrand::WideBump, x(i, 0));
        const LogGpBq model(x, logL, p, gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, lengthscale)));
        const double ref = bruteForceVariance(model, b, 1.0);
        const ZEstimate e = model.estimate();
        QVERIFY(e.variance > 0);
        // The reference is cut at ±8 sd, where the wide bump's ℓ̄·p still has 1e-6 of its mass.
        QVERIFY2(std::fabs(e.variance - ref) < 1e-4 * ref, qPrintable(QString("%1 vs %2").arg(e.variance).arg(ref)));
    }

    void logGpSdIsNeverZeroOnTheTraceOrInTheSummary()
    {
        // bq-1d settings where the summary used to print z.sd = 0 (two-mode, wide bump,
        // drop-of-a-ball at 50 samples: 37, 55 and 50 of 100 prior means in a sweep).
        const auto s = ScenarioRegistry::instance().find("bq-1d");
        QVERIFY(s);
        const std::vector<std::array<double, 2>> cases = {{1, -1.0}, {2, -0.939394}, {3, 9.0202}};
        for (const auto& [integrand, mean] : cases) {
            ParameterValues v = s->schema().defaults();
            v["integrand"] = integrand;
            v["prior_mean"] = mean;
            v["n_samples"] = 50;
            const Figure f = s->run(v, {});
            QVERIFY2(f.summary.value("z.sd") > 0, qPrintable(QString("integrand %1").arg(integrand)));
            // The convergence plot's first band is log-GP BQ's ±2 sd: strictly wider than 0.
            const Band& band = f.plots[1].bands[0];
            for (size_t i = 0; i < band.x.size(); ++i)
                QVERIFY2(band.upper[i] > band.lower[i], qPrintable(QString("integrand %1, n = %2").arg(integrand).arg(band.x[i])));
        }
    }

    void designsAreNested_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("strategy");
        QTest::addColumn<double>("lengthscale");
        QTest::newRow("gp-active-fixed") << int(Method::GpBq) << int(Strategy::Active) << 0.5;
        QTest::newRow("gp-active-fitted") << int(Method::GpBq) << int(Strategy::Active) << 0.0;
        QTest::newRow("loggp-active-fitted") << int(Method::LogGpBq) << int(Strategy::Active) << 0.0;
        QTest::newRow("loggp-grid") << int(Method::LogGpBq) << int(Strategy::QuasiRandom) << 0.0;
        QTest::newRow("gp-mc") << int(Method::GpBq) << int(Strategy::MonteCarlo) << 0.0;
    }
    void designsAreNested()
    {
        QFETCH(int, method);
        QFETCH(int, strategy);
        QFETCH(double, lengthscale);
        const GaussianMeasure p = GaussianMeasure::oneDimensional(0, 1);
        StudySettings s;
        s.method = Method(method);
        s.strategy = Strategy(strategy);
        s.lengthscale = lengthscale;
        s.seed = 3;
        s.userPoints = {0.25};
        std::vector<std::vector<double>> designs;
        for (int n : {11, 12, 13}) {
            s.samples = n;
            designs.push_back(runStudy(peakedLog, p, s, -4, 4, 50, {}).x);
        }
        for (size_t k = 0; k + 1 < designs.size(); ++k) {
            QCOMPARE(designs[k].size() + 1, designs[k + 1].size());
            QVERIFY(std::equal(designs[k].begin(), designs[k].end(), designs[k + 1].begin()));
        }
        QCOMPARE(designs[0].front(), 0.25);  // the clicked point comes first
        // Active sampling must not repeat a point (that would add nothing).
        std::vector<double> sorted = designs.back();
        std::sort(sorted.begin(), sorted.end());
        QVERIFY(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    }

    void logGpBeatsGpAndMonteCarloOnAPeak()
    {
        // The peaked integrand N-shaped around 0.6 with sd 0.15 under p = N(0, 1), 20 samples
        // drawn from p (strategy mc, so the seed matters), 20 seeds, fitted lengthscales.
        // A GP on log ℓ sees a parabola; a GP on ℓ sees a narrow spike.
        const GaussianMeasure p = GaussianMeasure::oneDimensional(0, 1);
        const double truth = integrate([](double x) { return std::exp(peakedLog(x)) * normalPdf(x, 0, 1); }, -12, 12);
        std::vector<double> logGp, gpBq, mc;
        for (int seed = 1; seed <= 20; ++seed) {
            StudySettings s;
            s.strategy = Strategy::MonteCarlo;
            s.samples = 20;
            s.seed = std::uint64_t(seed);
            s.method = Method::LogGpBq;
            const StudyResult a = runStudy(peakedLog, p, s, -4, 4, 20, {});
            s.method = Method::GpBq;
            const StudyResult b = runStudy(peakedLog, p, s, -4, 4, 20, {});
            logGp.push_back(std::fabs(a.estimate.mean - truth) / truth);
            gpBq.push_back(std::fabs(b.estimate.mean - truth) / truth);
            mc.push_back(std::fabs(a.mcTrace.back().mean - truth) / truth);
        }
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return 0.5 * (v[9] + v[10]);
        };
        const double mLog = median(logGp), mGp = median(gpBq), mMc = median(mc);
        qInfo("median relative error over 20 seeds: log-GP BQ %.3g, GP BQ %.3g, Monte Carlo %.3g", mLog, mGp, mMc);
        QVERIFY(mLog < mGp);
        QVERIFY(mLog < mMc);
    }

    void logGpLengthscaleFitAvoidsTheIllConditionedBasin_data()
    {
        QTest::addColumn<int>("seed");
        for (int seed : {1, 2, 3})
            QTest::addRow("seed %d", seed) << seed;
    }

    void logGpLengthscaleFitAvoidsTheIllConditionedBasin()
    {
        // Two-mode integrand (modes of sd 0.3 and 0.2 at −1 and 1.3) under p = N(0.74, 1), 50
        // quasi-random samples (the two-mode preset's strategy). Its log ℓ switches between two
        // parabolas within ~0.03, so the genuine maximum of the profiled likelihood sits at a
        // short lengthscale. Beyond ~1.5× the sample spacing the Gaussian K is so ill conditioned
        // that ĥ = rᵀK₁⁻¹r/n (1e8–1e14) is rounding, and that regime has a spurious maximum near the
        // 20·sd bound, where L-BFGS warm-started from earlier fits used to end (jitter up to 2
        // absolute, Z off by 90–125 %). Expected now: a lengthscale below p's sd (a residual GP
        // that varies on the scale of p cannot follow modes 0.2–0.3 wide), jitter at
        // rounding level (1e-12 of K's diagonal ≈ 1e-10 here), the estimate within a factor 2
        // and its error within 3 sd.
        QFETCH(int, seed);
        const auto sc = ScenarioRegistry::instance().find("bq-1d");
        QVERIFY(sc);
        ParameterValues v = sc->schema().defaults();
        v["integrand"] = 1;
        v["prior_mean"] = 0.74;
        v["method"] = 1;
        v["strategy"] = 1;
        v["n_samples"] = 50;
        v["seed"] = seed;
        const Figure f = sc->run(v, {});
        const double truth = f.summary.value("z.true"), mean = f.summary.value("z.mean"), sd = f.summary.value("z.sd");
        qInfo("seed %d: lengthscale %.3g, jitter %.3g, relative error %.3g, |error|/sd %.3g", seed,
              f.summary.value("kernel.lengthscale"), f.summary.value("jitter.added"), std::fabs(mean - truth) / truth,
              std::fabs(mean - truth) / sd);
        QVERIFY(f.summary.value("kernel.lengthscale") < 1.0);
        QVERIFY(f.summary.value("jitter.added") < 1e-6);
        QVERIFY(std::fabs(mean - truth) < truth);
        QVERIFY(std::fabs(mean - truth) < 3 * sd);
    }

    void logGpFindsTheSecondModeWithActiveSampling_data()
    {
        QTest::addColumn<double>("priorMean");
        for (double b : {0.8, 0.9, 1.0})
            QTest::addRow("prior mean %.1f", b) << b;
    }

    void logGpFindsTheSecondModeWithActiveSampling()
    {
        // Two-mode integrand, 20 active samples (the default strategy). The mode at −1 holds
        // 26–34 % of Z for these prior means. With a prior mean that fell quadratically to
        // e⁻⁵⁰ away from the mode at 1.3 the acquisition never went there: Z was short by that
        // share and its sd 1e-6 of Z. With the mean levelling off at the lowest observed log ℓ
        // both modes are sampled and the error is the log-GP's interpolation error (5e-5–5e-4
        // measured): 1 % is twenty times that and a thirtieth of a missed mode.
        QFETCH(double, priorMean);
        const auto sc = ScenarioRegistry::instance().find("bq-1d");
        QVERIFY(sc);
        ParameterValues v = sc->schema().defaults();
        v["integrand"] = 1;
        v["prior_mean"] = priorMean;
        v["method"] = 1;
        v["strategy"] = 2;
        v["n_samples"] = 20;
        const Figure f = sc->run(v, {});
        const double truth = f.summary.value("z.true"), mean = f.summary.value("z.mean");
        qInfo("prior mean %.1f: relative error %.3g, sd/Z %.3g", priorMean, std::fabs(mean - truth) / truth,
              f.summary.value("z.sd") / truth);
        QVERIFY(std::fabs(mean - truth) < 0.01 * truth);
    }

    void logGpSdIsCalibratedOverAPriorMeanSweep_data()
    {
        QTest::addColumn<int>("integrand");
        QTest::addColumn<int>("strategy");
        QTest::addRow("wide-bump, active") << 2 << 2;
        QTest::addRow("peaked, mc") << 0 << 0;
    }

    void logGpSdIsCalibratedOverAPriorMeanSweep()
    {
        // 50 samples, prior means −1…1 (21). For a calibrated Gaussian sd the median of
        // |error|/sd is 0.67; ML-II hyperparameters and the linearised V[Ẑ] are known to be
        // overconfident, so a factor 4 (median ≤ 2.7) is allowed; only overconfidence is
        // checked (a too wide sd is honest, if unhelpful). Measured on main before this branch:
        // 2.8 (wide-bump) and 0.003 (peaked: sd 300× too wide, ĥ at its floor); with the scanned
        // lengthscale fit but the unbounded parabola: 3.0 and 4.2; now 1.7 and 0.13.
        QFETCH(int, integrand);
        QFETCH(int, strategy);
        const auto sc = ScenarioRegistry::instance().find("bq-1d");
        QVERIFY(sc);
        std::vector<double> z;
        for (int k = 0; k <= 20; ++k) {
            ParameterValues v = sc->schema().defaults();
            v["integrand"] = integrand;
            v["prior_mean"] = -1 + 0.1 * k;
            v["method"] = 1;
            v["strategy"] = strategy;
            v["n_samples"] = 50;
            const Figure f = sc->run(v, {});
            z.push_back(std::fabs(f.summary.value("z.mean") - f.summary.value("z.true")) / f.summary.value("z.sd"));
        }
        std::sort(z.begin(), z.end());
        qInfo("median |error|/sd %.3g", z[10]);
        QVERIFY(z[10] < 4 * 0.674);
    }

    void marginalMatchesBruteForce()
    {
        // A 2-D GP (h ≠ 1, different lengthscales, nonzero prior mean) on 25 quasi-random points;
        // its marginal over y ~ N(0.3, 0.8²) against Gauss–Kronrod over y of the GP's own pointwise
        // mean, and of its covariance (nested, for the variance).
        const GaussianMeasure p2{Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)};
        const Eigen::MatrixXd x = quasiRandomDesign(p2, 25, 2);
        Eigen::VectorXd y(25);
        for (int i = 0; i < 25; ++i)
            y[i] = std::sin(x(i, 0)) * std::exp(-0.3 * x(i, 1) * x(i, 1)) + 0.5;
        gp::GpRegression g(gp::Kernel(gp::KernelKind::Gaussian, 2.0, Eigen::Vector2d(0.6, 0.9)), 0.2);
        g.setData(x, y);
        const double muY = 0.3, sdY = 0.8;
        const MarginalGp marginal(g, muY, sdY);
        for (double x0 : {-1.3, 0.0, 0.7, 2.5}) {
            const double ref = integrate([&](double t) {
                const double pt[2] = {x0, t};
                return g.mean(pt) * normalPdf(t, muY, sdY);
            }, muY - 12 * sdY, muY + 12 * sdY);
            // Both are accurate to ~1e-12; 1e-9 absolute on values of order 1.
            QVERIFY2(std::fabs(marginal.mean(x0) - ref) < 1e-9, qPrintable(QString("%1 vs %2").arg(marginal.mean(x0)).arg(ref)));
        }
        for (double x0 : {-1.3, 0.7}) {
            auto cov = [&](double t1, double t2) {
                const double a[2] = {x0, t1}, b[2] = {x0, t2};
                const Eigen::VectorXd ka = g.kernel().column(g.inputs(), a), kb = g.kernel().column(g.inputs(), b);
                return g.kernel()(a, b) - g.factor().solveL(ka).dot(g.factor().solveL(kb));
            };
            const double ref = integrate([&](double t1) {
                return normalPdf(t1, muY, sdY) * integrate([&](double t2) { return cov(t1, t2) * normalPdf(t2, muY, sdY); },
                                                           muY - 10 * sdY, muY + 10 * sdY, 8);
            }, muY - 10 * sdY, muY + 10 * sdY, 8);
            // The variance is a difference of two O(1) terms; 1e-8 absolute.
            QVERIFY2(std::fabs(marginal.variance(x0) - ref) < 1e-8, qPrintable(QString("%1 vs %2").arg(marginal.variance(x0)).arg(ref)));
        }
    }

    void otherScenariosRun_data()
    {
        QTest::addColumn<QString>("id");
        QTest::newRow("bq-evidence") << "bq-evidence";
        QTest::newRow("bq-2d-marginal") << "bq-2d-marginal";
    }
    void otherScenariosRun()
    {
        QFETCH(QString, id);
        const auto s = ScenarioRegistry::instance().find(id.toStdString());
        QVERIFY(s);
        const Figure f = s->run(s->schema().defaults(), {});
        QCOMPARE(f.plots.size(), size_t(3));
        const std::string key = id == "bq-evidence" ? "evidence" : "z";
        // Both defaults converge well (measured: 1e-5 and 2e-2 relative); 10 % leaves margin
        // while catching a broken estimate, and the truth must lie within 4 sd of it.
        const double truth = f.summary.value(key + ".true"), mean = f.summary.value(key + ".mean");
        QVERIFY(std::fabs(mean - truth) < 0.1 * truth);
        // The linearised V[Ẑ] does not model the interpolation error of ℓ̄ through the
        // candidates (measured 2e-6 relative on bq-evidence), nor rounding in an ill-conditioned
        // log-GP: hence the 1e-4·Z floor, still far below the 10 % bound above. It is never 0.
        QVERIFY(f.summary.value(key + ".sd") > 0);
        QVERIFY(std::fabs(mean - truth) < 4 * f.summary.value(key + ".sd") + 1e-4 * truth);
        QVERIFY(f.summary.contains("jitter.added"));
    }

    void scenarioReportsTheContractKeys_data()
    {
        QTest::addColumn<QString>("method");
        QTest::newRow("bq") << "bq";
        QTest::newRow("log-gp-bq") << "log-gp-bq";
        QTest::newRow("mc") << "mc";
    }
    void scenarioReportsTheContractKeys()
    {
        QFETCH(QString, method);
        const auto s = ScenarioRegistry::instance().find("bq-1d");
        QVERIFY(s);
        ParameterValues v = s->schema().defaults();
        v["method"] = s->schema().parse("method", method.toStdString());
        v["n_samples"] = 12;
        const Figure f = s->run(v, {});
        for (const char* key : {"z.true", "z.mean", "z.sd", "z.rel_error", "mc.z.mean", "mc.z.rel_error", "jitter.added"})
            QVERIFY2(f.summary.contains(key), key);
        const double truth = integrate([](double x) { return std::exp(peakedLog(x)) * normalPdf(x, 0, 1); }, -12, 12);
        QVERIFY(std::fabs(f.summary.value("z.true") - truth) < 1e-10 * truth);
        QCOMPARE(f.plots.size(), size_t(3));
        QVERIFY(f.plots[2].logY);
        QVERIFY(s->schema().find("n_samples")->animatable);
        // The clicked points are used as samples.
        RunInput in{v, {{{0.6, 0.0}}, {{-0.3, 0.0}}}, {}};
        const Figure g = s->runWith(in, {});
        QCOMPARE(g.summary.value("samples.n"), method == "mc" ? 12.0 : 14.0);
    }
};

QTEST_APPLESS_MAIN(TestBq)
#include "test_bq.moc"
