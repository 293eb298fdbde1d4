// GP regression: analytic likelihood gradients against central finite differences, the
// rank-one (row-append) Cholesky update against a full refit, jitter on ill-conditioned
// kernel matrices, hyperparameter fitting, and predictions at fixed points kept up to date
// by row appends against a fresh predict().
#include "core/errors.h"
#include "gp/checked_cholesky.h"
#include "gp/fixed_point_predictor.h"
#include "gp/gp_regression.h"
#include "random_points.h"

#include <boost/math/special_functions/bessel.hpp>

#include <QtTest>
#include <cmath>
#include <random>

using namespace evx;
using namespace evx::gp;
using evx::testing::randomPoints;

Q_DECLARE_METATYPE(evx::gp::KernelKind)

namespace {

Eigen::VectorXd smoothValues(const Eigen::MatrixXd& x)
{
    Eigen::VectorXd y(x.rows());
    for (int i = 0; i < x.rows(); ++i)
        y[i] = std::sin(x(i, 0)) + (x.cols() > 1 ? 0.5 * std::cos(1.3 * x(i, 1)) : 0.0) + 0.2 * x(i, 0);
    return y;
}

} // namespace

class TestGp : public QObject {
    Q_OBJECT

private slots:
    void likelihoodGradientMatchesFiniteDifferences_data()
    {
        QTest::addColumn<KernelKind>("kind");
        QTest::addColumn<int>("dims");
        QTest::addColumn<double>("mean");
        QTest::newRow("gaussian-1d") << KernelKind::Gaussian << 1 << 0.0;
        QTest::newRow("gaussian-2d") << KernelKind::Gaussian << 2 << 0.3;
        QTest::newRow("matern32-1d") << KernelKind::Matern32 << 1 << 0.0;
        QTest::newRow("matern32-2d") << KernelKind::Matern32 << 2 << -0.2;
        QTest::newRow("matern52-1d") << KernelKind::Matern52 << 1 << 0.0;
        QTest::newRow("matern52-2d") << KernelKind::Matern52 << 2 << 0.1;
    }
    void likelihoodGradientMatchesFiniteDifferences()
    {
        QFETCH(KernelKind, kind);
        QFETCH(int, dims);
        QFETCH(double, mean);
        // 1-D: a perturbed grid, so no two points nearly coincide (that would make K, and the
        // finite differences of log|K|, ill-conditioned); 2-D: random points.
        Eigen::MatrixXd x = randomPoints(12, dims, -3, 3, 7);
        if (dims == 1)
            for (int i = 0; i < 12; ++i)
                x(i, 0) = -3 + 6.0 * i / 11 + 0.1 * std::sin(3.0 * i);
        // Lengthscales comparable to the point spacing keep K well conditioned (cond ≲ 1e6),
        // so finite differences of log|K| are accurate.
        Eigen::VectorXd w = Eigen::VectorXd::LinSpaced(dims, 0.4, 0.6);
        GpRegression gp(Kernel(kind, 1.7, w), mean);
        gp.setData(x, smoothValues(x));
        QCOMPARE(gp.jitter(), 0.0); // the check below needs the exact, jitter-free likelihood
        const Eigen::VectorXd grad = gp.logMarginalLikelihoodGradient();
        const Eigen::VectorXd theta = gp.kernel().logParameters();
        for (int j = 0; j < theta.size(); ++j) {
            // Central differences with step 1e-5 have truncation error ~1e-10·|f'''| and
            // rounding ~1e-16·|f|/1e-5 ≈ 1e-10: agreement to 1e-6 (relative to max(1, |g|))
            // separates a right gradient from a wrong one by orders of magnitude.
            const double step = 1e-5;
            Kernel k = gp.kernel();
            Eigen::VectorXd t = theta;
            t[j] += step;
            k.setLogParameters(t);
            GpRegression plus(k, mean);
            plus.setData(x, smoothValues(x));
            t[j] -= 2 * step;
            k.setLogParameters(t);
            GpRegression minus(k, mean);
            minus.setData(x, smoothValues(x));
            const double fd = (plus.logMarginalLikelihood() - minus.logMarginalLikelihood()) / (2 * step);
            QVERIFY2(
                std::fabs(fd - grad[j]) < 1e-6 * std::max(1.0, std::fabs(grad[j])),
                qPrintable(QString("θ_%1: analytic %2, finite difference %3").arg(j).arg(grad[j]).arg(fd)));
        }
    }

    void maternKernelsMatchTheBesselForm()
    {
        // The general Matérn form h·2^{1−ν}/Γ(ν)·(√(2ν) r)^ν K_ν(√(2ν) r), with Boost's K_ν,
        // against the closed forms at ν = 3/2 and 5/2; anisotropic lengthscales in 2-D.
        const Eigen::Vector2d w(0.7, 1.9);
        const double h = 1.3;
        for (auto [kind, nu] : {std::pair{KernelKind::Matern32, 1.5}, std::pair{KernelKind::Matern52, 2.5}}) {
            const Kernel k(kind, h, w);
            for (double t : {0.05, 0.4, 1.0, 2.5, 6.0}) {
                const double x[2] = {0.3, -0.2}, y[2] = {0.3 + t * w[0] * 0.6, -0.2 + t * w[1] * 0.8};
                const double r = t, z = std::sqrt(2 * nu) * r; // (0.6² + 0.8²) = 1
                const double bessel = h * std::pow(2, 1 - nu) / std::tgamma(nu) * std::pow(z, nu) *
                                      boost::math::cyl_bessel_k(nu, z);
                QVERIFY2(std::fabs(k(x, y) - bessel) < 1e-12 * h,
                         qPrintable(QString("ν %1, r %2: %3 vs %4").arg(nu).arg(r).arg(k(x, y)).arg(bessel)));
            }
            QCOMPARE(k.diagonal(), h);
        }
    }

    void growingFactorSurvivesEveryRegrowth()
    {
        // 700 appends cross the capacities 120, 248 and 504 (each regrowth copied a few
        // columns per append while rows kept arriving); at checkpoints on both sides of them the
        // factor, the stored K and a solve must equal a fresh factorisation's.
        const int total = 700;
        Eigen::MatrixXd x(total, 1);
        for (int i = 0; i < total; ++i)
            x(i, 0) = 20.0 * ((std::int64_t(i) * 2654435761u) % total) / total; // spread, no ties
        const Kernel k(KernelKind::Matern32, 1.0, Eigen::VectorXd::Constant(1, 0.02));
        CheckedCholesky grown;
        for (int n = 0; n < total; ++n) {
            if (n == 0)
                grown.compute(Eigen::MatrixXd::Constant(1, 1, k.diagonal()));
            else
                grown.append(k.matrix(x.topRows(n), x.row(n)).col(0), k.diagonal());
            const int size = n + 1;
            if (size != 61 && size != 125 && size != 248 && size != 250 && size != 505 && size != total)
                continue;
            QCOMPARE(grown.size(), size);
            QCOMPARE(grown.jitter(), 0.0);
            CheckedCholesky fresh;
            fresh.compute(k.matrix(x.topRows(size)));
            QVERIFY((grown.kernelMatrix() - fresh.kernelMatrix()).cwiseAbs().maxCoeff() == 0);
            const Eigen::MatrixXd lg = grown.matrixL(), lf = fresh.matrixL();
            QVERIFY2((lg - lf).cwiseAbs().maxCoeff() < 1e-10, qPrintable(QString("n = %1").arg(size)));
            const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(size, -1, 1);
            QVERIFY((grown.solve(b) - fresh.solve(b)).cwiseAbs().maxCoeff() <
                    1e-8 * fresh.solve(b).cwiseAbs().maxCoeff());
        }
    }

    void rankOneUpdateMatchesFullRefit_data()
    {
        QTest::addColumn<KernelKind>("kind");
        QTest::newRow("gaussian") << KernelKind::Gaussian;
        QTest::newRow("matern32") << KernelKind::Matern32;
        QTest::newRow("matern52") << KernelKind::Matern52;
    }
    void rankOneUpdateMatchesFullRefit()
    {
        QFETCH(KernelKind, kind);
        const Eigen::MatrixXd x = randomPoints(40, 1, 0, 20, 3);
        const Eigen::VectorXd y = smoothValues(x);
        // Lengthscale 0.3 against a mean spacing of 0.5 keeps K well conditioned, so the two
        // factorisations may be compared to 1e-10 (the tolerance) without the
        // comparison measuring the condition number instead of the update.
        const Kernel k(kind, 2.0, Eigen::VectorXd::Constant(1, 0.3));
        GpRegression grown(k, 0.1);
        grown.setData(x.topRows(25), y.head(25));
        for (int i = 25; i < 40; ++i)
            grown.addObservation(x.row(i).transpose(), y[i]);
        GpRegression full(k, 0.1);
        full.setData(x, y);
        QCOMPARE(grown.jitter(), 0.0);
        QCOMPARE(full.jitter(), 0.0);
        // Both factor the same well-conditioned matrix (no jitter, checked above) in a
        // different order of operations; they agree to rounding, far below 1e-10.
        const Eigen::MatrixXd lg = grown.factor().matrixL();
        const Eigen::MatrixXd lf = full.factor().matrixL();
        QVERIFY((lg - lf).cwiseAbs().maxCoeff() < 1e-10 * lf.cwiseAbs().maxCoeff());
        QVERIFY((grown.alpha() - full.alpha()).cwiseAbs().maxCoeff() <
                1e-10 * full.alpha().cwiseAbs().maxCoeff());
        const Eigen::MatrixXd xs = randomPoints(30, 1, -1, 21, 9);
        Eigen::VectorXd mg, vg, mf, vf;
        grown.predict(xs, mg, vg);
        full.predict(xs, mf, vf);
        QVERIFY((mg - mf).cwiseAbs().maxCoeff() < 1e-10);
        QVERIFY((vg - vf).cwiseAbs().maxCoeff() < 1e-10);
        QVERIFY(std::fabs(grown.logMarginalLikelihood() - full.logMarginalLikelihood()) <
                1e-10 * std::fabs(full.logMarginalLikelihood()));
    }

    void emptyInputsGiveEmptyResults()
    {
        // No prediction points, and no data: empty results. Run under scripts/sanitize.sh, this
        // fails if an empty operand reaches Eigen's triangular solve (UBSan reported a reference
        // bound to a null pointer there).
        GpRegression g(Kernel(KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, 0.5)));
        QCOMPARE(g.alpha().size(), Eigen::Index(0));
        QCOMPARE(g.factor().solveL(Eigen::VectorXd(0)).size(), Eigen::Index(0));
        g.setData(randomPoints(5, 1, 0, 1, 2), Eigen::VectorXd::LinSpaced(5, 0, 1));
        Eigen::VectorXd mean, variance;
        g.predict(Eigen::MatrixXd(0, 1), mean, variance);
        QCOMPARE(mean.size(), Eigen::Index(0));
        QCOMPARE(variance.size(), Eigen::Index(0));
        QCOMPARE(g.factor().solveL(Eigen::MatrixXd(5, 0)).cols(), Eigen::Index(0));
    }

    void alphaFollowsAppendsAndRescaling()
    {
        // α is solved lazily after appends; an output rescale in between (the profiled fits'
        // scaleOutput) must leave it what a fresh fit at the new scale gives, and so must the
        // quantities built on it. The setting of rankOneUpdateMatchesFullRefit: no jitter, 1e-10.
        const Eigen::MatrixXd x = randomPoints(40, 1, 0, 20, 3);
        const Eigen::VectorXd y = smoothValues(x);
        GpRegression grown(Kernel(KernelKind::Gaussian, 2.0, Eigen::VectorXd::Constant(1, 0.3)), 0.1);
        grown.setData(x.topRows(25), y.head(25));
        for (int i = 25; i < 40; ++i)
            grown.addObservation(x.row(i).transpose(), y[i]);
        grown.scaleOutput(3.0);
        GpRegression full(Kernel(KernelKind::Gaussian, 6.0, Eigen::VectorXd::Constant(1, 0.3)), 0.1);
        full.setData(x, y);
        QCOMPARE(grown.jitter(), 0.0);
        const double scale = full.alpha().cwiseAbs().maxCoeff();
        QVERIFY((grown.alpha() - full.alpha()).cwiseAbs().maxCoeff() < 1e-10 * scale);
        QVERIFY(std::fabs(grown.logMarginalLikelihood() - full.logMarginalLikelihood()) <
                1e-10 * std::fabs(full.logMarginalLikelihood()));
        QVERIFY(std::fabs(grown.profiledOutputScale() / full.profiledOutputScale() - 1) < 1e-10);
        // Read before the next append, and after it: the cache is marked stale again.
        grown.addObservation(Eigen::VectorXd::Constant(1, 20.5), 0.7);
        Eigen::MatrixXd x41(41, 1);
        x41 << x, 20.5;
        Eigen::VectorXd y41(41);
        y41 << y, 0.7;
        full.setData(x41, y41);
        QVERIFY((grown.alpha() - full.alpha()).cwiseAbs().maxCoeff() < 1e-10 * scale);
        // New targets, prior mean and kernel, each after α was read: each must be seen. The
        // targets are checked against a solve with the old factor, the last two together against
        // a GP built afresh.
        grown.setTargets(2 * y41);
        const Eigen::VectorXd doubled = full.factor().solve((2 * y41).array() - 0.1);
        QVERIFY((grown.alpha() - doubled).cwiseAbs().maxCoeff() < 1e-10 * doubled.cwiseAbs().maxCoeff());
        grown.setPriorMean(-0.4);
        (void)grown.alpha();
        grown.setKernel(Kernel(KernelKind::Gaussian, 1.5, Eigen::VectorXd::Constant(1, 0.25)));
        GpRegression fresh(Kernel(KernelKind::Gaussian, 1.5, Eigen::VectorXd::Constant(1, 0.25)), -0.4);
        fresh.setData(x41, 2 * y41);
        const Eigen::VectorXd direct = fresh.factor().solve((2 * y41).array() + 0.4);
        QVERIFY((grown.alpha() - direct).cwiseAbs().maxCoeff() < 1e-10 * direct.cwiseAbs().maxCoeff());
    }

    void gaussianKernelAgainstAUniformGridMatchesDirectEvaluation_data()
    {
        QTest::addColumn<double>("lengthscale");
        QTest::addColumn<int>("gridPoints");
        // Fine and coarse grids against the lengthscale (δ = h/w from 0.03 to 10), so the
        // multiplicative recurrence runs long and its ratios under- and overflow.
        QTest::newRow("fine") << 1.0 << 241;
        QTest::newRow("medium") << 0.1 << 101;
        QTest::newRow("coarse") << 0.01 << 61;
    }
    void gaussianKernelAgainstAUniformGridMatchesDirectEvaluation()
    {
        QFETCH(double, lengthscale);
        QFETCH(int, gridPoints);
        const Kernel k(KernelKind::Gaussian, 2.0, Eigen::VectorXd::Constant(1, lengthscale));
        Eigen::MatrixXd grid(gridPoints, 1);
        for (int j = 0; j < gridPoints; ++j)
            grid(j, 0) = -3 + 6.0 * j / (gridPoints - 1);
        Eigen::MatrixXd x = randomPoints(40, 1, -5, 5, 11);
        x(0, 0) = 40;         // far beyond the grid: every entry underflows
        x(1, 0) = grid(7, 0); // on a grid point
        for (const bool transposed : {false, true}) {
            const Eigen::MatrixXd km =
                transposed ? Eigen::MatrixXd(k.matrix(grid, x).transpose()) : k.matrix(x, grid);
            for (int i = 0; i < x.rows(); ++i)
                for (int j = 0; j < gridPoints; ++j) {
                    const double direct = k(&x(i, 0), &grid(j, 0));
                    // Relative to the entry where it is not negligible, else absolute.
                    QVERIFY2(std::fabs(km(i, j) - direct) <= 1e-12 * direct + 1e-15 * k.diagonal(),
                             qPrintable(QString("x = %1, grid %2: %3 vs %4")
                                            .arg(x(i, 0))
                                            .arg(grid(j, 0))
                                            .arg(km(i, j))
                                            .arg(direct)));
                }
        }
    }

    // A 2-D product grid (x fastest, as active BQ's acquisition grid) takes the factorised path;
    // every entry must still be the direct evaluation, also far from the grid and on it, and a
    // grid with one point moved must give the same to the entries it shares.
    void gaussianKernelAgainstAProductGridMatchesDirectEvaluation()
    {
        const Kernel k(KernelKind::Gaussian, 1.7, Eigen::VectorXd{{0.3, 0.05}});
        const int kx = 31, ky = 23;
        Eigen::MatrixXd grid(kx * ky, 2);
        for (int iy = 0; iy < ky; ++iy)
            for (int ix = 0; ix < kx; ++ix)
                grid.row(iy * kx + ix) << -1.5 + 3.0 * ix / (kx - 1), 2 * (2.0 * iy / (ky - 1) - 1);
        Eigen::MatrixXd x(40, 2);
        x.col(0) = randomPoints(40, 1, -3, 3, 12);
        x.col(1) = randomPoints(40, 1, -3, 3, 13);
        x.row(0) << 40, 0;       // far beyond the grid in x
        x.row(1) << 0, -35;      // and in y
        x.row(2) = grid.row(77); // on a grid point
        Eigen::MatrixXd moved = grid;
        moved(100, 0) += 1e-3; // no longer a product grid: the general path
        const Eigen::MatrixXd km = k.matrix(x, grid), general = k.matrix(x, moved);
        for (int i = 0; i < x.rows(); ++i)
            for (int j = 0; j < grid.rows(); ++j) {
                const double direct =
                    k(&Eigen::RowVector2d(x.row(i))(0), &Eigen::RowVector2d(grid.row(j))(0));
                QVERIFY2(
                    std::fabs(km(i, j) - direct) <= 1e-12 * direct + 1e-15 * k.diagonal(),
                    qPrintable(QString("row %1, grid %2: %3 vs %4").arg(i).arg(j).arg(km(i, j)).arg(direct)));
                if (j != 100)
                    QVERIFY(std::fabs(general(i, j) - direct) <= 1e-12 * direct + 1e-15 * k.diagonal());
            }
        QCOMPARE(km(2, 77), k.diagonal());
    }

    void fixedPointPredictionsFollowTheGp()
    {
        // A grid predictor follows one GP through appends (its rows updated), a refit at a new
        // lengthscale, an append that falls back to a jittered refactorisation (a duplicate
        // point), and a different GP object; at every stage it must give what predict() gives.
        const Eigen::MatrixXd x = randomPoints(30, 1, 0, 10, 5);
        const Eigen::VectorXd y = smoothValues(x);
        const Eigen::MatrixXd grid = randomPoints(41, 1, -1, 11, 6);
        GpRegression gp(Kernel(KernelKind::Gaussian, 1.5, Eigen::VectorXd::Constant(1, 0.4)), 0.2);
        FixedPointPredictor cached(grid);
        auto agree = [&](const GpRegression& g) {
            Eigen::VectorXd mc, vc, mf, vf;
            cached.predict(g, mc, vc);
            g.predict(grid, mf, vf);
            const double scale = g.kernel().diagonal();
            return (mc - mf).cwiseAbs().maxCoeff() < 1e-10 * (1 + mf.cwiseAbs().maxCoeff()) &&
                   (vc - vf).cwiseAbs().maxCoeff() < 1e-10 * scale;
        };
        QVERIFY(agree(gp)); // no data: the prior
        gp.setData(x.topRows(5), y.head(5));
        QVERIFY(agree(gp));
        for (int i = 5; i < 20; ++i) {
            gp.addObservation(x.row(i).transpose(), y[i]);
            if (i % 4 == 0)
                QVERIFY(agree(gp));
        }
        QVERIFY(agree(gp)); // several appends at once
        gp.setKernel(Kernel(KernelKind::Gaussian, 1.5, Eigen::VectorXd::Constant(1, 0.7)));
        QVERIFY(agree(gp));
        QCOMPARE(gp.jitter(), 0.0);
        gp.addObservation(x.row(3).transpose(), y[3]); // a duplicate: refactored with jitter
        QVERIFY(gp.jitter() > 0);
        QVERIFY(agree(gp));
        GpRegression other(Kernel(KernelKind::Gaussian, 1.5, Eigen::VectorXd::Constant(1, 0.7)), 0.2);
        other.setData(x.bottomRows(10), y.tail(10));
        QVERIFY(agree(other));
    }

    void illConditionedMatrixGetsReportedJitter_data()
    {
        QTest::addColumn<bool>("append");
        QTest::newRow("full factorisation") << false;
        QTest::newRow("appending a duplicate") << true;
    }
    void illConditionedMatrixGetsReportedJitter()
    {
        QFETCH(bool, append);
        // Lengthscale 50 over points 0.01 apart: K is numerically rank one. A duplicated
        // point makes it exactly singular.
        Eigen::MatrixXd x(6, 1);
        x << 0, 0.01, 0.02, 0.03, 0.04, 0.04;
        const Eigen::VectorXd y = smoothValues(x);
        GpRegression gp(Kernel(KernelKind::Gaussian, 1, Eigen::VectorXd::Constant(1, 50)));
        if (append) {
            gp.setData(x.topRows(1), y.head(1));
            QCOMPARE(gp.jitter(), 0.0);
            for (int i = 1; i < 6; ++i)
                gp.addObservation(x.row(i).transpose(), y[i]);
        } else {
            gp.setData(x, y);
        }
        QVERIFY(gp.jitter() > 0);
        QVERIFY(gp.jitter() <= 1e-2 * gp.kernel().diagonal());
        const double at = 0.025;
        QVERIFY(std::isfinite(gp.mean(&at)));
        QVERIFY(std::isfinite(gp.variance(&at)));
        QVERIFY(std::isfinite(gp.logMarginalLikelihood()));
    }

    void notPositiveDefiniteThrows()
    {
        // A matrix with a large negative eigenvalue is no kernel matrix; jitter up to 1e-2
        // must not paper over it.
        Eigen::MatrixXd k(2, 2);
        k << 1, 2, 2, 1;
        CheckedCholesky c;
        QVERIFY_THROWS_EXCEPTION(NumericalError, c.compute(k));
    }

    void profiledOutputScaleMaximisesLikelihood()
    {
        const Eigen::MatrixXd x = randomPoints(15, 1, -3, 3, 11);
        const Eigen::VectorXd y = 5 * smoothValues(x);
        GpRegression gp(Kernel(KernelKind::Gaussian, 1, Eigen::VectorXd::Constant(1, 0.3)));
        gp.setData(x, y);
        const double h = gp.profiledOutputScale();
        Kernel k = gp.kernel();
        k.setOutputScale(h);
        gp.setKernel(k);
        // At ĥ the derivative of log p(y) in log h vanishes: ½(yᵀK⁻¹y − n) = 0 exactly.
        QVERIFY(std::fabs(gp.logMarginalLikelihoodGradient()[0]) < 1e-8 * gp.size());
    }

    void fitFindsAStationaryPointAndRaisesTheLikelihood_data()
    {
        QTest::addColumn<bool>("profile");
        QTest::newRow("output scale profiled") << true;
        QTest::newRow("output scale optimised") << false;
    }
    void fitFindsAStationaryPointAndRaisesTheLikelihood()
    {
        QFETCH(bool, profile);
        const Eigen::MatrixXd x = randomPoints(20, 1, -4, 4, 5);
        // A rough target (sin 4x) puts the optimum at a moderate lengthscale where K is well
        // conditioned; a very smooth one drives a Gaussian kernel to the jitter regime.
        Eigen::VectorXd y(x.rows());
        for (int i = 0; i < x.rows(); ++i)
            y[i] = std::sin(4 * x(i, 0)) + 0.3 * x(i, 0);
        GpRegression gp(Kernel(KernelKind::Gaussian, 1, Eigen::VectorXd::Constant(1, 0.1)));
        gp.setData(x, y);
        const double before = gp.logMarginalLikelihood();
        FitOptions o;
        o.profileOutputScale = profile;
        o.maxIterations = 100;
        const FitResult r = fitHyperparameters(gp, o);
        // (r.converged may be false with h optimised: LBFGS++'s line search can end at NaN after
        // bracketing an unfactorisable trial; the fit then returns the best point it evaluated,
        // whose stationarity is what is checked below.)
        QVERIFY(r.logMarginalLikelihood > before + 1);
        QCOMPARE(gp.jitter(), 0.0);
        QCOMPARE(r.logMarginalLikelihood, gp.logMarginalLikelihood());
        // gp holds the factor of the kernel it reports (the fit answers repeated requests for a
        // point from its last evaluation, so this is not automatic).
        GpRegression fresh(gp.kernel(), gp.priorMean());
        fresh.setData(x, y);
        QVERIFY(std::fabs(fresh.logMarginalLikelihood() - gp.logMarginalLikelihood()) <
                1e-9 * std::fabs(gp.logMarginalLikelihood()));
        const double w = gp.kernel().lengthscales()[0];
        QVERIFY(w > 2 * o.minLengthscale && w < 0.5 * o.maxLengthscale); // an interior optimum
        // L-BFGS stops at |g| ≤ 1e-6·max(1, |θ|); allow for the jitter-free rounding of the
        // gradient itself.
        QVERIFY2(gp.logMarginalLikelihoodGradient().cwiseAbs().maxCoeff() < 1e-3,
                 qPrintable(QString::number(gp.logMarginalLikelihoodGradient().cwiseAbs().maxCoeff())));
    }
};

QTEST_APPLESS_MAIN(TestGp)
#include "test_gp.moc"
