// The Kozachenko–Leonenko entropy estimator (engine/stats/knn_entropy.*): its formula against
// an independent NumPy/SciPy computation (tests/reference/bnn_data), and the estimates against
// the closed-form entropies of a Gaussian, a uniform and a correlated 2-D Gaussian.
#include "compare_near.h"
#include "core/errors.h"
#include "stats/knn_entropy.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>

using namespace evx;
using namespace evx::stats;

namespace {

const double kTwoPiE = 2 * std::numbers::pi * std::numbers::e;

struct Replicates {
    double mean = 0, sd = 0;
};

// R independent estimates; their mean and sd.
template <class Estimate> Replicates replicate(int r, Estimate estimate)
{
    std::vector<double> v;
    for (int i = 0; i < r; ++i)
        v.push_back(estimate(static_cast<unsigned>(100 + i)));
    Replicates out;
    for (double e : v)
        out.mean += e / r;
    for (double e : v)
        out.sd += (e - out.mean) * (e - out.mean) / (r - 1);
    out.sd = std::sqrt(out.sd);
    return out;
}

} // namespace

class TestKnnEntropy : public QObject {
    Q_OBJECT

private slots:
    void matchesTheReferenceFormula()
    {
        // tests/reference/bnn_data/predictive_metrics_reference.py (brute-force distances).
        const std::vector<double> x1 = {0.12, -0.8, 1.7, 0.33, 2.9, -1.4, 0.05, 0.61, -0.27, 1.15, 3.3, -2.2};
        EVX_COMPARE_NEAR(knnEntropy(x1, 3), 1.989782862401365, 1e-12);
        EVX_COMPARE_NEAR(knnEntropy(x1, 1), 2.5707728727226744, 1e-12);
        Eigen::MatrixXd x2(10, 2);
        x2 << 0.1, 1.0, 1.3, -0.2, -0.7, 0.4, 2.2, 1.9, 0.0, -1.1, -1.5, 0.3, 0.6, 0.6, 1.1, 2.4, -0.9, -1.7,
            0.4, -0.5;
        EVX_COMPARE_NEAR(knnEntropy(x2, 2), 3.482134274322055, 1e-12);
        // The matrix form of a 1-D sample is the same estimate.
        const Eigen::MatrixXd column = Eigen::Map<const Eigen::VectorXd>(x1.data(), 12);
        EVX_COMPARE_NEAR(knnEntropy(column, 3), knnEntropy(x1, 3), 1e-15);
    }

    void scalingShiftsTheEstimateByLogScale()
    {
        // H(aX) = H(X) + d log|a|, and the estimator honours it exactly (every r_i scales by a).
        std::mt19937_64 rng(3);
        std::normal_distribution<double> normal;
        std::vector<double> x(500), scaled(500);
        for (int i = 0; i < 500; ++i) {
            x[i] = normal(rng);
            scaled[i] = -7.5 * x[i] + 2;
        }
        EVX_COMPARE_NEAR(knnEntropy(scaled), knnEntropy(x) + std::log(7.5), 1e-12);
    }

    void estimatesClosedFormEntropies_data()
    {
        QTest::addColumn<QString>("law");
        QTest::addColumn<double>("truth");
        QTest::addColumn<double>("bias");
        // Bias bounds, k = 5, N = 2000, from 2000 replicates at N = 1000 and 400 at N = 5000
        // (the bias falls roughly like 1/N): Gaussian −0.004 → −0.0008, uniform +0.0027 →
        // +0.0005 (edge effect, O(k/N)), correlated 2-D Gaussian −0.022 at N = 1000.
        QTest::newRow("N(1, 2.5²)") << "gaussian" << 0.5 * std::log(kTwoPiE * 6.25) << 0.004;
        QTest::newRow("U[-1, 2]") << "uniform" << std::log(3.0) << 0.003;
        QTest::newRow("2-D Gaussian, ρ = 0.6") << "gaussian2d" << std::log(kTwoPiE * std::sqrt(0.64)) << 0.02;
    }
    void estimatesClosedFormEntropies()
    {
        QFETCH(QString, law);
        QFETCH(double, truth);
        QFETCH(double, bias);
        const int n = 2000, r = 8;
        const Replicates est = replicate(r, [&](unsigned seed) {
            std::mt19937_64 rng(seed);
            std::normal_distribution<double> normal;
            std::uniform_real_distribution<double> uniform(-1, 2);
            if (law == "gaussian2d") {
                Eigen::MatrixXd x(n, 2);
                for (int i = 0; i < n; ++i) {
                    const double a = normal(rng), b = normal(rng);
                    x(i, 0) = a;
                    x(i, 1) =
                        0.6 * a +
                        0.8 * b; // unit variances, correlation 0.6: H = ½ log((2πe)² det Σ), det Σ = 0.64
                }
                return knnEntropy(x, 5);
            }
            std::vector<double> x(n);
            for (double& v : x)
                v = law == "gaussian" ? 1 + 2.5 * normal(rng) : uniform(rng);
            return knnEntropy(x, 5);
        });
        // The replicates' own spread (sd ≈ (Var log p + ψ'(5))^{1/2}/√N ≈ 0.02) sets the noise
        // of their mean; 4 standard errors plus the bias bound. Dropping log V_d, ψ(k) or the
        // factor d moves the estimate by ≥ 0.2.
        EVX_COMPARE_NEAR(est.mean, truth, 4 * est.sd / std::sqrt(double(r)) + bias);
        QVERIFY2(est.sd < 0.05, qPrintable(QString("replicate sd %1").arg(est.sd)));
    }

    void refusesWhatItCannotEstimate()
    {
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, knnEntropy(std::vector<double>{1, 2, 3}, 3));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, knnEntropy(std::vector<double>{1, 2, 3}, 0));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, knnEntropy(std::vector<double>{1, NAN, 3, 4}, 1));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, knnEntropy(Eigen::MatrixXd(5, 0), 1));
        // Three equal points: with k = 2 a neighbour distance is 0 and the estimate −∞.
        try {
            knnEntropy(std::vector<double>{0.5, 1, 1, 1, 2.5}, 2);
            QFAIL("tied points were accepted");
        } catch (const NumericalError& e) {
            QVERIFY2(QString(e.what()).contains("more than 2 equal points"), e.what());
        }
        QCOMPARE(std::isfinite(knnEntropy(std::vector<double>{0.5, 1, 1, 1, 2.5}, 3)), true);
        Eigen::MatrixXd tied(4, 2);
        tied << 0, 0, 1, 1, 1, 1, 2, 0;
        QVERIFY_THROWS_EXCEPTION(NumericalError, knnEntropy(tied, 1));
    }
};

QTEST_APPLESS_MAIN(TestKnnEntropy)
#include "test_knn_entropy.moc"
