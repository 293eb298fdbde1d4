// The HMC reference posterior: the sampler on a correlated Gaussian against its known moments
// (errors measured in Monte Carlo standard errors from the integrated autocorrelation time), the
// step-size adaptation reaching its target, the BNN log joint and its gradient, determinism and
// cancellation, and a small BNN whose posterior predictive mean follows the data.
#include "bnn/hmc.h"
#include "core/errors.h"
#include "sampling/autocorrelation.h"

#include "bnn_test_support.h"

#include <Eigen/LU>

#include <random>

using namespace evx;
using namespace evx::bnn;
using evx::testing::checkGradient;

namespace {

// N(m, S) with S = [[1, 1.2], [1.2, 4]] (correlation 0.6, sds 1 and 2). Dynamic-size types: GCC 12
// took the AVX build's 2 × 2 product into a VectorXd for a read past the end (-Warray-bounds).
struct Gaussian2 {
    Eigen::VectorXd mean{{1.0, -2.0}};
    Eigen::MatrixXd precision;
    Gaussian2()
    {
        Eigen::MatrixXd s{{1, 1.2}, {1.2, 4}};
        precision = s.inverse();
    }
    double operator()(const Eigen::VectorXd& q, Eigen::VectorXd* grad) const
    {
        const Eigen::Vector2d d = q - mean;
        if (grad)
            *grad = -precision * d;
        return -0.5 * d.dot(precision * d);
    }
};

} // namespace

class TestBnnHmc : public QObject {
    Q_OBJECT

private slots:
    void gaussianMomentsWithinMonteCarloError()
    {
        const Gaussian2 target;
        HmcOptions o;
        o.warmup = 500;
        o.draws = 2000;
        o.leapfrogSteps = 10;
        std::mt19937_64 rng(1);
        const int chains = 4;
        Eigen::MatrixXd first(o.draws, chains), second(o.draws, chains);
        for (int c = 0; c < chains; ++c) {
            const HmcChain chain = runHmcChain(std::cref(target), Eigen::Vector2d(5, 5), o, rng);
            QCOMPARE(chain.draws.rows(), Eigen::Index(o.draws));
            first.col(c) = chain.draws.col(0);
            second.col(c) = chain.draws.col(1);
            QCOMPARE(chain.divergences, 0);
        }
        // Means within 4 Monte Carlo standard errors, sd/√(n/τ) with τ from the chains.
        for (const auto& [column, mean, sd] :
             {std::tuple{&first, 1.0, 1.0}, std::tuple{&second, -2.0, 2.0}}) {
            const double tau = sampling::integratedAutocorrelationTime(*column);
            const double se = sd / std::sqrt(double(column->size()) / tau);
            qInfo("τ = %.2f, mean %.4f ± %.4f", tau, column->mean(), se);
            EVX_COMPARE_NEAR(column->mean(), mean, 4 * se);
        }
        // Variances and the covariance: the sampling sd of a variance estimate is ≈ σ²√(2τ/n).
        const double n = double(first.size());
        const double tau = std::max(sampling::integratedAutocorrelationTime(first),
                                    sampling::integratedAutocorrelationTime(second));
        const Eigen::ArrayXd a = first.reshaped().array() - first.mean(),
                             b = second.reshaped().array() - second.mean();
        EVX_COMPARE_NEAR(a.square().mean(), 1.0, 4 * 1.0 * std::sqrt(2 * tau / n));
        EVX_COMPARE_NEAR(b.square().mean(), 4.0, 4 * 4.0 * std::sqrt(2 * tau / n));
        EVX_COMPARE_NEAR((a * b).mean(), 1.2, 4 * std::sqrt((1 * 4 + 1.2 * 1.2) * tau / n));
    }

    void stepSizeAdaptationReachesItsTarget()
    {
        // Dual averaging aims the acceptance during warm-up; the averaged step keeps it near the
        // target afterwards. A 20-dimensional Gaussian with sds from 0.5 to 2 makes acceptance a
        // smooth function of ε (in two dimensions it is jagged near the stability limit). The
        // averaged step is a little conservative (acceptance ~0.02 above the target after long
        // warm-ups, up to 0.09 after 1000 iterations), hence 5000 warm-up iterations and ±0.04.
        const Eigen::ArrayXd sd = Eigen::ArrayXd::LinSpaced(20, 0.5, 2);
        const auto target = [&](const Eigen::VectorXd& q, Eigen::VectorXd* grad) {
            if (grad)
                *grad = -(q.array() / sd.square()).matrix();
            return -0.5 * (q.array() / sd).square().sum();
        };
        for (double goal : {0.65, 0.9}) {
            HmcOptions o;
            o.warmup = 5000;
            o.draws = 4000;
            o.leapfrogSteps = 8;
            o.targetAcceptance = goal;
            std::mt19937_64 rng(2);
            const HmcChain chain = runHmcChain(target, Eigen::VectorXd::Zero(20), o, rng);
            qInfo("target %.2f: acceptance %.3f with ε = %.3f", goal, chain.acceptance, chain.stepSize);
            EVX_COMPARE_NEAR(chain.acceptance, goal, 0.04);
        }
    }

    void logJointIsTheSumOfItsDensities()
    {
        std::mt19937_64 rng(3);
        const auto d = evx::testing::depewegLike(12, 3);
        BnnLogJoint joint(d.x, d.y, {4}, true, 0.5, 2.0, 1.5);
        QCOMPARE(joint.dimension(), (2 + 1) * 4 + 5 + 12);
        Eigen::VectorXd q(joint.dimension());
        std::normal_distribution<double> normal;
        for (auto& v : q)
            v = normal(rng);
        // Independently: Σ log N(y; f, σ²) + Σ log N(w; 0, σ_w²) + Σ log N(z; 0, σ_z²), dropping
        // the same constants (the 2π terms and log σ's, which do not depend on q).
        Mlp net(joint.shape());
        Eigen::MatrixXd input(2, 12);
        input.row(0) = d.x.col(0).transpose();
        input.row(1) = q.tail(12).transpose();
        const Eigen::MatrixXd f = net.forward(q.head(joint.weightCount()), input);
        double expected = 0;
        for (int n = 0; n < 12; ++n)
            expected -= std::pow(d.y(n) - f(0, n), 2) / (2 * 0.25);
        expected -=
            q.head(joint.weightCount()).squaredNorm() / (2 * 2.0) + q.tail(12).squaredNorm() / (2 * 1.5);
        EVX_COMPARE_NEAR(joint(q, nullptr), expected, 1e-12 * std::fabs(expected));
        Eigen::VectorXd grad;
        joint(q, &grad);
        const auto value = [&](const Eigen::VectorXd& v) { return joint(v, nullptr); };
        EVX_VERIFY_GRADIENT(checkGradient(value, q, grad, 1e-6, 1e-6, 1e-6));
        BnnLogJoint plain(d.x, d.y, {4}, false, 0.5, 2.0, 1.5); // a BNN: no z
        Eigen::VectorXd g2;
        const Eigen::VectorXd w = q.head(plain.dimension());
        plain(w, &g2);
        EVX_VERIFY_GRADIENT(checkGradient([&](const Eigen::VectorXd& v) { return plain(v, nullptr); }, w, g2,
                                          1e-6, 1e-6, 1e-6));
    }

    void deterministicAndCancellable()
    {
        const auto d = evx::testing::depewegLike(20, 4);
        HmcOptions o;
        o.chains = 2;
        o.warmup = 30;
        o.draws = 20;
        o.leapfrogSteps = 5;
        o.seed = 9;
        const BnnHmcResult a = runBnnHmc(d.x, d.y, {3}, true, 0.3, 1, 1, o);
        const BnnHmcResult b = runBnnHmc(d.x, d.y, {3}, true, 0.3, 1, 1, o);
        QVERIFY(a.weightDraws() == b.weightDraws());
        QCOMPARE(a.weightDraws().rows(), Eigen::Index(40));
        QVERIFY(a.weightDraws().row(0) != a.weightDraws().row(20)); // the chains differ
        int polls = 0;
        const BnnHmcResult c = runBnnHmc(d.x, d.y, {3}, true, 0.3, 1, 1, o, [&] { return ++polls > 35; });
        QVERIFY(c.cancelled);
        QCOMPARE(c.chains.size(), std::size_t(1));
        QCOMPARE(c.chains[0].draws.rows(), Eigen::Index(5)); // 35 iterations: 30 warm-up, 5 draws
        QVERIFY_THROWS_EXCEPTION(evx::InvalidParameter, runBnnHmc(d.x, d.y, {3}, true, -1, 1, 1, o));
    }

    void smallBnnPosteriorFollowsTheData()
    {
        // y = sin(2x) + N(0, 0.1²) on 40 points of [−1.5, 1.5], a BNN of 10 units: the posterior
        // predictive mean tracks sin(2x) within a few noise sds of the data.
        std::mt19937_64 rng(5);
        std::uniform_real_distribution<double> uniform(-1.5, 1.5);
        std::normal_distribution<double> noise(0, 0.1);
        Eigen::MatrixXd x(40, 1);
        Eigen::VectorXd y(40);
        for (int i = 0; i < 40; ++i) {
            x(i, 0) = uniform(rng);
            y(i) = std::sin(2 * x(i, 0)) + noise(rng);
        }
        HmcOptions o;
        o.chains = 2;
        o.warmup = 400;
        o.draws = 300;
        o.leapfrogSteps = 40;
        o.seed = 6;
        const BnnHmcResult r = runBnnHmc(x, y, {10}, false, 0.1, 4.0, 1, o);
        for (const HmcChain& c : r.chains) {
            qInfo("acceptance %.3f, ε = %.4f, divergences %d", c.acceptance, c.stepSize, c.divergences);
            QVERIFY2(c.acceptance > 0.5, qPrintable(QString::number(c.acceptance)));
        }
        const Eigen::MatrixXd grid = Eigen::VectorXd::LinSpaced(13, -1.2, 1.2);
        const PredictiveDraws p = hmcPredictiveDraws(r, grid, 7);
        QCOMPARE(p.f.rows(), Eigen::Index(600));
        const Eigen::ArrayXd mean = p.f.colwise().mean().transpose().array();
        const double rmse = std::sqrt((mean - (2 * grid.col(0).array()).sin()).square().mean());
        EVX_COMPARE_NEAR(rmse, 0.0, 0.1);
    }
};

QTEST_APPLESS_MAIN(TestBnnHmc)
#include "test_bnn_hmc.moc"
