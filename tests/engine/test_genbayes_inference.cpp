// The generalised-Bayes pipeline: Algorithm 1's log-ratios against the exact ones, the
// reference update against ordinary Bayes (KL) in closed form, an oracle that reproduces the
// reference exactly, and the GP + UCB loop on a function with a known minimum, with the coarse
// lattice its partial figures use.
#include "compare_near.h"
#include "genbayes/coarse_grid.h"
#include "genbayes/gb_inference.h"
#include "genbayes/ratio_estimation.h"
#include "gp/gp_regression.h"

#include <QtTest>
#include <boost/math/tools/minima.hpp>

#include <cmath>
#include <numbers>

using namespace evx;
using namespace evx::genbayes;

namespace {

Points drawn(const Truth& truth, int n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    return truth.sample(n, rng);
}

Eigen::VectorXd divergenceOnGrid(const GbModel& model, const Points& x, const Eigen::MatrixXd& grid,
                                 const Eigen::VectorXd& logG, Divergence d)
{
    Eigen::VectorXd out(grid.rows());
    for (Eigen::Index g = 0; g < grid.rows(); ++g)
        out(g) = divergenceEstimate(d, modelLogRatios(model, x, grid.row(g).transpose(), logG));
    return out;
}

} // namespace

class TestGenbayesInference : public QObject {
    Q_OBJECT

private slots:
    void klReferenceIsOrdinaryBayes()
    {
        // With KL, exp(−n D) ∝ Π p(x_i | λ): under a flat prior the posterior is
        // Gamma(1 + Σx, n), mean (1 + Σx)/n, sd √(1 + Σx)/n (the box [0, 10] cuts nothing).
        const auto model = poissonModel();
        const Points x = drawn(poissonTruth(3), 90, 1);
        const Eigen::MatrixXd grid = model->box().grid();
        const Eigen::VectorXd post = gridPosterior(
            divergenceOnGrid(*model, x, grid, truthLogDensity(poissonTruth(3), x), Divergence::Kl), 90, 1);
        const auto m = gridMoments(grid, post);
        const double s = x.sum();
        // The grid step is 0.01 and the posterior sd about 0.18: the trapezoid-like sum is
        // exact to far below 1e-4 for a smooth unimodal density.
        QVERIFY2(std::fabs(m[0].mean - (1 + s) / 90) < 1e-4,
                 qPrintable(QString("%1 vs %2").arg(m[0].mean).arg((1 + s) / 90)));
        QVERIFY2(std::fabs(m[0].sd - std::sqrt(1 + s) / 90) < 1e-4,
                 qPrintable(QString("%1 vs %2").arg(m[0].sd).arg(std::sqrt(1 + s) / 90)));
    }

    void anOracleClassifierReproducesTheReference()
    {
        // δ_i = the exact log-ratio: the method's posterior is the reference's, JSD 0.
        const auto model = gaussianModel();
        const Truth truth = laplaceTruth(1, 1);
        const Points x = drawn(truth, 90, 2);
        const Eigen::MatrixXd grid = model->box().grid();
        const Eigen::VectorXd logG = truthLogDensity(truth, x);
        for (Divergence d : {Divergence::Hellinger, Divergence::Tvd, Divergence::Alpha07}) {
            const Eigen::VectorXd ref = gridPosterior(divergenceOnGrid(*model, x, grid, logG, d), 90, 1);
            Eigen::VectorXd oracle(grid.rows());
            for (Eigen::Index g = 0; g < grid.rows(); ++g) {
                const Eigen::VectorXd delta = modelLogRatios(*model, x, grid.row(g).transpose(), logG);
                oracle(g) = divergenceEstimate(d, delta);
            }
            oracle = gridPosterior(oracle, 90, 1);
            QCOMPARE(
                jensenShannonDistance(std::vector<double>(ref.data(), ref.data() + ref.size()),
                                      std::vector<double>(oracle.data(), oracle.data() + oracle.size())) +
                    1,
                1.0);
            // And a different divergence gives a different posterior: the comparison can fail.
            const Eigen::VectorXd kl =
                gridPosterior(divergenceOnGrid(*model, x, grid, logG, Divergence::Kl), 90, 1);
            QVERIFY(jensenShannonDistance(std::vector<double>(ref.data(), ref.data() + ref.size()),
                                          std::vector<double>(kl.data(), kl.data() + kl.size())) > 0.01);
        }
    }

    void algorithmOneEstimatesTheLogRatio_data()
    {
        QTest::addColumn<int>("classifier");
        QTest::newRow("vb") << int(Classifier::Vb);
        QTest::newRow("eb") << int(Classifier::Eb);
        QTest::newRow("cv") << int(Classifier::Cv);
    }

    void algorithmOneEstimatesTheLogRatio()
    {
        // Poisson model, Poisson(3) data; at λ = 4.5 the exact log-ratio is
        // log r(x) = −1.5 + x log 1.5, linear in x as the features are. With n = 900 and
        // 810 simulations the fitted logit's error is a few 0.01 at the bulk; 0.2 on the mean
        // |error| leaves room for the tails (x ≥ 8) that few simulations reach.
        const auto model = poissonModel();
        const Truth truth = poissonTruth(3);
        const Points x = drawn(truth, 900, 3);
        const Eigen::VectorXd theta = Eigen::VectorXd::Constant(1, 4.5);
        QFETCH(int, classifier);
        const Eigen::VectorXd delta = classifierLogRatios(*model, x, theta, Classifier(classifier), 10, 7);
        const Eigen::VectorXd exact = modelLogRatios(*model, x, theta, truthLogDensity(truth, x));
        const double meanError = (delta - exact).cwiseAbs().mean();
        QVERIFY2(meanError < 0.2, qPrintable(QString("mean |δ − log r| = %1").arg(meanError)));
        // The divergence estimate follows: Hellinger D̂ within 0.02 of the exact one.
        const double dHat = divergenceEstimate(Divergence::Hellinger, delta);
        const double dTrue = divergenceEstimate(Divergence::Hellinger, exact);
        QVERIFY2(std::fabs(dHat - dTrue) < 0.02, qPrintable(QString("%1 vs %2").arg(dHat).arg(dTrue)));
    }

    void kdeIsTheGaussianMixtureOfTheSample()
    {
        Points x(3, 1);
        x << 0, 1, 3;
        const Eigen::VectorXd g = generativeLogDensity(x, 1.0);
        const double at1 = (std::exp(-0.5) + 1 + std::exp(-2)) / (3 * std::sqrt(2 * std::numbers::pi));
        QVERIFY(std::fabs(g(1) - std::log(at1)) < 1e-12);
    }

    void bayesOptFindsAKnownMinimum()
    {
        // D(λ) = (λ − 3)²/20 + 0.01 sin(50 λ) (a rough term like simulation noise); the GP
        // mean's minimiser must land near 3 and most acquisitions near it.
        ParameterBox box{
            {"lambda"}, {"λ"}, Eigen::VectorXd::Constant(1, 0.0), Eigen::VectorXd::Constant(1, 10.0), {1001}};
        const Eigen::MatrixXd grid = box.grid();
        auto f = [](const Eigen::VectorXd& t, int) {
            return (t(0) - 3) * (t(0) - 3) / 20 + 0.01 * std::sin(50 * t(0));
        };
        const BayesOptState s = runBayesOpt(box, grid, f, {.initial = 10, .acquisitions = 30, .seed = 4}, {});
        QCOMPARE(s.step, 40);
        Eigen::Index at = 0;
        s.meanOnGrid.minCoeff(&at);
        QVERIFY2(std::fabs(grid(at, 0) - 3) < 0.3, qPrintable(QString("GP minimum at %1").arg(grid(at, 0))));
        int near = 0;
        for (Eigen::Index i = 10; i < s.thetas.rows(); ++i)
            near += std::fabs(s.thetas(i, 0) - 3) < 2;
        QVERIFY2(near >= 15, qPrintable(QString("%1 of 30 acquisitions within 2 of the minimum").arg(near)));
    }

    void coarseLatticeInterpolatesMultilinearFunctionsExactly()
    {
        // On a 5 × 7 × 9 box grid, stride 2: the coarse points are the grid rows with even
        // indices, and f = (1 + a)(2 − b)(c + 3) + a c, multilinear, comes back exactly.
        const ParameterBox box{
            {"a", "b", "c"}, {"a", "b", "c"}, Eigen::Vector3d(0, -1, 2), Eigen::Vector3d(1, 2, 6), {5, 7, 9}};
        const Eigen::MatrixXd grid = box.grid();
        const CoarseGrid coarse = coarseGrid(box, 2);
        QCOMPARE(coarse.stride, 2);
        QCOMPARE(int(coarse.fineRows.size()), 3 * 4 * 5);
        auto f = [](const Eigen::RowVectorXd& p) {
            return (1 + p(0)) * (2 - p(1)) * (p(2) + 3) + p(0) * p(2);
        };
        Eigen::VectorXd values(Eigen::Index(coarse.fineRows.size()));
        for (std::size_t i = 0; i < coarse.fineRows.size(); ++i) {
            const Eigen::Index row = coarse.fineRows[i];
            QCOMPARE(((row / 63) % 2) + ((row / 9) % 7 % 2) + (row % 9 % 2), Eigen::Index(0)); // even indices
            values(Eigen::Index(i)) = f(grid.row(row));
        }
        const Eigen::VectorXd all = interpolateToGrid(box, coarse, values);
        for (Eigen::Index row = 0; row < grid.rows(); ++row)
            EVX_COMPARE_NEAR(all(row), f(grid.row(row)), 1e-12);
        // No such lattice when an axis's n − 1 is odd: the grid itself.
        const ParameterBox odd{
            {"a"}, {"a"}, Eigen::VectorXd::Constant(1, 0), Eigen::VectorXd::Constant(1, 1), {6}};
        QCOMPARE(coarseGrid(odd, 2).stride, 1);
    }

    void bayesOptProgressLeavesTheResultAsItWas_data()
    {
        QTest::addColumn<bool>("partialSd");
        QTest::newRow("partial figures with the sd") << true;
        QTest::newRow("partial figures without it") << false;
    }

    void bayesOptProgressLeavesTheResultAsItWas()
    {
        // A 3-D box of 41³ points (over the 20 000 where partial figures use the coarse
        // lattice): partial states arrive from the first evaluation on, without predictions
        // before the first fit; the final state is the same with and without them, and the
        // partial means the same with and without their sd.
        QFETCH(bool, partialSd);
        const ParameterBox box{{"a", "b", "c"},
                               {"a", "b", "c"},
                               Eigen::Vector3d(-1, -1, -1),
                               Eigen::Vector3d(1, 1, 1),
                               {41, 41, 41}};
        const Eigen::MatrixXd grid = box.grid();
        auto f = [](const Eigen::VectorXd& t, int) { return t.squaredNorm() + 0.3 * t(0) * t(1); };
        BayesOptOptions o{.initial = 10, .acquisitions = 6, .seed = 2};
        const BayesOptState plain = runBayesOpt(box, grid, f, o, {});
        std::vector<BayesOptState> seen[2];
        for (bool sd : {true, false}) {
            o.partialSd = sd;
            const BayesOptState watched = runBayesOpt(
                box, grid, f, o, {}, [&](const BayesOptState& s) { seen[sd].push_back(s); }, 0.0);
            QVERIFY(watched.meanOnGrid == plain.meanOnGrid);
            QVERIFY(watched.sdOnGrid == plain.sdOnGrid);
            QVERIFY(watched.thetas == plain.thetas);
        }
        const std::vector<BayesOptState>& states = seen[partialSd];
        QCOMPARE(states.size(), seen[!partialSd].size());
        QCOMPARE(states.front().step, 1);
        QCOMPARE(states.front().meanOnGrid.size(), Eigen::Index(0));
        QCOMPARE(states.back().meanOnGrid.size(), grid.rows());
        for (std::size_t i = 0; i < states.size(); ++i) {
            const BayesOptState& s = states[i];
            QCOMPARE(s.sdOnGrid.size(), partialSd ? s.meanOnGrid.size() : Eigen::Index(0));
            // The same means either way, up to the rounding of two summation orders.
            const Eigen::VectorXd& other = seen[!partialSd][i].meanOnGrid;
            QCOMPARE(other.size(), s.meanOnGrid.size());
            if (s.meanOnGrid.size())
                QVERIFY2((s.meanOnGrid - other).cwiseAbs().maxCoeff() <
                             1e-9 * (1 + other.cwiseAbs().maxCoeff()),
                         qPrintable(QString("state %1").arg(i)));
        }
    }

    void shapedSurfacesAreTheGpWithTheirOutputScaleRefitted()
    {
        // smoothWithShape against GpRegression::predict with every hyperparameter given: the
        // lengthscales and σ_n²/σ², c/σ² of a fit to the first column, and σ² maximising the
        // marginal likelihood by Brent's method over log σ² (not the closed form). On the
        // Gaussian model's 101² grid, 25 evaluations, three value columns: the fitted one,
        // another surface, and an affine map of the first (whose mean must map alike and
        // whose sd must scale by the factor).
        const ParameterBox box = gaussianModel()->box();
        const Eigen::MatrixXd grid = box.grid();
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> unit(0, 1);
        std::normal_distribution<double> noise(0, 0.02);
        const int n = 25;
        Eigen::MatrixXd thetas(n, 2), values(n, 3);
        for (int i = 0; i < n; ++i) {
            for (int k = 0; k < 2; ++k)
                thetas(i, k) = box.lower(k) + (box.upper(k) - box.lower(k)) * unit(rng);
            const double mu = thetas(i, 0), logVar = thetas(i, 1);
            values(i, 0) = 0.1 * (mu - 1) * (mu - 1) + 0.05 * (logVar - 0.5) * (logVar - 0.5) + noise(rng);
            values(i, 1) = 0.3 * std::exp(-0.5 * (mu - 1) * (mu - 1)) * std::sin(logVar) + noise(rng);
            values(i, 2) = -3 * values(i, 0) + 0.7;
        }
        const BayesOptState fit =
            smoothEvaluations(box, grid, thetas, values.col(0), gp::KernelKind::Matern52);
        const ShapedSurfaces shaped =
            smoothWithShape(box, grid, thetas, values, gp::KernelKind::Matern52, fit.logHyperparameters, {});
        QCOMPARE(shaped.means.rows(), grid.rows());
        QCOMPARE(shaped.means.cols(), Eigen::Index(3));

        const Eigen::VectorXd& h = fit.logHyperparameters; // (log σ², log w₁, log w₂, log σ_n², log c)
        const Eigen::RowVectorXd width = (box.upper - box.lower).transpose();
        const Eigen::MatrixXd unitThetas =
            (thetas.rowwise() - box.lower.transpose()).array().rowwise() / width.array();
        const Eigen::MatrixXd unitGrid =
            (grid.rowwise() - box.lower.transpose()).array().rowwise() / width.array();
        auto gpAt = [&](const Eigen::VectorXd& y, double logScale) {
            gp::GpRegression gp(gp::Kernel(gp::KernelKind::Matern52, 1, Eigen::VectorXd::Ones(2)), y.mean());
            gp.setData(unitThetas, y);
            gp.enableNoise(1);
            gp.enableConstant(1);
            Eigen::VectorXd theta = h;
            theta(0) = logScale;
            theta(3) = h(3) - h(0) + logScale; // σ_n²/σ² kept
            theta(4) = h(4) - h(0) + logScale; // c/σ² kept
            gp.setLogHyperparameters(theta);
            return gp;
        };
        const double spread = values.cwiseAbs().maxCoeff();
        for (int c = 0; c < 3; ++c) {
            const Eigen::VectorXd y = values.col(c);
            const auto [bestLogScale, lml] = boost::math::tools::brent_find_minima(
                [&](double logScale) { return -gpAt(y, logScale).logMarginalLikelihood(); }, h(0) - 15,
                h(0) + 15, 40);
            // Brent to 40 bits brackets log σ̂² within about 1e-6 (the flat top of a smooth
            // maximum halves the bits): the sd ratio σ̂/σ to a few 1e-7 relative.
            const double ratio = std::exp(0.5 * (bestLogScale - h(0)));
            EVX_COMPARE_NEAR(shaped.sdRatio(c), ratio, 1e-5 * ratio);
            Eigen::VectorXd mean, variance;
            gpAt(y, bestLogScale).predict(unitGrid, mean, variance);
            double worstMean = 0, worstSd = 0;
            Eigen::Index atMean = 0, atSd = 0;
            for (Eigen::Index g = 0; g < grid.rows(); ++g) {
                const double dm = std::abs(shaped.means(g, c) - mean(g));
                const double ds = std::abs(shaped.sdRatio(c) * fit.sdOnGrid(g) - std::sqrt(variance(g)));
                if (dm > worstMean)
                    worstMean = dm, atMean = g;
                if (ds > worstSd)
                    worstSd = ds, atSd = g;
            }
            // The mean does not depend on σ²: only rounding separates the two paths (K's
            // condition number with σ_n² ≥ 1e-10 var keeps that far below 1e-9 of the values).
            EVX_COMPARE_NEAR(shaped.means(atMean, c), mean(atMean), 1e-9 * spread);
            // The sd scales with σ: the Brent bracket's 1e-5 relative, of an sd below the spread.
            EVX_COMPARE_NEAR(shaped.sdRatio(c) * fit.sdOnGrid(atSd), std::sqrt(variance(atSd)),
                             1e-5 * spread);
            Q_UNUSED(lml);
        }
        // The fitted column is the fit itself; the affine column maps alike.
        for (Eigen::Index g = 0; g < grid.rows(); g += 97) {
            EVX_COMPARE_NEAR(shaped.means(g, 0), fit.meanOnGrid(g), 1e-9 * spread);
            EVX_COMPARE_NEAR(shaped.means(g, 2), -3 * shaped.means(g, 0) + 0.7, 1e-9 * spread);
        }
        EVX_COMPARE_NEAR(shaped.sdRatio(2), 3 * shaped.sdRatio(0), 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestGenbayesInference)
#include "test_genbayes_inference.moc"
