// The BNN+LV metrics (engine/stats): KSG mutual information against the closed form of a
// bivariate Gaussian, Henze–Zirkler and Kolmogorov–Smirnov against an independent NumPy/SciPy
// computation (tests/reference/bnn_metrics) and HZ's null mean by Monte Carlo.
#include "core/errors.h"
#include "stats/mutual_information.h"
#include "stats/normality.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace evx;
using namespace evx::stats;

namespace {

// N draws of (x, y) with correlation ρ, unit variances.
std::pair<Eigen::MatrixXd, Eigen::MatrixXd> gaussianPair(int n, double rho, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> z;
    Eigen::MatrixXd x(n, 1), y(n, 1);
    for (int i = 0; i < n; ++i) {
        x(i, 0) = z(rng);
        y(i, 0) = rho * x(i, 0) + std::sqrt(1 - rho * rho) * z(rng);
    }
    return {x, y};
}

} // namespace

class TestStatsMetrics : public QObject {
    Q_OBJECT

private slots:
    void ksgMatchesTheGaussianClosedForm_data()
    {
        QTest::addColumn<double>("rho");
        QTest::newRow("independent") << 0.0;
        QTest::newRow("rho 0.5") << 0.5;
        QTest::newRow("rho 0.9") << 0.9;
    }
    void ksgMatchesTheGaussianClosedForm()
    {
        // Five samples of N = 1000: KSG's sd at this size is about 0.01–0.02 and its bias for
        // Gaussians with k = 5 well below that (Kraskov et al., Fig. 4), so the mean of five
        // lies within 0.02 of −½ log(1 − ρ²); a wrong digamma offset or count is off by ≥ 0.1.
        QFETCH(double, rho);
        const double truth = -0.5 * std::log(1 - rho * rho);
        double mean = 0;
        for (unsigned seed = 1; seed <= 5; ++seed) {
            const auto [x, y] = gaussianPair(1000, rho, seed);
            mean += ksgMutualInformation(x, y, 5) / 5;
        }
        QVERIFY2(std::fabs(mean - truth) < 0.02, qPrintable(QString("%1 vs %2").arg(mean).arg(truth)));
    }

    void ksgIsNearlyBlindToMonotoneRescaling()
    {
        // MI is invariant under monotone maps of a margin; KSG with the max-norm nearly so.
        const auto [x, y] = gaussianPair(1000, 0.7, 9);
        const Eigen::MatrixXd warped = x.array().exp();
        const double a = ksgMutualInformation(x, y), b = ksgMutualInformation(warped, y);
        QVERIFY2(std::fabs(a - b) < 0.03, qPrintable(QString("%1 vs %2").arg(a).arg(b)));
    }

    void ksgIsBlindToTheScaleOfEitherMarginal()
    {
        // The max-norm mixes the marginals' distances: unscaled, a marginal ten times wider sets
        // every neighbour distance and the estimate moves (0.34 against 0.28 on a BNN's μ_z).
        const auto [x, y] = gaussianPair(400, 0.6, 3);
        const double base = ksgMutualInformation(x, y);
        for (const auto& [a, b] : {std::pair{10.0, 1.0}, {1.0, 10.0}, {0.1, 1.0}, {1.0, 0.01}}) {
            const double scaled = ksgMutualInformation(a * x, b * y);
            QVERIFY2(std::fabs(scaled - base) < 1e-12,
                     qPrintable(QString("x·%1, y·%2: %3 vs %4").arg(a).arg(b).arg(scaled).arg(base)));
        }
    }

    void henzeZirklerMatchesTheReference()
    {
        Eigen::MatrixXd one(5, 1);
        one << -1.2, 0.3, 0.4, 2.0, -0.5;
        QVERIFY(std::fabs(henzeZirkler(one) - 0.0352276736413728) < 1e-12);
        Eigen::MatrixXd two(6, 2);
        two << 0.1, 1.0, 1.3, -0.2, -0.7, 0.4, 2.2, 1.9, 0.0, -1.1, -1.5, 0.3;
        QVERIFY(std::fabs(henzeZirkler(two) - 0.28863949254289256) < 1e-12);
        // Invariant under affine maps of the data (it standardises by mean and covariance).
        const Eigen::MatrixXd moved =
            (two * Eigen::Matrix2d{{2, 1}, {0, 3}}).rowwise() + Eigen::RowVector2d(5, -1);
        QVERIFY(std::fabs(henzeZirkler(moved) - henzeZirkler(two)) < 1e-12);
    }

    void henzeZirklerNullMeanAndPower()
    {
        // 200 Gaussian samples of N = 400, d = 1: the Monte Carlo mean of HZ within four of its
        // standard errors (≈ 0.015) plus 3 % of the lognormal approximation's mean, which is
        // asymptotic (a NumPy run: 0.468 ± 0.021 against 0.464 at N = 400, 0.316 ± 0.014
        // against 0.341 at N = 100). A clearly bimodal sample scores several times higher.
        std::mt19937_64 rng(3);
        std::normal_distribution<double> z;
        const int reps = 200, n = 400;
        double sum = 0, sumSquares = 0;
        for (int r = 0; r < reps; ++r) {
            Eigen::MatrixXd x(n, 1);
            for (int i = 0; i < n; ++i)
                x(i, 0) = z(rng);
            const double h = henzeZirkler(x);
            sum += h;
            sumSquares += h * h;
        }
        const double mean = sum / reps, se = std::sqrt((sumSquares / reps - mean * mean) / reps);
        const double expected = henzeZirklerNullMean(n, 1);
        QVERIFY2(std::fabs(mean - expected) < 4 * se + 0.03 * expected,
                 qPrintable(QString("%1 ± %2 vs %3").arg(mean).arg(se).arg(expected)));
        Eigen::MatrixXd bimodal(n, 1);
        for (int i = 0; i < n; ++i)
            bimodal(i, 0) = (i % 2 ? 3 : -3) + 0.3 * z(rng);
        QVERIFY(henzeZirkler(bimodal) > 4 * expected);
        QVERIFY_THROWS_EXCEPTION(NumericalError, henzeZirkler(Eigen::MatrixXd::Constant(10, 1, 2.0)));
    }

    void kolmogorovSmirnovMatchesScipy()
    {
        QVERIFY(std::fabs(kolmogorovSmirnovNormal({-1.2, 0.3, 0.4, 2.0, -0.5}, 1.5) - 0.21185539858339675) <
                1e-12);
        // One point at the median: the empirical CDF jumps from 0 to 1 there, D = 1/2.
        QVERIFY(std::fabs(kolmogorovSmirnovNormal({0.0}, 1.0) - 0.5) < 1e-15);
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, kolmogorovSmirnovNormal({}, 1.0));
    }
};

QTEST_APPLESS_MAIN(TestStatsMetrics)
#include "test_stats_metrics.moc"
