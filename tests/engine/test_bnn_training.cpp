// The BNN trainer and what it is made of: Adam on a convex quadratic, the empirical-Bayes update
// against a brute-force minimiser, the warm start, a short fit that reaches the noise level,
// the divergence stop, cancellation, determinism given a seed, and the predictive draws.
#include "bnn/bnn_predictive.h"
#include "core/errors.h"

#include "bnn_test_support.h"

#include <Eigen/QR>
#include <boost/math/tools/minima.hpp>

#include <random>

using namespace evx;
using namespace evx::bnn;

namespace {

bool sameSnapshot(const BnnSnapshot& a, const BnnSnapshot& b)
{
    if (a.history.size() != b.history.size())
        return false;
    for (std::size_t i = 0; i < a.history.size(); ++i)
        if (a.history[i].loss() != b.history[i].loss())
            return false;
    return a.weightMean == b.weightMean && a.weightSd == b.weightSd && a.latentMean == b.latentMean &&
           a.latentSd == b.latentSd && a.weightVariance == b.weightVariance &&
           a.latentVariance == b.latentVariance && a.noiseSd == b.noiseSd && a.epoch == b.epoch;
}

bool finiteSnapshot(const BnnSnapshot& s)
{
    bool ok = s.weightMean.allFinite() && s.weightSd.allFinite() && s.latentMean.allFinite() &&
              s.latentSd.allFinite() && std::isfinite(s.noiseSd + s.weightVariance + s.latentVariance);
    for (const EpochRecord& r : s.history)
        ok = ok && std::isfinite(r.loss());
    return ok;
}

struct Line {
    Eigen::MatrixXd x;
    Eigen::VectorXd y;
};

// y = 2x + ε, ε ~ N(0, 0.3²), x ~ U[−2, 2].
Line line(int n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(-2, 2);
    std::normal_distribution<double> normal(0, 0.3);
    Line d{Eigen::MatrixXd(n, 1), Eigen::VectorXd(n)};
    for (int i = 0; i < n; ++i) {
        d.x(i, 0) = uniform(rng);
        d.y(i) = 2 * d.x(i, 0) + normal(rng);
    }
    return d;
}

// A hand-built snapshot: inputs (x, z), two hidden units z and −z, output (h1 − h2)/1.01, so
// f(x, z) = z exactly (LeakyReLU(z) − LeakyReLU(−z) = 1.01 z); every weight sd zero.
BnnSnapshot identityInZ(double latentVariance)
{
    BnnSnapshot s;
    s.shape = MlpShape{2, {2}};
    s.weightMean.setZero(s.shape.parameterCount());
    s.weightMean(s.shape.weightOffset(0) + 2) = 1;  // W1(0, z)
    s.weightMean(s.shape.weightOffset(0) + 3) = -1; // W1(1, z)
    s.weightMean(s.shape.weightOffset(1) + 0) = 1 / 1.01;
    s.weightMean(s.shape.weightOffset(1) + 1) = -1 / 1.01;
    s.weightSd.setZero(s.shape.parameterCount());
    s.latentMean = Eigen::VectorXd::LinSpaced(5, -1, 1);
    s.latentSd = Eigen::VectorXd::Constant(5, 0.5);
    s.latentVariance = latentVariance;
    s.noiseSd = 0.2;
    return s;
}

} // namespace

class TestBnnTraining : public QObject {
    Q_OBJECT

private slots:
    void adamFirstStepIsTheLearningRateTimesTheSign()
    {
        // m̂ = g and v̂ = g² after one step, so Δx = −α g/(|g| + ε).
        Adam adam(3, {});
        Eigen::VectorXd x(3), g(3);
        x << 1, 2, 3;
        g << 0.5, -4, 1e-3;
        adam.step(x, g);
        EVX_COMPARE_NEAR(x(0), 1 - 0.01 * 0.5 / (0.5 + 1e-8), 1e-15);
        EVX_COMPARE_NEAR(x(1), 2 + 0.01 * 4 / (4 + 1e-8), 1e-15);
        EVX_COMPARE_NEAR(x(2), 3 - 0.01 * 1e-3 / (1e-3 + 1e-8), 1e-15);
    }

    void adamMinimisesAConvexQuadratic()
    {
        // f(x) = ½ Σ a_i (x_i − c_i)² with curvatures 0.1 … 100 (condition number 1000).
        Eigen::VectorXd a(4), c(4), x = Eigen::VectorXd::Zero(4);
        a << 0.1, 1, 10, 100;
        c << 3, -2, 0.5, 1;
        AdamOptions o;
        o.learningRate = 0.05;
        Adam adam(4, o);
        for (int t = 0; t < 20000; ++t)
            adam.step(x, (a.array() * (x - c).array()).matrix());
        // Adam's steps shrink with m → 0 as the gradient vanishes; 20 000 steps leave it well
        // inside 1e-6 of the minimiser on every coordinate.
        EVX_COMPARE_NEAR((x - c).cwiseAbs().maxCoeff(), 0.0, 1e-6);
    }

    void empiricalBayesIsTheMinimiser()
    {
        // v* minimises KL(q ‖ N(0, v)) − log IG(v; α, β) over v; Brent's method on log v finds it
        // independently of the closed form.
        std::mt19937_64 rng(1);
        std::normal_distribution<double> normal;
        Eigen::VectorXd mean(40), logSd(40);
        for (int i = 0; i < 40; ++i) {
            mean(i) = 0.7 * normal(rng);
            logSd(i) = std::log(0.2) + 0.3 * normal(rng);
        }
        const double alpha = 3, beta = 0.5;
        const auto objective = [&](double logV) {
            const double v = std::exp(logV);
            const double logPrior = -(alpha + 1) * logV - beta / v; // log IG up to a constant
            return gaussianKl(mean, logSd, v, nullptr, 0, 0) - logPrior;
        };
        const auto best = boost::math::tools::brent_find_minima(objective, -10.0, 5.0, 52);
        // Brent to 52 bits on log v: |Δ log v| ~ 1e-8 (the sqrt of the machine epsilon).
        EVX_COMPARE_NEAR(std::log(empiricalBayesVariance(mean, logSd, alpha, beta)), best.first, 1e-7);
        // The formula itself: (Σ m² + s² + 2β)/(P + 2α + 2).
        EVX_COMPARE_NEAR(empiricalBayesVariance(mean, logSd, alpha, beta),
                         (mean.squaredNorm() + (2 * logSd.array()).exp().sum() + 1) / (40 + 8.0), 1e-15);
    }

    void trainerKeepsTheEmpiricalBayesVariances()
    {
        const auto d = evx::testing::depewegLike(60, 2);
        BnnConfig c;
        c.hidden = {8};
        c.seed = 4;
        BnnTrainer t(d.x, d.y, c);
        t.advance(30);
        const BnnSnapshot& s = t.snapshot();
        EVX_COMPARE_NEAR(s.weightVariance,
                         empiricalBayesVariance(s.weightMean, s.weightSd.array().log().matrix()), 1e-14);
        EVX_COMPARE_NEAR(s.latentVariance,
                         empiricalBayesVariance(s.latentMean, s.latentSd.array().log().matrix()), 1e-14);
        c.fixedLatentVariance = 1.0;
        BnnTrainer fixed(d.x, d.y, c);
        fixed.advance(5);
        QCOMPARE(fixed.snapshot().latentVariance, 1.0);
    }

    void variantIdsRoundTrip()
    {
        const QStringList expected{"bnn-mfvi", "mfvi", "ncai-0", "ncai"};
        QStringList ids;
        for (Variant v : allVariants()) {
            ids << QString::fromStdString(variantId(v));
            QVERIFY(variantFromId(variantId(v)) == v);
        }
        QCOMPARE(ids, expected);
        QVERIFY_THROWS_EXCEPTION(evx::InvalidParameter, variantFromId("ncai-lambda"));
    }

    void badInputIsRefused()
    {
        Eigen::MatrixXd x = Eigen::MatrixXd::Zero(10, 1);
        Eigen::VectorXd y = Eigen::VectorXd::Zero(10);
        BnnConfig c;
        x(3, 0) = NAN;
        QVERIFY_THROWS_EXCEPTION(evx::InvalidParameter, BnnTrainer(x, y, c));
        x(3, 0) = 0;
        c.hidden = {};
        QVERIFY_THROWS_EXCEPTION(evx::InvalidParameter, BnnTrainer(x, y, c));
        c.hidden = {5};
        c.adam.learningRate = -1;
        QVERIFY_THROWS_EXCEPTION(evx::InvalidParameter, BnnTrainer(x, y, c));
        c.adam.learningRate = 0.01;
        QVERIFY_THROWS_EXCEPTION(evx::InvalidParameter, BnnTrainer(x, Eigen::VectorXd::Zero(9), c));
    }

    void embeddedWarmStartReproducesThePointNetwork()
    {
        // With z = 0 the BNN+LV network at the embedded means is the point network exactly.
        const auto d = evx::testing::depewegLike(50, 3);
        std::mt19937_64 rng(5);
        PointNetworkFit fit(d.x, d.y, {6, 4}, 0.3, {}, rng);
        for (int i = 0; i < 20; ++i)
            fit.step();
        const MlpShape withLatent{2, {6, 4}};
        const Eigen::VectorXd w = embedPointWeights(fit.shape(), fit.weights(), withLatent, &rng);
        Mlp point(fit.shape()), full(withLatent);
        Eigen::MatrixXd in1 = d.x.transpose(), in2(2, 50);
        in2.row(0) = d.x.col(0).transpose();
        in2.row(1).setZero();
        const Eigen::MatrixXd f1 = point.forward(fit.weights(), in1), f2 = full.forward(w, in2);
        EVX_COMPARE_NEAR((f1 - f2).cwiseAbs().maxCoeff(), 0.0, 1e-14);
    }

    void warmStartFitsTheMeanAndZeroesTheLatents()
    {
        // Depeweg-like data: E[y | x] = 7 sin x. After the warm start the network at z = 0 is
        // close to it (residual sd of y around it is 3|cos(x/2)| ≈ 2, so an RMSE of 1 against
        // the mean function is a loose but failing-when-broken bar: a constant fit scores ≈ 5).
        const auto d = evx::testing::depewegLike(300, 4);
        BnnConfig c;
        c.variant = Variant::Ncai0;
        c.hidden = {20};
        c.warmStartEpochs = 1500;
        c.seed = 6;
        BnnTrainer t(d.x, d.y, c);
        QVERIFY(t.inWarmStart());
        t.advance(700);
        QVERIFY(t.inWarmStart());
        // Meanwhile the snapshot shows the point network: no weight on z yet.
        const MlpShape& shape = t.snapshot().shape;
        QCOMPARE(t.snapshot().weightMean.segment(shape.weightOffset(0) + 20, 20).cwiseAbs().maxCoeff(), 0.0);
        QVERIFY(t.snapshot().weightMean.head(20).cwiseAbs().maxCoeff() > 0);
        t.advance(800);
        QVERIFY(!t.inWarmStart());
        const BnnSnapshot& s = t.snapshot();
        QCOMPARE(s.epoch, 0);
        QCOMPARE(s.warmStartEpochs, 1500);
        QCOMPARE(s.latentMean.cwiseAbs().maxCoeff(), 0.0);
        BnnSnapshot atMean = s;
        atMean.weightSd.setZero();
        const Eigen::MatrixXd f = fittedDraws(atMean, d.x, 1, 0).f; // z = μ = 0
        const Eigen::ArrayXd truth = 7 * d.x.col(0).array().sin();
        EVX_COMPARE_NEAR(std::sqrt((f.row(0).transpose().array() - truth).square().mean()), 0.0, 1.0);
    }

    void fitsALineToTheNoiseLevel()
    {
        // y = 2x + N(0, 0.3²), a BNN without z learning log σ_ε: σ_ε reaches this sample's noise
        // level (the residual sd of its least-squares line, 0.333 here) and the predictive mean
        // the line. The VI estimate sits a little above it (the spread of q(W) adds to the
        // expected squared residual) and, with one draw per step at learning rate 0.01, wanders
        // by about ±3% between epochs (seen over 20 000 epochs): 10% is the tolerance.
        const Line d = line(200, 7);
        Eigen::MatrixXd design(200, 2);
        design << d.x, Eigen::VectorXd::Ones(200);
        const Eigen::VectorXd coefficients = design.colPivHouseholderQr().solve(d.y);
        const double noiseLevel = std::sqrt((d.y - design * coefficients).squaredNorm() / 200);
        BnnConfig c;
        c.variant = Variant::BnnMfvi;
        c.hidden = {10};
        c.learnNoise = true;
        c.noiseSd = 1;
        c.seed = 8;
        BnnTrainer t(d.x, d.y, c);
        const AdvanceResult r = t.advance(4000);
        QVERIFY(r.status == TrainStatus::Running);
        QCOMPARE(r.epochsRun, 4000);
        const BnnSnapshot& s = t.snapshot();
        qInfo("σ_ε = %.4f after %d epochs; the sample's noise level %.4f", s.noiseSd, s.epoch, noiseLevel);
        EVX_COMPARE_NEAR(s.noiseSd, noiseLevel, 0.1 * noiseLevel);
        // The mean of 500 draws against the true line: the line is known to ~0.3/√200 ≈ 0.02
        // from the data, and 500 draws of f add ~0.2/√500 ≈ 0.01.
        const Eigen::MatrixXd grid = Eigen::VectorXd::LinSpaced(21, -1.8, 1.8);
        const PredictiveDraws p = predictiveDraws(s, grid, 500, 9);
        const Eigen::ArrayXd mean = p.f.colwise().mean().transpose().array();
        const double rmse = std::sqrt((mean - 2 * grid.col(0).array()).square().mean());
        EVX_COMPARE_NEAR(rmse, 0.0, 0.1);
    }

    void divergenceStopsWithAFiniteSnapshot()
    {
        const auto d = evx::testing::depewegLike(100, 5);
        BnnConfig c;
        c.hidden = {10};
        c.adam.learningRate = 1e6;
        c.seed = 10;
        BnnTrainer t(d.x, d.y, c);
        const AdvanceResult r = t.advance(1000);
        QVERIFY(r.status == TrainStatus::Diverged);
        QVERIFY2(r.epochsRun < 1000, qPrintable(QString("ran %1 epochs").arg(r.epochsRun)));
        QVERIFY(!t.message().empty());
        qInfo("%s (after %d epochs)", t.message().c_str(), r.epochsRun);
        QVERIFY(finiteSnapshot(t.snapshot()));
        QCOMPARE(t.advance(10).epochsRun, 0); // stays stopped
    }

    void cancellationStopsAtTheNextPoll()
    {
        const auto d = evx::testing::depewegLike(80, 6);
        BnnConfig c;
        c.hidden = {10};
        BnnTrainer t(d.x, d.y, c);
        int polls = 0;
        const AdvanceResult r = t.advance(1000, [&] { return ++polls > 7; });
        QVERIFY(r.status == TrainStatus::Cancelled);
        QCOMPARE(r.epochsRun, 7);
        QCOMPARE(t.snapshot().epoch, 7);
        QCOMPARE(t.advance(3).status, TrainStatus::Running); // and it resumes
        QCOMPARE(t.snapshot().epoch, 10);
    }

    void deterministicGivenASeed_data()
    {
        QTest::addColumn<int>("variant");
        for (Variant v : allVariants())
            QTest::newRow(variantId(v).c_str()) << int(v);
    }
    void deterministicGivenASeed()
    {
        QFETCH(int, variant);
        const auto d = evx::testing::depewegLike(60, 7);
        BnnConfig c;
        c.variant = Variant(variant);
        c.hidden = {8};
        c.warmStartEpochs = 30;
        c.seed = 11;
        BnnTrainer a(d.x, d.y, c), b(d.x, d.y, c);
        a.advance(100);
        b.advance(45); // chunking does not change the run
        b.advance(55);
        QVERIFY(sameSnapshot(a.snapshot(), b.snapshot()));
        c.seed = 12;
        BnnTrainer other(d.x, d.y, c);
        other.advance(100);
        QVERIFY(!sameSnapshot(a.snapshot(), other.snapshot()));
    }

    void ncaiRecordsItsPenalties()
    {
        const auto d = evx::testing::depewegLike(80, 8);
        BnnConfig c;
        c.variant = Variant::Ncai;
        c.hidden = {8};
        c.warmStartEpochs = 20;
        BnnTrainer t(d.x, d.y, c);
        t.advance(60);
        const std::vector<EpochRecord>& h = t.snapshot().history;
        QCOMPARE(int(h.size()), 40);
        // μ_z = 0 at the first VI epoch: HZ undefined (no penalty), |PC| counted as 0.
        QVERIFY(!h.front().penalties.hzDefined);
        EVX_COMPARE_NEAR(h.front().penalties.pcPenalty, 80.0, 1e-12); // λ3 N e^0
        QVERIFY(h.back().penalties.hzDefined);
        QVERIFY(h.back().penalties.hzPenalty > 0);
        QCOMPARE(h.back().penalties.offDiagonalPenalty, 0.0); // one latent per datum
        EVX_COMPARE_NEAR(h.back().loss(), h.back().elbo.negElbo() + h.back().penalties.total(), 1e-9);
    }

    void predictiveDrawsUseThePriorOnZ()
    {
        // f(x, z) = z: the draws are z ~ N(0, σ_z²) afresh per draw and point.
        const BnnSnapshot s = identityInZ(2.25);
        const Eigen::MatrixXd x = Eigen::VectorXd::LinSpaced(50, -1, 1);
        const PredictiveDraws p = predictiveDraws(s, x, 200, 3);
        QCOMPARE(p.f.rows(), 200);
        QCOMPARE(p.f.cols(), 50);
        QCOMPARE(p.noiseSd, 0.2);
        // 10 000 independent draws: the variance is known to ±2.25·√(2/10⁴) ≈ 0.032 (1 sd).
        const double mean = p.f.mean(), variance = (p.f.array() - mean).square().mean();
        EVX_COMPARE_NEAR(variance, 2.25, 0.13);
        EVX_COMPARE_NEAR(mean, 0.0, 0.06);
        // Different points in one draw get different z.
        QVERIFY(p.f(0, 0) != p.f(0, 1));
    }

    void drawsGroupedByWeights()
    {
        // Only the output bias is uncertain (sd 1) and z has no effect: rows sharing W_s agree.
        BnnSnapshot s = identityInZ(1);
        s.weightMean.setZero();
        s.weightSd(s.shape.biasOffset(1)) = 1;
        const Eigen::MatrixXd x = Eigen::VectorXd::LinSpaced(4, 0, 1);
        const PredictiveDraws p = predictiveDraws(s, x, 30, 4, 3);
        QCOMPARE(p.f.rows(), 90);
        for (int w = 0; w < 30; ++w)
            for (int k = 1; k < 3; ++k)
                QCOMPARE(p.f(3 * w + k, 2), p.f(3 * w, 2));
        QVERIFY(p.f(0, 0) != p.f(3, 0));
    }

    void fittedDrawsUseTheLatentMeans()
    {
        const BnnSnapshot s = identityInZ(1);
        const Eigen::MatrixXd x = Eigen::VectorXd::LinSpaced(5, 0, 1);
        const PredictiveDraws p = fittedDraws(s, x, 3, 1);
        for (int r = 0; r < 3; ++r)
            EVX_COMPARE_NEAR((p.f.row(r).transpose() - s.latentMean).cwiseAbs().maxCoeff(), 0.0, 1e-15);
        QVERIFY_THROWS_EXCEPTION(evx::InvalidParameter, fittedDraws(s, Eigen::MatrixXd::Zero(4, 1), 1, 1));
        QVERIFY_THROWS_EXCEPTION(evx::InvalidParameter,
                                 predictiveDraws(s, Eigen::MatrixXd::Zero(4, 2), 1, 1));
    }
};

QTEST_APPLESS_MAIN(TestBnnTraining)
#include "test_bnn_training.moc"
