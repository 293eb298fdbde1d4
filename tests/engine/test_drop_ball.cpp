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
    template <class F>
    static double integrate(F f, double a, double b, int panels = 1)
    {
        double sum = 0;
        for (int k = 0; k < panels; ++k)
            sum += gauss_kronrod<double, 31>::integrate(f, a + (b - a) * k / panels,
                                                        a + (b - a) * (k + 1) / panels, 8, 1e-11);
        return sum;
    }

    // Mean and sd of the density ∝ w(g) over the prior's range.
    template <class W>
    std::pair<double, double> moments(W w) const
    {
        const double z = integrate(w, gLo(), gHi(), 100);
        const double m1 = integrate([&](double g) { return g * w(g); }, gLo(), gHi(), 100) / z;
        const double m2 = integrate([&](double g) { return (g - m1) * (g - m1) * w(g); }, gLo(), gHi(), 100) / z;
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
        return moments([&](double g) {
            const double c = fall(g);
            const double expectedLogLik = integrate(
                [&](double t) { return normal(t, tObs, so) * logNormal(t, c, sm); },
                tObs - 12 * so, tObs + 12 * so);
            return prior(g) * std::exp(expectedLogLik);
        });
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
            return integrate([&](double u) { return std::pow(2 * h / (u * u), power) * w(u); }, lo, hi) / z;
        };
        const double lo = tObs - 10 * so, hi = tObs + 10 * so;
        const double m1 = integrate([&](double t) { return normal(t, tObs, so) * perT(t, 1); }, lo, hi);
        const double m2 = integrate([&](double t) { return normal(t, tObs, so) * perT(t, 2); }, lo, hi);
        return {m1, std::sqrt(m2 - m1 * m1)};
    }

    double varT() const
    {
        const double z = integrate([&](double g) { return prior(g); }, gLo(), gHi(), 20);
        const double m1 = integrate([&](double g) { return prior(g) * fall(g); }, gLo(), gHi(), 20) / z;
        const double m2 = integrate([&](double g) { return prior(g) * fall(g) * fall(g); }, gLo(), gHi(), 20) / z;
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

}  // namespace

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
    }

    void matchesBruteForceIntegral()
    {
        QFETCH(double, height);
        QFETCH(double, tObs);
        QFETCH(double, sigmaModel);
        QFETCH(double, sigmaObs);
        QFETCH(double, priorMean);
        QFETCH(double, priorSd);
        const Figure f = runBall({{"height", height}, {"t_obs", tObs}, {"sigma_model", sigmaModel},
                                  {"sigma_obs", sigmaObs}, {"g_prior_mean", priorMean},
                                  {"g_prior_sd", priorSd}});
        const BallReference ref{height, tObs, sigmaModel, sigmaObs, priorMean, priorSd};

        // The issue asks for 1e-4 relative in means and sds.
        const double tol = 1e-4;
        const auto check = [&](const char* key, std::pair<double, double> expected) {
            const double mean = f.summary.value(std::string(key) + ".mean");
            const double sd = f.summary.value(std::string(key) + ".sd");
            QVERIFY2(relativelyClose(mean, expected.first, tol),
                     qPrintable(QString("%1.mean %2 vs %3").arg(key).arg(mean, 0, 'g', 12).arg(expected.first, 0, 'g', 12)));
            QVERIFY2(relativelyClose(sd, expected.second, tol),
                     qPrintable(QString("%1.sd %2 vs %3").arg(key).arg(sd, 0, 'g', 12).arg(expected.second, 0, 'g', 12)));
        };
        check("prior", ref.moments([&](double g) { return ref.prior(g); }));
        check("virtual", ref.virtualEvidence());
        check("distributional", ref.distributional());
        check("jeffrey", ref.jeffrey());
        QVERIFY(relativelyClose(f.summary.value("jeffrey.var_y"), ref.varT(), 1e-6));
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
