// Distributional evidence with an x-dependent normaliser (evidence/distributional_evidence.h,
// ue-gaussian-hetero): Z(x) against integration over μ_q, and the exact and implied posteriors
// against brute-force nested quadrature with Boost's Gauss–Kronrod rules.
#include "evidence/distributional_evidence.h"
#include "evidence/readings.h"
#include "models/heteroscedastic_gaussian_model.h"
#include "scenarios/registry.h"
#include "stats/densities.h"

#include <QtTest>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>

using namespace evx;
using boost::math::quadrature::gauss_kronrod;

namespace {

// ∫ ln N(y; m, s²) N(y; μ_q, σ_q²) dy by quadrature over y (no closed form used).
double expectedLogLikelihood(double m, double s, double muQ, double sq)
{
    auto f = [&](double y) {
        return stats::normalLogPdf(y, m, s) * std::exp(stats::normalLogPdf(y, muQ, sq));
    };
    return gauss_kronrod<double, 31>::integrate(f, muQ - 12 * sq, muQ + 12 * sq, 4, 1e-11);
}

// Z(x) = ∫ exp(∫ ln p(y | x) q_{μ_q}(y) dy) dμ_q, both integrals numerical.
double numericalZ(double m, double s, double sq)
{
    auto f = [&](double muQ) { return std::exp(expectedLogLikelihood(m, s, muQ, sq)); };
    return gauss_kronrod<double, 31>::integrate(f, m - 15 * s - 15 * sq, m + 15 * s + 15 * sq, 6, 1e-10);
}

struct Moments {
    double mean, sd;
};

// Mean and sd of the density ∝ w(x) on [lo, hi], by adaptive Gauss–Kronrod (split at 0 where
// s(x) has its kink).
template <class W> Moments momentsOf(W w, double lo, double hi)
{
    auto integrate = [&](auto f) {
        return gauss_kronrod<double, 31>::integrate(f, lo, 0.0, 8, 1e-9) +
               gauss_kronrod<double, 31>::integrate(f, 0.0, hi, 8, 1e-9);
    };
    const double z = integrate([&](double x) { return w(x); });
    const double m1 = integrate([&](double x) { return x * w(x); }) / z;
    const double m2 = integrate([&](double x) { return (x - m1) * (x - m1) * w(x); }) / z;
    return {m1, std::sqrt(m2)};
}

} // namespace

class TestDistributionalEvidence : public QObject {
    Q_OBJECT

private slots:
    void normaliserAgainstIntegralOverMuQ_data()
    {
        QTest::addColumn<double>("s");
        QTest::addColumn<double>("sq");
        QTest::newRow("s 0.5, σq 1") << 0.5 << 1.0;
        QTest::newRow("s 2, σq 1") << 2.0 << 1.0;
        QTest::newRow("s 3, σq 0.3") << 3.0 << 0.3;
        QTest::newRow("s 0.8, σq 0.8") << 0.8 << 0.8;
    }
    void normaliserAgainstIntegralOverMuQ()
    {
        QFETCH(double, s);
        QFETCH(double, sq);
        const double z = numericalZ(1.3, s, sq);
        const double closed = std::exp(evidence::gaussianLogNormaliser(s, sq));
        QVERIFY2(std::abs(z - closed) < 1e-9 * closed, qPrintable(QString("%1 vs %2").arg(z).arg(closed)));
        // The form printed in the paper, exp(−σ_q² / (2 s)), is wrong whenever s ≠ 1.
        const double printed = std::exp(-sq * sq / (2 * s));
        QVERIFY(std::abs(z - printed) > 1e-3 * closed);
    }

    void posteriorsAgainstBruteForce_data()
    {
        QTest::addColumn<double>("muX");
        QTest::addColumn<double>("sigmaX");
        QTest::addColumn<double>("s0");
        QTest::addColumn<double>("s1");
        QTest::addColumn<double>("sq");
        QTest::addColumn<double>("zeta");
        QTest::newRow("defaults") << 0.0 << 2.0 << 0.3 << 0.5 << 1.0 << 2.0;
        QTest::newRow("strong growth") << 0.0 << 2.0 << 0.2 << 1.0 << 1.5 << 2.0;
        QTest::newRow("offset prior") << -3.0 << 1.0 << 0.5 << 0.2 << 0.5 << 1.0;
    }
    void posteriorsAgainstBruteForce()
    {
        QFETCH(double, muX);
        QFETCH(double, sigmaX);
        QFETCH(double, s0);
        QFETCH(double, s1);
        QFETCH(double, sq);
        QFETCH(double, zeta);
        const models::HeteroscedasticGaussianModel m(muX, sigmaX, s0, s1);
        auto s = [&](double x) { return s0 + s1 * std::abs(x); };
        auto prior = [&](double x) { return std::exp(stats::normalLogPdf(x, muX, sigmaX)); };
        auto implied = [&](double x) {
            return prior(x) * std::exp(expectedLogLikelihood(x, s(x), zeta, sq));
        };
        auto exact = [&](double x) { return implied(x) / numericalZ(x, s(x), sq); };
        const double lo = muX - 10 * sigmaX, hi = muX + 10 * sigmaX;
        const Moments bi = momentsOf(implied, lo, hi);
        const Moments be = momentsOf(exact, lo, hi);

        ParameterValues v{{"mu_x", muX}, {"sigma_x", sigmaX}, {"s0", s0},
                          {"s1", s1},    {"sigma_q", sq},     {"zeta", zeta}};
        const Figure f = ScenarioRegistry::instance().find("ue-gaussian-hetero")->run(v, {});
        // The scenario's 801-point grid with s(x)'s kink at 0: the trapezoid rule is O(h²) there.
        const double tol = 2e-4;
        QVERIFY2(
            std::abs(f.summary.value("distributional_implied.mean") - bi.mean) < tol * bi.sd,
            qPrintable(QString("%1 vs %2").arg(f.summary.value("distributional_implied.mean")).arg(bi.mean)));
        QVERIFY(std::abs(f.summary.value("distributional_implied.sd") - bi.sd) < tol * bi.sd);
        QVERIFY2(
            std::abs(f.summary.value("distributional_exact.mean") - be.mean) < tol * be.sd,
            qPrintable(QString("%1 vs %2").arg(f.summary.value("distributional_exact.mean")).arg(be.mean)));
        QVERIFY(std::abs(f.summary.value("distributional_exact.sd") - be.sd) < tol * be.sd);
        // With x-dependent noise the two differ visibly.
        QVERIFY(std::abs(be.mean - bi.mean) > 0.01 * be.sd);
    }

    // The general grid path (pseudo-likelihood with the y integral done on a grid) agrees with
    // the closed form of the implied posterior.
    void gridPathMatchesImplied()
    {
        const models::HeteroscedasticGaussianModel m(0, 2, 0.3, 0.5);
        const evidence::GaussianEvidence q(2, 1);
        const evidence::ReadingGrids g{UniformGrid(-20, 20, 801), UniformGrid(-12, 14, 1601),
                                       UniformGrid(2 - 12, 2 + 12, 961)};
        const evidence::Readings r = evidence::computeReadings(m, q, 2, g);
        const auto d = evidence::distributionalPosteriors(m, q, g.latent);
        QVERIFY(std::abs(r.distributional.mean - d.implied.mean) < 1e-8);
        QVERIFY(std::abs(r.distributional.sd - d.implied.sd) < 1e-8);
        // And exact distributional evidence is exact evidence at y = μ_q.
        QVERIFY(std::abs(r.exact.mean - d.exact.mean) < 1e-10);
    }

    // Constant noise: Z is constant, p_a = p and the two coincide (App. C.1).
    void constantNoiseCollapses()
    {
        const Figure f =
            ScenarioRegistry::instance().find("ue-gaussian-hetero")->run({{"s1", 0}, {"s0", 1}}, {});
        QVERIFY(std::abs(f.summary.value("distributional_exact.mean") -
                         f.summary.value("distributional_implied.mean")) < 1e-12);
        QVERIFY(std::abs(f.summary.value("adjusted_prior.sd") - f.summary.value("prior.sd")) < 1e-9);
        QCOMPARE(f.summary.value("jeffrey.consistent"), 1.0);
    }
};

QTEST_APPLESS_MAIN(TestDistributionalEvidence)
#include "test_distributional_evidence.moc"
