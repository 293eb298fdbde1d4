// The drop-of-a-ball scenario against an independent brute-force computation:
// adaptive Gauss–Kronrod quadrature (Boost.Math), nested for Jeffrey's rule and for the
// expected log-likelihood of distributional evidence, with no grids shared with the engine.
#include "scenarios/registry.h"

#include <QtTest>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <numbers>

using namespace evx;
using boost::math::quadrature::gauss_kronrod;

namespace {

struct BallReference {
    double h, tObs, sm, so, mu, sd;

    double fall(double g) const { return std::sqrt(2 * h / g); }
    double logPrior(double g) const { return -0.5 * std::pow((g - mu) / sd, 2); }
    double prior(double g) const { return std::exp(logPrior(g)); }
    static double logNormal(double x, double m, double s)
    {
        return -0.5 * std::pow((x - m) / s, 2) - std::log(s * std::sqrt(2 * std::numbers::pi));
    }
    static double normal(double x, double m, double s) { return std::exp(logNormal(x, m, s)); }
    double gLo() const { return std::max(mu - 12 * sd, 1e-3); }
    double gHi() const { return mu + 12 * sd; }

    // Adaptive Gauss–Kronrod on `panels` equal pieces; peaked integrands over a wide range
    // get many panels so that no adaptive step can step over the peak.
    template <class F> static double integrate(F f, double a, double b, int panels = 1)
    {
        double sum = 0;
        for (int k = 0; k < panels; ++k)
            sum += gauss_kronrod<double, 31>::integrate(f, a + (b - a) * k / panels,
                                                        a + (b - a) * (k + 1) / panels, 8, 1e-11);
        return sum;
    }

    // Mean and sd of the density ∝ w(g) over the prior's range.
    template <class W> std::pair<double, double> moments(W w) const
    {
        const double z = integrate(w, gLo(), gHi(), 100);
        const double m1 = integrate([&](double g) { return g * w(g); }, gLo(), gHi(), 100) / z;
        const double m2 =
            integrate([&](double g) { return (g - m1) * (g - m1) * w(g); }, gLo(), gHi(), 100) / z;
        return {m1, std::sqrt(m2)};
    }

    std::pair<double, double> virtualEvidence() const
    {
        // ∫ N(t; fall(g), sm²) N(t̂; t, so²) dt, integrated over t rather than in closed form.
        return moments([&](double g) {
            const double c = fall(g);
            return prior(g) * integrate([&](double t) { return normal(t, c, sm) * normal(tObs, t, so); },
                                        c - 12 * sm, c + 12 * sm);
        });
    }

    std::pair<double, double> distributional() const
    {
        auto expectedLogLik = [&](double g) {
            const double c = fall(g);
            return integrate([&](double t) { return normal(t, tObs, so) * logNormal(t, c, sm); },
                             tObs - 12 * so, tObs + 12 * so);
        };
        // A sharp model makes E_q[ln p(t | g)] ≈ −σ_obs²/(2σ_model²) (−5000 at 0.001 s and 0.1 s)
        // for every g: subtract its value at the g that explains t̂ so the weights do not underflow.
        const double shift = expectedLogLik(2 * h / (tObs * tObs));
        return moments([&](double g) { return prior(g) * std::exp(expectedLogLik(g) - shift); });
    }

    // E over t ~ q of the first two moments of p(g | t), each normalised per t. The inner
    // integrals substitute u = sqrt(2h/g) (g = 2h/u², |dg/du| = 4h/u³): in u the model error
    // is a plain N(t; u, sm), so its mass lies in t ± 12 sm whatever the prior.
    std::pair<double, double> jeffrey() const
    {
        auto perT = [&](double t, int power) {
            const double lo = std::max(t - 12 * sm, 1e-6), hi = t + 12 * sm;
            // The prior's largest value on [lo, hi], so the scaled integrand stays ≤ its peak.
            const double inside = fall(mu) > lo && fall(mu) < hi ? 0.0 : -1e300;
            const double shift = std::max({logPrior(2 * h / (lo * lo)), logPrior(2 * h / (hi * hi)), inside});
            auto w = [&](double u) {
                const double g = 2 * h / (u * u);
                return std::exp(logPrior(g) - shift) * normal(t, u, sm) * 4 * h / (u * u * u);
            };
            const double z = integrate(w, lo, hi);
            if (!(z > 0)) // only where q(t) < 1e-12 of its peak (see below): a negligible term
                return 0.0;
            return integrate([&](double u) { return std::pow(2 * h / (u * u), power) * w(u); }, lo, hi) / z;
        };
        // Timings beyond 7.5 σ_obs hold < 1e-13 of q's mass. There, for a sharp model, p(g | t)
        // lies where the prior's tail drags it, outside t ± 12 σ_model, and the inner integrals
        // cannot find it; their weight is too small to matter at the tolerances checked.
        const double lo = tObs - 7.5 * so, hi = tObs + 7.5 * so;
        const double m1 = integrate([&](double t) { return normal(t, tObs, so) * perT(t, 1); }, lo, hi);
        const double m2 = integrate([&](double t) { return normal(t, tObs, so) * perT(t, 2); }, lo, hi);
        return {m1, std::sqrt(m2 - m1 * m1)};
    }

    double varT() const
    {
        const double z = integrate([&](double g) { return prior(g); }, gLo(), gHi(), 20);
        const double m1 = integrate([&](double g) { return prior(g) * fall(g); }, gLo(), gHi(), 20) / z;
        const double m2 =
            integrate([&](double g) { return prior(g) * fall(g) * fall(g); }, gLo(), gHi(), 20) / z;
        return sm * sm + m2 - m1 * m1;
    }
};

Figure runBall(const ParameterValues& v)
{
    return ScenarioRegistry::instance().find("ue-drop-ball")->run(v, {});
}

bool relativelyClose(double a, double b, double tol)
{
    return std::abs(a - b) <= tol * std::abs(b);
}

// A reading's summary mean and sd against (mean, sd), each to a relative tolerance.
void checkMoments(const Figure& f, const char* key, std::pair<double, double> expected, double tol)
{
    const double mean = f.summary.value(std::string(key) + ".mean");
    const double sd = f.summary.value(std::string(key) + ".sd");
    QVERIFY2(relativelyClose(mean, expected.first, tol),
             qPrintable(
                 QString("%1.mean %2 vs %3").arg(key).arg(mean, 0, 'g', 12).arg(expected.first, 0, 'g', 12)));
    QVERIFY2(
        relativelyClose(sd, expected.second, tol),
        qPrintable(QString("%1.sd %2 vs %3").arg(key).arg(sd, 0, 'g', 12).arg(expected.second, 0, 'g', 12)));
}

} // namespace

class TestDropBall : public QObject {
    Q_OBJECT

private slots:
    void matchesBruteForceIntegral_data()
    {
        QTest::addColumn<double>("height");
        QTest::addColumn<double>("tObs");
        QTest::addColumn<double>("sigmaModel");
        QTest::addColumn<double>("sigmaObs");
        QTest::addColumn<double>("priorMean");
        QTest::addColumn<double>("priorSd");
        QTest::newRow("fig4") << 1.0 << 0.43 << 0.005 << 0.025 << 10.0 << 1.0;
        QTest::newRow("precise stopwatch") << 1.0 << 0.45 << 0.005 << 0.004 << 10.0 << 1.0;
        QTest::newRow("tall drop, wide prior") << 5.0 << 1.0 << 0.01 << 0.05 << 9.5 << 1.4;
        QTest::newRow("tiny model error") << 1.0 << 0.43 << 0.001 << 0.03 << 10.0 << 1.0;
        // The smallest model error with a stopwatch as vague as the grids still hold for Jeffrey's
        // rule (t̂ − 10 σ_obs > 0): both grids reach their 4001-point cap.
        QTest::newRow("sharp model, vague stopwatch") << 1.0 << 0.43 << 0.001 << 0.04 << 10.0 << 1.0;
    }

    void matchesBruteForceIntegral()
    {
        QFETCH(double, height);
        QFETCH(double, tObs);
        QFETCH(double, sigmaModel);
        QFETCH(double, sigmaObs);
        QFETCH(double, priorMean);
        QFETCH(double, priorSd);
        const Figure f = runBall({{"height", height},
                                  {"t_obs", tObs},
                                  {"sigma_model", sigmaModel},
                                  {"sigma_obs", sigmaObs},
                                  {"g_prior_mean", priorMean},
                                  {"g_prior_sd", priorSd}});
        const BallReference ref{height, tObs, sigmaModel, sigmaObs, priorMean, priorSd};

        // The issue asks for 1e-4 relative in means and sds.
        const double tol = 1e-4;
        checkMoments(f, "prior", ref.moments([&](double g) { return ref.prior(g); }), tol);
        checkMoments(f, "virtual", ref.virtualEvidence(), tol);
        checkMoments(f, "distributional", ref.distributional(), tol);
        checkMoments(f, "jeffrey", ref.jeffrey(), tol);
        QVERIFY(relativelyClose(f.summary.value("jeffrey.var_y"), ref.varT(), 1e-6));
    }

    void sharpModelCorner_data()
    {
        QTest::addColumn<double>("tObs");
        QTest::newRow("t_obs 0.35") << 0.35;
        QTest::newRow("t_obs 0.43") << 0.43;
        QTest::newRow("t_obs 0.5") << 0.5;
    }

    void sharpModelCorner()
    {
        // σ_model = 0.001 s, σ_obs = 0.1 s (issue 13's slow corner). The timings reach t < 0.17 s,
        // g > 70 m/s², past the latent grid (and t < 0, which no g explains), so Jeffrey's rule is
        // cut off and must say so; the other readings are Gaussian integrals over t in closed form
        // and must match nested Gauss–Kronrod like every other setting.
        QFETCH(double, tObs);
        const Figure f = runBall({{"t_obs", tObs}, {"sigma_model", 0.001}, {"sigma_obs", 0.1}});
        const BallReference ref{1, tObs, 0.001, 0.1, 10, 1};
        const double tol = 1e-4;
        checkMoments(f, "prior", ref.moments([&](double g) { return ref.prior(g); }), tol);
        checkMoments(f, "virtual", ref.virtualEvidence(), tol);
        checkMoments(f, "distributional", ref.distributional(), tol);
        bool cutOff = false;
        for (const std::string& w : f.warnings)
            cutOff = cutOff || (w.find("Jeffrey's rule posterior is cut off") != std::string::npos);
        QVERIFY2(cutOff, "Jeffrey's rule reaches past its grid here and must warn");
    }

    void predictiveMatchesIntegral_data()
    {
        QTest::addColumn<double>("height");
        QTest::addColumn<double>("sigmaModel");
        QTest::addColumn<double>("priorMean");
        QTest::addColumn<double>("priorSd");
        QTest::newRow("fig4") << 1.0 << 0.005 << 10.0 << 1.0;
        QTest::newRow("sharp model") << 1.0 << 0.001 << 10.0 << 1.0;
        QTest::newRow("sharp model, wide prior") << 1.0 << 0.001 << 15.0 << 2.4;
        QTest::newRow("model error wider than the prior's") << 3.0 << 0.05 << 9.0 << 0.05;
    }

    void predictiveMatchesIntegral()
    {
        // The dashed prior predictive p(t) = ∫ p(g) N(t; sqrt(2h/g), σ_model²) dg against
        // Gauss–Kronrod over g; the engine's trapezoid sum in u = sqrt(2h/g) resolves both
        // factors, so they agree to 1e-8 of the curve's peak.
        QFETCH(double, height);
        QFETCH(double, sigmaModel);
        QFETCH(double, priorMean);
        QFETCH(double, priorSd);
        const Figure f = runBall({{"height", height},
                                  {"sigma_model", sigmaModel},
                                  {"g_prior_mean", priorMean},
                                  {"g_prior_sd", priorSd}});
        const BallReference ref{height, 0.43, sigmaModel, 0.025, priorMean, priorSd};
        const double z =
            BallReference::integrate([&](double g) { return ref.prior(g); }, ref.gLo(), ref.gHi(), 100);
        const Series& p = f.plots.at(1).series.at(0);
        QCOMPARE(QString::fromStdString(p.name), QString("Prior predictive p(t)"));
        const double peak = *std::max_element(p.y.begin(), p.y.end());
        for (size_t k = 0; k < p.x.size(); k += 10) {
            const double t = p.x[k];
            const double expected =
                BallReference::integrate(
                    [&](double g) {
                        return ref.prior(g) * BallReference::normal(t, ref.fall(g), sigmaModel);
                    },
                    ref.gLo(), ref.gHi(), 400) /
                z;
            QVERIFY2(
                std::abs(p.y[k] - expected) <= 1e-8 * peak,
                qPrintable(
                    QString("p(%1) = %2 vs %3").arg(t).arg(p.y[k], 0, 'g', 12).arg(expected, 0, 'g', 12)));
        }
    }

    void figure4Shape()
    {
        // Paper Fig. 4: g = 9.81 lies inside the Jeffrey and virtual posteriors and far
        // outside the distributional one, which is much the narrowest.
        const auto scenario = ScenarioRegistry::instance().find("ue-drop-ball");
        const Figure f = scenario->run(scenario->presetValues("fig4"), {});
        const auto z = [&](const char* key) {
            return std::abs(9.81 - f.summary.value(std::string(key) + ".mean")) /
                   f.summary.value(std::string(key) + ".sd");
        };
        QVERIFY(z("jeffrey") < 2);
        QVERIFY(z("virtual") < 2);
        QVERIFY(z("distributional") > 3);
        QVERIFY(f.summary.value("distributional.sd") < 0.5 * f.summary.value("virtual.sd"));
        QCOMPARE(f.plots.at(0).markers.size(), size_t(1));
        QCOMPARE(f.plots[0].markers[0].x, 9.81);
    }

    void consistencyFlagFlipsAtItsBoundary()
    {
        // Var[t] from the reference; the flag must flip as σ_obs² crosses it.
        const BallReference ref{1, 0.43, 0.005, 0.025, 10, 1};
        const double boundary = std::sqrt(ref.varT());
        ParameterValues v{{"sigma_obs", boundary * (1 - 1e-4)}};
        QCOMPARE(runBall(v).summary.value("jeffrey.consistent"), 1.0);
        v["sigma_obs"] = boundary * (1 + 1e-4);
        const Figure outside = runBall(v);
        QCOMPARE(outside.summary.value("jeffrey.consistent"), 0.0);
        QCOMPARE(outside.warnings.size(), size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestDropBall)
#include "test_drop_ball.moc"
