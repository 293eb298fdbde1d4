// Predictive metrics from draws (engine/stats/predictive_metrics.*): the log-likelihood of
// Eq. 34 against closed forms (equal draws: a Gaussian; two draws: a two-component mixture by
// hand) and a SciPy reference, PICP and MPIW against a Gaussian's exact interval, the mixture
// entropy against Gaussian closed forms and adaptive quadrature, and the uncertainty
// decomposition of Sec. 7.3 on a case whose total and aleatoric entropies are known.
#include "compare_near.h"
#include "core/errors.h"
#include "stats/predictive_metrics.h"

#include <boost/math/distributions/normal.hpp>

#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>

using namespace evx;
using namespace evx::stats;

namespace {

const double kPi = std::numbers::pi;

double gaussianLogDensity(double y, double mean, double sd)
{
    return -0.5 * std::pow((y - mean) / sd, 2) - std::log(sd) - 0.5 * std::log(2 * kPi);
}

double gaussianEntropy(double variance)
{
    return 0.5 * std::log(2 * kPi * std::numbers::e * variance);
}

// z_s ∝ Φ⁻¹((s + ½)/S), rescaled to mean square 1: a stratified sample of N(0, 1) with its
// first two moments exact, so mixtures built on it are close to their Gaussian limits.
Eigen::VectorXd normalQuantiles(int s)
{
    const boost::math::normal unit;
    Eigen::VectorXd q(s);
    for (int i = 0; i < s; ++i)
        q(i) = boost::math::quantile(unit, (i + 0.5) / s);
    return q / std::sqrt(q.squaredNorm() / s);
}

// The reference case of tests/reference/bnn_data/predictive_metrics_reference.py.
Eigen::MatrixXd referenceDraws()
{
    Eigen::MatrixXd f(7, 3);
    f << 0.3, -1.2, 2.0, 0.5, -0.7, 2.2, 0.1, -1.0, 1.1, 0.9, -1.6, 2.9, 0.4, -0.2, 2.4, 0.2, -1.1, 0.3, 0.7,
        -0.9, 2.6;
    return f;
}

} // namespace

class TestPredictiveMetrics : public QObject {
    Q_OBJECT

private slots:
    void matchesTheScipyReference()
    {
        const Eigen::MatrixXd f = referenceDraws();
        const Eigen::Vector3d y(0.35, 0.4, 2.1);
        const Eigen::VectorXd logd = predictiveLogDensities(f, y, 0.4);
        EVX_COMPARE_NEAR(logd(0), -0.20079960320774926, 1e-13);
        EVX_COMPARE_NEAR(logd(1), -2.9815419938774355, 1e-13);
        EVX_COMPARE_NEAR(logd(2), -0.7454500054817947, 1e-13);
        EVX_COMPARE_NEAR(predictiveLogLikelihood(f, y, 0.4), -1.3092638675223265, 1e-13);
        EVX_COMPARE_NEAR(predictiveRmse(f, y), 0.7915905799455318, 1e-14);
        // Interval ends by brentq to 1e-14 on SciPy's normal CDF.
        const PredictiveIntervals pi = predictiveIntervals(f, 0.4);
        const double lower[3] = {-0.47071311104929403, -2.033817903755864, -0.07638212503673428};
        const double upper[3] = {1.3929691357034613, 0.20141261986435696, 3.3459983866304834};
        for (int n = 0; n < 3; ++n) {
            EVX_COMPARE_NEAR(pi.lower(n), lower[n], 1e-11);
            EVX_COMPARE_NEAR(pi.upper(n), upper[n], 1e-11);
        }
        const PredictiveSummary s = summarisePredictive(f, y, 0.4);
        EVX_COMPARE_NEAR(s.picp, 2.0 / 3.0, 1e-15);
        EVX_COMPARE_NEAR(s.mpiw, 2.5070977606800646, 1e-11);
        QCOMPARE(s.draws, 7);
        int points = 0; // a caller's hook runs once per test point and changes nothing
        const PredictiveSummary hooked = summarisePredictive(f, y, 0.4, 1, 0.95, [&] { ++points; });
        QCOMPARE(points, 3);
        QCOMPARE(hooked.mpiw, s.mpiw);
        // Entropy of the mixtures, against adaptive quadrature split at every mean.
        EVX_COMPARE_NEAR(gaussianMixtureEntropy(f.col(0), 0.4), 0.6793838588592098, 2e-9);
        EVX_COMPARE_NEAR(gaussianMixtureEntropy(f.col(2), 0.4), 1.2538986314592837, 2e-9);
    }

    void twoComponentEntropyAtEverySeparation_data()
    {
        QTest::addColumn<double>("gap");
        QTest::addColumn<double>("reference");
        QTest::newRow("0.5 sd") << 0.5 << 1.449249833725512;
        QTest::newRow("2 sd") << 2.0 << 1.7557693535515044;
        QTest::newRow("5 sd") << 5.0 << 2.0948811105856526;
        QTest::newRow("7 sd") << 7.0 << 2.1114087579599947;
        QTest::newRow("12 sd") << 12.0 << 2.1120857107588473;
    }
    void twoComponentEntropyAtEverySeparation()
    {
        // The trapezoid rule at step sd/4 against scipy.integrate.quad (1e-13), from nearly one
        // Gaussian to two separate ones (½ log 2πe + log 2 = 2.11209), at two scales. Its error
        // peaks where p is tiny between the components: 8.7e-10 at a gap of 7 sd (step sd/2:
        // 2e-6; sd/8: < 1e-13).
        QFETCH(double, gap);
        QFETCH(double, reference);
        EVX_COMPARE_NEAR(gaussianMixtureEntropy(Eigen::Vector2d(0, gap), 1.0), reference, 2e-9);
        EVX_COMPARE_NEAR(gaussianMixtureEntropy(Eigen::Vector2d(5, 5 + 1e-3 * gap), 1e-3),
                         reference + std::log(1e-3), 2e-9);
    }

    void equalDrawsGiveTheGaussian()
    {
        const Eigen::MatrixXd f = Eigen::MatrixXd::Constant(50, 2, 1.5);
        const Eigen::Vector2d y(1.1, 1.5 + 40 * 0.3); // the second 40 sd out: log-sum-exp keeps it
        const Eigen::VectorXd logd = predictiveLogDensities(f, y, 0.3);
        EVX_COMPARE_NEAR(logd(0), gaussianLogDensity(1.1, 1.5, 0.3), 1e-13);
        EVX_COMPARE_NEAR(logd(1), gaussianLogDensity(13.5, 1.5, 0.3), 1e-10);
        const PredictiveIntervals pi = predictiveIntervals(f, 0.3);
        EVX_COMPARE_NEAR(pi.lower(0), 1.5 - 1.959963984540054 * 0.3, 1e-13);
        EVX_COMPARE_NEAR(pi.upper(0), 1.5 + 1.959963984540054 * 0.3, 1e-13);
        EVX_COMPARE_NEAR(gaussianMixtureEntropy(f.col(0), 0.3), gaussianEntropy(0.09), 1e-11);
        EVX_COMPARE_NEAR(gaussianMixtureQuantile(f.col(0), 0.3, 0.8413447460685429), 1.8, 1e-12); // Φ(1)
    }

    void twoDrawsGiveTheMixtureByHand()
    {
        Eigen::MatrixXd f(2, 1);
        f << -0.6, 1.9;
        const double sd = 0.7, y = 0.2;
        const double byHand = std::log(0.5 * std::exp(gaussianLogDensity(y, -0.6, sd)) +
                                       0.5 * std::exp(gaussianLogDensity(y, 1.9, sd)));
        EVX_COMPARE_NEAR(predictiveLogLikelihood(f, Eigen::VectorXd::Constant(1, y), sd), byHand, 1e-14);
        // The median of a symmetric pair is its midpoint.
        EVX_COMPARE_NEAR(gaussianMixtureQuantile(f.col(0), sd, 0.5), 0.65, 1e-12);
        EVX_COMPARE_NEAR(predictiveRmse(f, Eigen::VectorXd::Constant(1, y)), std::abs(y - 0.65), 1e-15);
    }

    void outputScaleMapsToRawUnits()
    {
        // y_raw = m + s·y_std: log densities fall by log s, lengths grow by s, coverage stays.
        const Eigen::MatrixXd f = referenceDraws();
        const Eigen::Vector3d y(0.35, 0.4, 2.1);
        const double s = 3.7, m = -12;
        const Eigen::MatrixXd fRaw = (f.array() * s + m).matrix();
        const Eigen::Vector3d yRaw = (y.array() * s + m).matrix();
        const PredictiveSummary std_ = summarisePredictive(f, y, 0.4, s);
        const PredictiveSummary raw = summarisePredictive(fRaw, yRaw, 0.4 * s);
        EVX_COMPARE_NEAR(std_.logLikelihood, raw.logLikelihood, 1e-13);
        EVX_COMPARE_NEAR(std_.rmse, raw.rmse, 1e-13);
        EVX_COMPARE_NEAR(std_.mpiw, raw.mpiw, 1e-10);
        QCOMPARE(std_.picp, raw.picp);
        EVX_COMPARE_NEAR(predictiveLogLikelihood(f, y, 0.4, s),
                         predictiveLogLikelihood(f, y, 0.4) - std::log(s), 1e-14);
    }

    void coverageAndWidthOfAGaussianPredictive()
    {
        // f(s, n) = μ_n + τ z_s with stratified z: the predictive tends to N(μ_n, τ² + σ²), whose
        // 95 % interval has width 2·1.95996·√(τ² + σ²). Targets drawn from that law are covered
        // with probability 0.95: with N = 4000, PICP has sd √(0.95·0.05/N) = 0.0034 (the
        // interval's own error at S = 500, 0.002 in width, moves coverage by < 0.001).
        const int s = 500, n = 4000;
        const double tau = 0.8, sigma = 0.6, sd = std::sqrt(tau * tau + sigma * sigma);
        const Eigen::VectorXd z = normalQuantiles(s);
        std::mt19937_64 rng(5);
        std::normal_distribution<double> normal;
        Eigen::MatrixXd f(s, n);
        Eigen::VectorXd y(n);
        for (int i = 0; i < n; ++i) {
            const double mu = 3 * std::sin(0.001 * i);
            f.col(i) = (mu + tau * z.array()).matrix();
            y(i) = mu + sd * normal(rng);
        }
        const PredictiveSummary sum = summarisePredictive(f, y, sigma);
        EVX_COMPARE_NEAR(sum.picp, 0.95, 5 * std::sqrt(0.95 * 0.05 / n));
        // The exact log-likelihood of N(μ, sd²) averaged over its own draws: −½ log 2πe sd²,
        // with sd √(½/N) from the spread of log N(y; μ, sd²).
        EVX_COMPARE_NEAR(sum.logLikelihood, -gaussianEntropy(sd * sd), 5 * std::sqrt(0.5 / n));
        EVX_COMPARE_NEAR(sum.rmse, sd, 5 * sd / std::sqrt(2.0 * n));
        // The width itself from S = 10⁵ stratified draws, whose mixture differs from the
        // Gaussian by O(1/S): measured 1.7e-5 at this S (1.9e-3 at S = 500).
        const Eigen::MatrixXd many = tau * normalQuantiles(100000);
        const PredictiveIntervals pi = predictiveIntervals(many, sigma);
        EVX_COMPARE_NEAR(pi.upper(0) - pi.lower(0), 2 * 1.959963984540054 * sd, 1e-4);
    }

    void decompositionOfAKnownPredictive_data()
    {
        QTest::addColumn<int>("estimator");
        QTest::addColumn<double>("tolerance");
        // Quadrature is exact given the draws; what is left is the stratified mixtures' distance
        // from their Gaussian limits, measured ≤ 3.4e-4 here. Nearest neighbours: the aleatoric
        // term averages 200 estimates from 200 samples each (bias ≈ −0.012 at that size), the
        // total is one estimate from 40000; errors over three seeds measured ≤ 0.015.
        QTest::newRow("quadrature") << int(EntropyEstimator::MixtureQuadrature) << 1e-3;
        QTest::newRow("nearest neighbour") << int(EntropyEstimator::NearestNeighbour) << 0.03;
    }
    void decompositionOfAKnownPredictive()
    {
        // f(x_n; W, z) = W + a_n z with W ~ N(0, τ_n²) and z ~ N(0, 1): given W, y ~ N(W, a_n² + σ²),
        // so aleatoric = ½ log 2πe(a_n² + σ²); total = ½ log 2πe(τ_n² + a_n² + σ²).
        QFETCH(int, estimator);
        QFETCH(double, tolerance);
        const int sw = 200, sz = 200;
        const double sigma = 0.5;
        const double a[3] = {0.3, 0.8, 1.2}, tau[3] = {1.0, 0.5, 0.0};
        const Eigen::VectorXd w = normalQuantiles(sw), z = normalQuantiles(sz);
        Eigen::MatrixXd f(sw * sz, 3);
        for (int n = 0; n < 3; ++n)
            for (int i = 0; i < sw; ++i)
                f.col(n).segment(i * sz, sz) = (tau[n] * w(i) + a[n] * z.array()).matrix();
        const auto method = static_cast<EntropyEstimator>(estimator);
        const UncertaintyDecomposition d = decomposeUncertainty(f, sw, sigma, method, 17);
        for (int n = 0; n < 3; ++n) {
            const double aleatoric = gaussianEntropy(a[n] * a[n] + sigma * sigma);
            const double total = gaussianEntropy(tau[n] * tau[n] + a[n] * a[n] + sigma * sigma);
            EVX_COMPARE_NEAR(d.aleatoric(n), aleatoric, tolerance);
            EVX_COMPARE_NEAR(d.total(n), total, tolerance);
            EVX_COMPARE_NEAR(d.epistemic(n), total - aleatoric, tolerance);
        }
        // No weight uncertainty (τ = 0): every W gives the same mixture, so by quadrature the
        // epistemic part vanishes to rounding.
        if (method == EntropyEstimator::MixtureQuadrature)
            EVX_COMPARE_NEAR(d.epistemic(2), 0.0, 1e-12);
        // On raw y every entropy grows by log s; the epistemic difference does not.
        const UncertaintyDecomposition raw = decomposeUncertainty(f, sw, sigma, method, 17, 5, 2.0);
        EVX_COMPARE_NEAR(raw.total(0), d.total(0) + std::log(2.0), 1e-12);
        EVX_COMPARE_NEAR(raw.aleatoric(1), d.aleatoric(1) + std::log(2.0), 1e-12);
        EVX_COMPARE_NEAR(raw.epistemic(0), d.epistemic(0), 1e-12);
    }

    void decompositionAveragesTheRightMixtures()
    {
        // Random, unstructured draws (3 W × 4 z): each entropy against a plain Simpson rule
        // over a wide fine grid, written here without windows or sorting.
        std::mt19937_64 rng(23);
        std::normal_distribution<double> normal;
        Eigen::MatrixXd f(12, 2);
        for (Eigen::Index i = 0; i < f.size(); ++i)
            f.data()[i] = 2 * normal(rng);
        const double sigma = 0.45;
        const auto simpsonEntropy = [sigma](const Eigen::VectorXd& m) {
            const double lo = m.minCoeff() - 12 * sigma, hi = m.maxCoeff() + 12 * sigma;
            const int steps = 20000; // even
            const double h = (hi - lo) / steps;
            double sum = 0;
            for (int i = 0; i <= steps; ++i) {
                const double y = lo + i * h;
                double p = 0;
                for (Eigen::Index s = 0; s < m.size(); ++s)
                    p += std::exp(gaussianLogDensity(y, m(s), sigma)) / double(m.size());
                const double g = p > 0 ? -p * std::log(p) : 0.0;
                sum += g * (i == 0 || i == steps ? 1 : (i % 2 ? 4 : 2));
            }
            return sum * h / 3;
        };
        const UncertaintyDecomposition d =
            decomposeUncertainty(f, 3, sigma, EntropyEstimator::MixtureQuadrature);
        for (int n = 0; n < 2; ++n) {
            double aleatoric = 0;
            for (int w = 0; w < 3; ++w)
                aleatoric += simpsonEntropy(f.col(n).segment(4 * w, 4)) / 3;
            EVX_COMPARE_NEAR(d.total(n), simpsonEntropy(f.col(n)), 2e-9);
            EVX_COMPARE_NEAR(d.aleatoric(n), aleatoric, 2e-9);
        }
    }

    void refusesBadInput()
    {
        const Eigen::MatrixXd f = referenceDraws();
        const Eigen::Vector3d y(0.35, 0.4, 2.1);
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, predictiveLogLikelihood(f, Eigen::Vector2d(1, 2), 0.4));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, predictiveLogLikelihood(f, y, 0));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, predictiveLogLikelihood(f, y, NAN));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, predictiveLogLikelihood(f, y, 0.4, -1));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, predictiveIntervals(f, 0.4, 1.0));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, gaussianMixtureQuantile(f.col(0), 0.4, 0));
        Eigen::MatrixXd bad = f;
        bad(3, 1) = NAN;
        try {
            summarisePredictive(bad, y, 0.4);
            QFAIL("a NaN draw was accepted");
        } catch (const InvalidParameter& e) {
            QVERIFY2(QString(e.what()).contains("not finite"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, decomposeUncertainty(f, 2, 0.4)); // 7 rows, 2 W draws
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, decomposeUncertainty(f, 7, 0.4)); // 1 z draw per W ≤ k
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, gaussianMixtureEntropy(Eigen::Vector2d(0, 1e6), 1e-3));
    }
};

QTEST_APPLESS_MAIN(TestPredictiveMetrics)
#include "test_predictive_metrics.moc"
