// The ensemble sampler (sampling/ensemble_sampler.h) on targets with known moments, and its
// autocorrelation estimate on a process with a known integrated autocorrelation time.
//
// Tolerances come from the sampler's own effective sample size: the Monte Carlo error of a
// mean is sd / √ESS, so a mean is accepted within 5 of those (a false failure has probability
// ~1e-6 for a correct sampler), and a variance within 5 · var · √(2 / ESS). A sampler that
// targets the wrong density (say, dropping the z^{d−1} factor) shifts these by far more.
#include "core/errors.h"
#include "sampling/autocorrelation.h"
#include "sampling/ensemble_sampler.h"

#include <Eigen/Dense>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

using namespace evx;
using namespace evx::sampling;

namespace {

Eigen::MatrixXd initialBall(int walkers, int dim, double scale, std::uint64_t seed, double offset = 0)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> n(0, 1);
    Eigen::MatrixXd w(walkers, dim);
    for (int i = 0; i < walkers; ++i)
        for (int k = 0; k < dim; ++k)
            w(i, k) = offset + scale * n(rng);
    return w;
}

struct SampleMoments {
    Eigen::VectorXd mean;
    Eigen::MatrixXd cov;
};

SampleMoments momentsOf(const Eigen::MatrixXd& s)
{
    SampleMoments m;
    m.mean = s.colwise().mean().transpose();
    const Eigen::MatrixXd c = s.rowwise() - m.mean.transpose();
    m.cov = c.transpose() * c / double(s.rows() - 1);
    return m;
}

} // namespace

class TestEnsembleSampler : public QObject {
    Q_OBJECT

private slots:
    void correlatedGaussian_data()
    {
        QTest::addColumn<double>("rho");
        QTest::addColumn<double>("sd2");
        QTest::addColumn<double>("offset");
        QTest::newRow("independent") << 0.0 << 1.0 << 0.0;
        QTest::newRow("rho 0.9, scales 1 and 10") << 0.9 << 10.0 << 3.0;
        QTest::newRow("rho -0.99, scales 1 and 0.01") << -0.99 << 0.01 << -2.0;
    }
    void correlatedGaussian()
    {
        QFETCH(double, rho);
        QFETCH(double, sd2);
        QFETCH(double, offset);
        Eigen::Matrix2d cov;
        cov << 1, rho * sd2, rho * sd2, sd2 * sd2;
        const Eigen::Vector2d mu(1.5, -4.0);
        const Eigen::Matrix2d precision = cov.inverse();
        auto logDensity = [&](const Eigen::VectorXd& x) {
            const Eigen::Vector2d d = x - mu;
            return -0.5 * d.dot(precision * d);
        };
        EnsembleOptions o;
        o.walkers = 20;
        o.steps = 3000;
        o.burnIn = 500;
        o.seed = 7;
        o.progressEvery = 0;
        // Start away from the target, in a ball far narrower than it: the affine-invariant
        // move must find the scale and the correlation by itself.
        const EnsembleResult r = runEnsemble(logDensity, initialBall(20, 2, 0.01, 3, offset), o, {});
        QCOMPARE(r.samples.rows(), Eigen::Index(20 * 3000));
        QVERIFY(r.effectiveSampleSize > 500);
        QVERIFY(r.acceptanceRate > 0.2 && r.acceptanceRate < 0.9);
        const SampleMoments m = momentsOf(r.samples);
        const double ess = r.effectiveSampleSize;
        for (int k = 0; k < 2; ++k) {
            const double sd = std::sqrt(cov(k, k));
            QVERIFY2(std::abs(m.mean[k] - mu[k]) < 5 * sd / std::sqrt(ess),
                     qPrintable(QString("mean %1: %2 vs %3").arg(k).arg(m.mean[k]).arg(mu[k])));
            QVERIFY2(std::abs(m.cov(k, k) - cov(k, k)) < 5 * cov(k, k) * std::sqrt(2 / ess),
                     qPrintable(QString("var %1: %2 vs %3").arg(k).arg(m.cov(k, k)).arg(cov(k, k))));
        }
        const double corr = m.cov(0, 1) / std::sqrt(m.cov(0, 0) * m.cov(1, 1));
        // sd of a sample correlation ≈ (1 − ρ²) / √n.
        QVERIFY2(std::abs(corr - rho) < 5 * std::max(1 - rho * rho, 0.01) / std::sqrt(ess),
                 qPrintable(QString("corr %1 vs %2").arg(corr).arg(rho)));
    }

    // A banana: x1 ~ N(0, 1), x2 | x1 ~ N(b x1², 1). Then E[x2] = b, Var[x2] = 1 + 2b²,
    // Cov(x1², x2) = 2b: curved, which the stretch move handles worse than an ellipse.
    void banana()
    {
        const double b = 1.0;
        auto logDensity = [&](const Eigen::VectorXd& x) {
            const double r = x[1] - b * x[0] * x[0];
            return -0.5 * x[0] * x[0] - 0.5 * r * r;
        };
        EnsembleOptions o;
        o.walkers = 32;
        o.steps = 4000;
        o.burnIn = 500;
        o.seed = 11;
        o.progressEvery = 0;
        const EnsembleResult r = runEnsemble(logDensity, initialBall(32, 2, 0.5, 5), o, {});
        const SampleMoments m = momentsOf(r.samples);
        const double ess = r.effectiveSampleSize;
        QVERIFY(ess > 300);
        QVERIFY2(std::abs(m.mean[0]) < 5 / std::sqrt(ess), qPrintable(QString::number(m.mean[0])));
        QVERIFY2(std::abs(m.mean[1] - b) < 5 * std::sqrt(1 + 2 * b * b) / std::sqrt(ess),
                 qPrintable(QString::number(m.mean[1])));
        const double var2 = 1 + 2 * b * b;
        // x2's fourth moment is heavier than a Gaussian's: allow twice the Gaussian error.
        QVERIFY2(std::abs(m.cov(1, 1) - var2) < 10 * var2 * std::sqrt(2 / ess),
                 qPrintable(QString::number(m.cov(1, 1))));
        QVERIFY2(std::abs(m.cov(0, 0) - 1) < 5 * std::sqrt(2 / ess),
                 qPrintable(QString::number(m.cov(0, 0))));
    }

    // In d = 5 the z^{d−1} factor matters: without it the variance comes out far too small.
    void fiveDimensionalGaussianVariance()
    {
        auto logDensity = [](const Eigen::VectorXd& x) { return -0.5 * x.squaredNorm(); };
        EnsembleOptions o;
        o.walkers = 20;
        o.steps = 3000;
        o.burnIn = 500;
        o.progressEvery = 0;
        const EnsembleResult r = runEnsemble(logDensity, initialBall(20, 5, 0.1, 9), o, {});
        const SampleMoments m = momentsOf(r.samples);
        const double ess = r.effectiveSampleSize;
        QCOMPARE(r.autocorrelationTime.size(), Eigen::Index(5));
        for (int k = 0; k < 5; ++k)
            QVERIFY2(std::abs(m.cov(k, k) - 1) < 5 * std::sqrt(2 / ess),
                     qPrintable(QString::number(m.cov(k, k))));
    }

    // AR(1) with coefficient φ has τ = (1 + φ) / (1 − φ) exactly.
    void autocorrelationTimeOfAr1_data()
    {
        QTest::addColumn<double>("phi");
        QTest::newRow("0") << 0.0;
        QTest::newRow("0.5") << 0.5;
        QTest::newRow("0.9") << 0.9;
    }
    void autocorrelationTimeOfAr1()
    {
        QFETCH(double, phi);
        const int n = 20000, chains = 8;
        std::mt19937_64 rng(21);
        std::normal_distribution<double> e(0, 1);
        Eigen::MatrixXd c(n, chains);
        for (int w = 0; w < chains; ++w) {
            double x = e(rng) / std::sqrt(1 - phi * phi);
            for (int t = 0; t < n; ++t) {
                x = phi * x + e(rng);
                c(t, w) = x;
            }
        }
        const double tau = integratedAutocorrelationTime(c);
        const double expected = (1 + phi) / (1 - phi);
        // The estimator's relative sd is about √(2 (2M + 1) / N) for window M ≈ 5τ over N draws: < 5 % here.
        QVERIFY2(std::abs(tau - expected) < 0.1 * expected,
                 qPrintable(QString("%1 vs %2").arg(tau).arg(expected)));
    }

    // The pooled transform (pairs of walkers in one complex FFT, one inverse for all) against
    // ρ summed lag by lag, O(n²) per walker, and the same window: τ agrees to rounding. Odd
    // walker counts leave one chain unpaired; a frozen walker is left out of both.
    void autocorrelationTimeMatchesDirectSums_data()
    {
        QTest::addColumn<int>("walkers");
        QTest::newRow("1") << 1;
        QTest::newRow("6") << 6;
        QTest::newRow("7, one frozen") << 7;
    }
    void autocorrelationTimeMatchesDirectSums()
    {
        QFETCH(int, walkers);
        const int n = 300;
        std::mt19937_64 rng(5);
        std::normal_distribution<double> e(0, 1);
        Eigen::MatrixXd c(n, walkers);
        for (int w = 0; w < walkers; ++w) {
            double x = 3 * w;
            for (int t = 0; t < n; ++t)
                c(t, w) = x = 0.8 * x + e(rng) + 0.1 * w;
        }
        if (walkers == 7)
            c.col(3).setConstant(2.5);
        Eigen::VectorXd rho = Eigen::VectorXd::Zero(n);
        int used = 0;
        for (int w = 0; w < walkers; ++w) {
            const Eigen::VectorXd d = c.col(w).array() - c.col(w).mean();
            if (d.squaredNorm() == 0)
                continue;
            for (int lag = 0; lag < n; ++lag)
                rho[lag] += d.head(n - lag).dot(d.tail(n - lag)) / d.squaredNorm();
            ++used;
        }
        rho /= used;
        double tau = 0, cumulative = 0;
        for (int t = 0; t < n; ++t) {
            cumulative += rho[t];
            tau = 2 * cumulative - 1;
            if (t >= 5 * tau)
                break;
        }
        const double got = integratedAutocorrelationTime(c);
        QVERIFY2(std::abs(got - tau) < 1e-10 * tau,
                 qPrintable(QString("%1 vs %2").arg(got, 0, 'g', 15).arg(tau, 0, 'g', 15)));
        QVERIFY(tau > 3); // AR(1), φ = 0.8: τ = 9 (about 5.5 from 300 steps), so the window spans many lags
    }

    void sameSeedSameDraws()
    {
        auto logDensity = [](const Eigen::VectorXd& x) { return -0.5 * x.squaredNorm(); };
        EnsembleOptions o;
        o.walkers = 8;
        o.steps = 200;
        o.burnIn = 10;
        o.thin = 2;
        const Eigen::MatrixXd init = initialBall(8, 3, 1, 1);
        const EnsembleResult a = runEnsemble(logDensity, init, o, {});
        const EnsembleResult b = runEnsemble(logDensity, init, o, {});
        QCOMPARE(a.samples.rows(), Eigen::Index(8 * 100));
        QVERIFY(a.samples == b.samples);
        o.seed = 2;
        const EnsembleResult c = runEnsemble(logDensity, init, o, {});
        QVERIFY(!(a.samples == c.samples));
        // The stored log densities are those of the stored draws.
        for (Eigen::Index i = 0; i < a.samples.rows(); i += 37)
            QVERIFY(std::abs(a.logDensity[i] + 0.5 * a.samples.row(i).squaredNorm()) < 1e-12);
    }

    void progressReportsGrowingDraws()
    {
        auto logDensity = [](const Eigen::VectorXd& x) { return -0.5 * x.squaredNorm(); };
        EnsembleOptions o;
        o.walkers = 8;
        o.steps = 100;
        o.burnIn = 50;
        o.progressEvery = 25;
        std::vector<Eigen::Index> rows;
        std::vector<double> fractions;
        runEnsemble(logDensity, initialBall(8, 2, 1, 1), o, {}, [&](const EnsembleResult& r, double f) {
            rows.push_back(r.samples.rows());
            fractions.push_back(f);
        });
        // Steps 25 and 50 (burn-in: the current walkers), 75, 100, 125 (draws so far); none at the end.
        QCOMPARE(int(rows.size()), 5);
        QCOMPARE(rows[0], Eigen::Index(8));
        QCOMPARE(rows[2], Eigen::Index(8 * 25));
        QCOMPARE(rows[4], Eigen::Index(8 * 75));
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QVERIFY(std::abs(fractions[0] - 25.0 / 150) < 1e-12);
    }

    void cancellationStopsALongRunPromptly()
    {
        std::atomic<bool> cancel{false};
        std::atomic<long> evaluations{0};
        auto logDensity = [&](const Eigen::VectorXd& x) {
            if (++evaluations == 5000)
                cancel = true;
            return -0.5 * x.squaredNorm();
        };
        EnsembleOptions o;
        o.walkers = 16;
        o.steps = 10'000'000; // hours if not cancelled
        const RunContext context(&cancel, {});
        const auto start = std::chrono::steady_clock::now();
        QVERIFY_THROWS_EXCEPTION(Cancelled, runEnsemble(logDensity, initialBall(16, 2, 1, 1), o, context));
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // Polled before every proposal: at most one more evaluation after the flag is set.
        QVERIFY2(evaluations <= 5001, qPrintable(QString::number(evaluations.load())));
        QVERIFY(seconds < 10);
    }

    void refusesBadInput()
    {
        auto logDensity = [](const Eigen::VectorXd& x) { return -0.5 * x.squaredNorm(); };
        EnsembleOptions o;
        o.walkers = 4;
        QVERIFY_THROWS_EXCEPTION(InvalidParameter,
                                 runEnsemble(logDensity, initialBall(4, 3, 1, 1), o, {})); // < 2d
        o.walkers = 8;
        QVERIFY_THROWS_EXCEPTION(InvalidParameter,
                                 runEnsemble(logDensity, initialBall(6, 2, 1, 1), o, {})); // rows
        auto bounded = [](const Eigen::VectorXd& x) {
            return x[0] > 0 ? 0.0 : -std::numeric_limits<double>::infinity();
        };
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, runEnsemble(bounded, initialBall(8, 2, 1, 1, -10), o, {}));
    }

    // A bounded support: draws never leave it (proposals outside are rejected).
    void respectsSupport()
    {
        auto logDensity = [](const Eigen::VectorXd& x) {
            return (x.array() > 0).all() && (x.array() < 1).all() ? 0.0
                                                                  : -std::numeric_limits<double>::infinity();
        };
        EnsembleOptions o;
        o.walkers = 8;
        o.steps = 2000;
        o.burnIn = 100;
        o.progressEvery = 0;
        Eigen::MatrixXd init = (initialBall(8, 2, 0.1, 4, 0.5)).cwiseMax(0.01).cwiseMin(0.99);
        const EnsembleResult r = runEnsemble(logDensity, init, o, {});
        QVERIFY((r.samples.array() > 0).all() && (r.samples.array() < 1).all());
        const SampleMoments m = momentsOf(r.samples);
        // Uniform on the unit square: mean 1/2, variance 1/12.
        QVERIFY(std::abs(m.mean[0] - 0.5) < 5 * std::sqrt(1 / 12.0 / r.effectiveSampleSize));
        QVERIFY(std::abs(m.cov(1, 1) - 1 / 12.0) < 5 / 12.0 * std::sqrt(2 / r.effectiveSampleSize) * 1.5);
    }
};

QTEST_APPLESS_MAIN(TestEnsembleSampler)
#include "test_ensemble_sampler.moc"
