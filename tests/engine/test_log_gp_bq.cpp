// Log-GP Bayesian quadrature: V[Ẑ] against a brute-force double integral (also when the second
// GP is ill conditioned), sd never 0, the lengthscale fit away from the ill-conditioned basin,
// both modes found by active sampling, calibration over a sweep, and the comparison with GP BQ
// and Monte Carlo on a peak.

#include "bq_test_support.h"

using namespace evx;
using namespace evx::bq;
using namespace evx::bq_test;

class TestLogGpBq : public QObject {
    Q_OBJECT

private slots:
    void logGpVarianceMatchesBruteForce()
    {
        const GaussianMeasure p = GaussianMeasure::oneDimensional(0.2, 1.0);
        Eigen::MatrixXd x(6, 1);
        x << -1.5, -0.6, 0.1, 0.5, 0.9, 1.8;
        Eigen::VectorXd logL(6);
        for (int i = 0; i < 6; ++i)
            logL[i] = -0.5 * std::pow((x(i, 0) - 0.4) / 0.5, 2);
        const gp::Kernel k(gp::KernelKind::Gaussian, 3.0, Eigen::VectorXd::Constant(1, 0.8));
        const LogGpBq model(x, logL, p, k, true);
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
            zRef +=
                (i == 0 || i == n - 1 ? 0.5 : 1.0) * h * lbar[size_t(i)] * normalPdf(g[size_t(i)], 0.2, 1.0);
        const ZEstimate e = model.estimate();
        const double scale = std::exp(2 * model.logShift());
        const double linearised = model.linearisedVarianceScaled() * scale;
        QVERIFY2(std::fabs(linearised - ref) < 1e-6 * ref,
                 qPrintable(QString("%1 vs %2").arg(linearised).arg(ref)));
        // The log-GP's own moments on the same grid (trapezoid at 1/50 sd, as accurate as above).
        const auto [direct, exact] = bruteForceLogNormalMoments(model, 0.2, 1.0, logL.maxCoeff());
        QVERIFY2(std::fabs(model.directZScaled() - direct) < 1e-8 * direct,
                 qPrintable(QString("%1 vs %2").arg(model.directZScaled()).arg(direct)));
        QVERIFY2(std::fabs(model.exactVarianceScaled() - exact) < 1e-6 * exact,
                 qPrintable(QString("%1 vs %2").arg(model.exactVarianceScaled()).arg(exact)));
        // V[Ẑ] = linearised + (Z_0 − ∫ m_exp p)².
        const double expected =
            (model.linearisedVarianceScaled() + std::pow(model.z0Scaled() - direct, 2)) * scale;
        QVERIFY2(std::fabs(e.variance - expected) < 1e-6 * expected,
                 qPrintable(QString("%1 vs %2").arg(e.variance).arg(expected)));
        QVERIFY2(std::fabs(e.mean - zRef) < 1e-8 * zRef,
                 qPrintable(QString("%1 vs %2").arg(e.mean).arg(zRef)));
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
            logL[i] =
                scenarios::quadrature::logIntegrand(scenarios::quadrature::Integrand::WideBump, x(i, 0));
        const LogGpBq model(
            x, logL, p, gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, lengthscale)));
        const double ref = bruteForceVariance(model, b, 1.0);
        const ZEstimate e = model.estimate();
        QVERIFY(e.variance > 0);
        // The reference is cut at ±8 sd, where the wide bump's ℓ̄·p still has 1e-6 of its mass.
        const double linearised = model.linearisedVarianceScaled() * std::exp(2 * model.logShift());
        QVERIFY2(std::fabs(linearised - ref) < 1e-4 * ref,
                 qPrintable(QString("%1 vs %2").arg(linearised).arg(ref)));
        QVERIFY(e.variance >= linearised);
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
                QVERIFY2(band.upper[i] > band.lower[i],
                         qPrintable(QString("integrand %1, n = %2").arg(integrand).arg(band.x[i])));
        }
    }

    void logGpBeatsGpAndMonteCarloOnAPeak()
    {
        // The peaked integrand N-shaped around 0.6 with sd 0.15 under p = N(0, 1), 20 samples
        // drawn from p (strategy mc, so the seed matters), 20 seeds, fitted lengthscales.
        // A GP on log ℓ sees a parabola; a GP on ℓ sees a narrow spike.
        const GaussianMeasure p = GaussianMeasure::oneDimensional(0, 1);
        const double truth =
            integrate([](double x) { return std::exp(peakedLog(x)) * normalPdf(x, 0, 1); }, -12, 12);
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
        qInfo("median relative error over 20 seeds: log-GP BQ %.3g, GP BQ %.3g, Monte Carlo %.3g", mLog, mGp,
              mMc);
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
        const double truth = f.summary.value("z.true"), mean = f.summary.value("z.mean"),
                     sd = f.summary.value("z.sd");
        qInfo("seed %d: lengthscale %.3g, jitter %.3g, relative error %.3g, |error|/sd %.3g", seed,
              f.summary.value("kernel.lengthscale"), f.summary.value("jitter.added"),
              std::fabs(mean - truth) / truth, std::fabs(mean - truth) / sd);
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
            z.push_back(std::fabs(f.summary.value("z.mean") - f.summary.value("z.true")) /
                        f.summary.value("z.sd"));
        }
        std::sort(z.begin(), z.end());
        qInfo("median |error|/sd %.3g", z[10]);
        QVERIFY(z[10] < 4 * 0.674);
    }
};

QTEST_APPLESS_MAIN(TestLogGpBq)
#include "test_log_gp_bq.moc"
