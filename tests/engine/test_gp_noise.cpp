// The GP's white-noise and constant terms (k + c + σ_n² δ): likelihood, gradient and
// predictions against dense formulas written here independently, and a fit on noisy data
// that recovers the noise level and reports convergence.
#include "gp/gp_regression.h"

#include <QtTest>

#include <Eigen/Cholesky>

#include <cmath>
#include <numbers>
#include <random>

using namespace evx::gp;

Q_DECLARE_METATYPE(evx::gp::KernelKind)

namespace {

// Matérn-3/2 written out again, not through Kernel.
double matern(double h, const Eigen::VectorXd& w, const Eigen::RowVectorXd& a, const Eigen::RowVectorXd& b)
{
    const double r = std::sqrt(((a - b).array() / w.transpose().array()).square().sum());
    return h * (1 + std::sqrt(3.0) * r) * std::exp(-std::sqrt(3.0) * r);
}

struct Dense {
    Eigen::MatrixXd k; // k(X, X) + c + σ² I
    double logMl;
};

Dense denseReference(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, double m, double h,
                     const Eigen::VectorXd& w, double noise, double c)
{
    const Eigen::Index n = x.rows();
    Dense d{Eigen::MatrixXd(n, n), 0};
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j)
            d.k(i, j) = matern(h, w, x.row(i), x.row(j)) + c + (i == j ? noise : 0);
    const Eigen::LLT<Eigen::MatrixXd> llt(d.k);
    const Eigen::VectorXd r = (y.array() - m).matrix();
    const double logDet = 2 * llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
    d.logMl = -0.5 * r.dot(llt.solve(r)) - 0.5 * logDet - 0.5 * double(n) * std::log(2 * std::numbers::pi);
    return d;
}

struct Noisy {
    Eigen::MatrixXd x;
    Eigen::VectorXd y;
};

// y = sin(3x) + 2 + N(0, sd²) at n uniform points in [0, 3].
Noisy noisySine(int n, double sd, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 3);
    std::normal_distribution<double> e(0, sd);
    Noisy d{Eigen::MatrixXd(n, 1), Eigen::VectorXd(n)};
    for (int i = 0; i < n; ++i) {
        d.x(i, 0) = u(rng);
        d.y(i) = std::sin(3 * d.x(i, 0)) + 2 + e(rng);
    }
    return d;
}

GpRegression noisyGp(const Noisy& d, double h, double w, double noise, double c,
                     KernelKind kind = KernelKind::Matern32)
{
    GpRegression gp(Kernel(kind, h, Eigen::VectorXd::Constant(d.x.cols(), w)), 0.5);
    gp.setData(d.x, d.y);
    gp.enableNoise(noise);
    gp.enableConstant(c);
    return gp;
}

} // namespace

class TestGpNoise : public QObject {
    Q_OBJECT

private slots:
    void likelihoodAndPredictionsMatchDenseFormulas()
    {
        const Noisy d = noisySine(25, 0.3, 1);
        const GpRegression gp = noisyGp(d, 1.7, 0.6, 0.05, 3.0);
        QCOMPARE(gp.logHyperparameters().size(), Eigen::Index(4));
        const Dense ref = denseReference(d.x, d.y, 0.5, 1.7, Eigen::VectorXd::Constant(1, 0.6), 0.05, 3.0);
        QCOMPARE(gp.jitter(), 0.0);
        QVERIFY2(
            std::fabs(gp.logMarginalLikelihood() - ref.logMl) < 1e-9 * std::fabs(ref.logMl),
            qPrintable(
                QString("%1 vs %2").arg(gp.logMarginalLikelihood(), 0, 'g', 15).arg(ref.logMl, 0, 'g', 15)));
        // The latent function at x*: k* = k + c, no noise.
        const Eigen::LLT<Eigen::MatrixXd> llt(ref.k);
        for (double xs : {0.1, 1.4, 2.9, 4.0}) {
            Eigen::VectorXd ks(d.x.rows());
            Eigen::RowVectorXd p(1);
            p << xs;
            for (Eigen::Index i = 0; i < d.x.rows(); ++i)
                ks(i) = matern(1.7, Eigen::VectorXd::Constant(1, 0.6), d.x.row(i), p) + 3.0;
            const double mean = 0.5 + ks.dot(llt.solve((d.y.array() - 0.5).matrix()));
            const double var = 1.7 + 3.0 - ks.dot(llt.solve(ks));
            QVERIFY2(std::fabs(gp.mean(&xs) - mean) < 1e-10,
                     qPrintable(QString("%1 vs %2").arg(gp.mean(&xs)).arg(mean)));
            QVERIFY2(std::fabs(gp.variance(&xs) - var) < 1e-10,
                     qPrintable(QString("%1 vs %2").arg(gp.variance(&xs)).arg(var)));
            Eigen::VectorXd m, v;
            gp.predict(Eigen::MatrixXd::Constant(1, 1, xs), m, v);
            QVERIFY(std::fabs(m(0) - mean) < 1e-10 && std::fabs(v(0) - var) < 1e-10);
            QVERIFY(std::fabs(gp.predictMean(Eigen::MatrixXd::Constant(1, 1, xs))(0) - mean) < 1e-10);
        }
    }

    void gradientMatchesFiniteDifferences_data()
    {
        // One gradient path (gp_gradient.cpp) with a branch per kernel: every kind is checked.
        QTest::addColumn<KernelKind>("kind");
        QTest::newRow("matern32") << KernelKind::Matern32;
        QTest::newRow("matern52") << KernelKind::Matern52; // generalised Bayes' surface kernel
        QTest::newRow("gaussian") << KernelKind::Gaussian;
    }

    void gradientMatchesFiniteDifferences()
    {
        QFETCH(KernelKind, kind);
        const Noisy d = noisySine(30, 0.2, 2);
        GpRegression gp = noisyGp(d, 0.8, 0.4, 0.03, 1.5, kind);
        const Eigen::VectorXd theta = gp.logHyperparameters();
        const Eigen::VectorXd g = gp.logMarginalLikelihoodGradient();
        for (Eigen::Index j = 0; j < theta.size(); ++j) {
            const double step = 1e-5;
            Eigen::VectorXd t = theta;
            t[j] += step;
            gp.setLogHyperparameters(t);
            const double up = gp.logMarginalLikelihood();
            t[j] -= 2 * step;
            gp.setLogHyperparameters(t);
            const double down = gp.logMarginalLikelihood();
            const double fd = (up - down) / (2 * step);
            QVERIFY2(std::fabs(fd - g[j]) < 1e-6 * std::max(1.0, std::fabs(fd)),
                     qPrintable(QString("θ_%1: analytic %2, finite difference %3")
                                    .arg(j)
                                    .arg(g[j], 0, 'g', 12)
                                    .arg(fd, 0, 'g', 12)));
        }
    }

    void rowAppendMatchesAFullFit()
    {
        const Noisy d = noisySine(20, 0.2, 3);
        GpRegression full = noisyGp(d, 1.0, 0.5, 0.04, 2.0);
        GpRegression grown(Kernel(KernelKind::Matern32, 1.0, Eigen::VectorXd::Constant(1, 0.5)), 0.5);
        grown.enableNoise(0.04);
        grown.enableConstant(2.0);
        for (Eigen::Index i = 0; i < d.x.rows(); ++i)
            grown.addObservation(d.x.row(i).transpose(), d.y(i));
        QVERIFY(std::fabs(grown.logMarginalLikelihood() - full.logMarginalLikelihood()) < 1e-9);
        const double xs = 1.234;
        QVERIFY(std::fabs(grown.mean(&xs) - full.mean(&xs)) < 1e-10);
    }

    void fitRecoversTheNoiseAndSaysItConverged()
    {
        // 120 points, noise sd 0.2: the ML estimate of σ_n² has a relative sd of about
        // √(2/120) ≈ 13 %, so σ_n within ±25 % of 0.2 holds at about 4 sd.
        const Noisy d = noisySine(120, 0.2, 4);
        GpRegression gp = noisyGp(d, 1.0, 1.0, 0.5, 1.0);
        const double before = gp.logMarginalLikelihood();
        const FitResult fit = fitHyperparameters(gp, {.profileOutputScale = true, .maxIterations = 200});
        QVERIFY(fit.converged);
        QVERIFY(fit.logMarginalLikelihood > before);
        QVERIFY(std::fabs(fit.logMarginalLikelihood - gp.logMarginalLikelihood()) < 1e-9);
        const double sd = std::sqrt(gp.noiseVariance());
        QVERIFY2(sd > 0.15 && sd < 0.25, qPrintable(QString("σ_n = %1").arg(sd)));
        // A stationary point: every gradient component small.
        const Eigen::VectorXd g = gp.logMarginalLikelihoodGradient();
        QVERIFY2(g.cwiseAbs().maxCoeff() < 1e-3,
                 qPrintable(QString("max |∇| = %1").arg(g.cwiseAbs().maxCoeff())));
        // With two iterations allowed it cannot converge, and must say so.
        GpRegression again = noisyGp(d, 1.0, 1.0, 0.5, 1.0);
        QVERIFY(!fitHyperparameters(again, {.maxIterations = 2}).converged);
    }
};

QTEST_GUILESS_MAIN(TestGpNoise)
#include "test_gp_noise.moc"
