// Finite-difference checks of every analytic gradient of the BNN+LV objective: the network's
// backward pass, the likelihood term, both KL terms, each NCAI penalty and the whole loss, at
// random parameters; and the differentiable Henze–Zirkler against stats/normality.h.
#include "bnn/bnn_loss.h"
#include "bnn/gaussian_pair_sums.h"
#include "stats/normality.h"

#include "bnn_test_support.h"

#include <random>

using namespace evx;
using namespace evx::bnn;
using evx::testing::checkGradient;

namespace {

// Central differences with h = 1e-6 on O(1–100) losses: truncation ~h² f''' ≲ 1e-10, rounding
// ~1e-16·|f|/h ≲ 1e-8; the tolerance 1e-6 + 1e-6·|g| leaves a margin for both.
constexpr double kStep = 1e-6, kAbs = 1e-6, kRel = 1e-6;

Eigen::VectorXd randomVector(Eigen::Index n, std::mt19937_64& rng, double sd = 1, double mean = 0)
{
    std::normal_distribution<double> normal(mean, sd);
    Eigen::VectorXd v(n);
    for (auto& e : v)
        e = normal(rng);
    return v;
}

struct Problem {
    Eigen::MatrixXd x;
    Eigen::VectorXd y;
};

Problem randomProblem(int n, int d, std::mt19937_64& rng)
{
    Problem p{Eigen::MatrixXd(n, d), Eigen::VectorXd(n)};
    p.x = Eigen::MatrixXd::NullaryExpr(n, d, [&] { return std::normal_distribution<double>(0, 1.5)(rng); });
    p.y = (p.x.rowwise().sum().array().sin() * 3).matrix() + randomVector(n, rng, 0.5);
    return p;
}

// θ with O(1) means, sds between about 0.05 and 0.5, latents spread like N(0, 1).
Eigen::VectorXd randomTheta(const ParameterLayout& l, std::mt19937_64& rng)
{
    Eigen::VectorXd theta(l.size());
    theta.segment(l.weightMean(), l.weights) = randomVector(l.weights, rng, 0.7);
    theta.segment(l.weightLogSd(), l.weights) = randomVector(l.weights, rng, 0.5, std::log(0.15));
    if (l.latents > 0) {
        theta.segment(l.latentMean(), l.latents) = randomVector(l.latents, rng, 1);
        theta.segment(l.latentLogSd(), l.latents) = randomVector(l.latents, rng, 0.5, std::log(0.15));
    }
    if (l.learnNoise)
        theta(l.logNoiseSd()) = std::log(0.4);
    return theta;
}

std::vector<ReparamNoise> randomNoise(const ParameterLayout& l, int draws, std::mt19937_64& rng)
{
    std::vector<ReparamNoise> noise;
    for (int s = 0; s < draws; ++s)
        noise.push_back({randomVector(l.weights, rng), randomVector(l.latents, rng)});
    return noise;
}

} // namespace

class TestBnnGradients : public QObject {
    Q_OBJECT

private slots:
    void layoutCountsEveryWeightAndBias()
    {
        const MlpShape shape{3, {5, 4}};
        QCOMPARE(shape.parameterCount(), (3 + 1) * 5 + (5 + 1) * 4 + (4 + 1) * 1);
        QCOMPARE(shape.biasOffset(1), 4 * 5 + 4 * 5);
    }

    void networkForwardMatchesAHandLoop()
    {
        // One datum through a 2-3-1 network computed with scalar loops.
        std::mt19937_64 rng(1);
        const MlpShape shape{2, {3}};
        const Eigen::VectorXd w = randomVector(shape.parameterCount(), rng);
        Eigen::MatrixXd input(2, 1);
        input << 0.3, -1.2;
        Mlp net(shape);
        const double f = net.forward(w, input)(0, 0);
        double expected = w(shape.biasOffset(1));
        for (int j = 0; j < 3; ++j) {
            double h = w(shape.biasOffset(0) + j);
            for (int i = 0; i < 2; ++i)
                h += w(shape.weightOffset(0) + i * 3 + j) * input(i, 0); // column-major W (3 × 2)
            const double a = h > 0 ? h : 0.01 * h;
            expected += w(shape.weightOffset(1) + j) * a;
        }
        EVX_COMPARE_NEAR(f, expected, 1e-14);
    }

    void networkBackwardMatchesFiniteDifferences()
    {
        // L = Σ_n c_n f_n for random c: ∂L/∂W and ∂L/∂input from backward().
        std::mt19937_64 rng(2);
        const MlpShape shape{3, {6, 4}};
        Mlp net(shape);
        const Eigen::MatrixXd input =
            Eigen::MatrixXd::NullaryExpr(3, 20, [&] { return std::normal_distribution<double>()(rng); });
        const Eigen::MatrixXd c = randomVector(20, rng).transpose();
        const Eigen::VectorXd w = randomVector(shape.parameterCount(), rng);
        net.forward(w, input);
        Eigen::VectorXd gw = Eigen::VectorXd::Zero(w.size());
        Eigen::MatrixXd gin;
        net.backward(w, c, gw, &gin);
        const auto lossAtWeights = [&](const Eigen::VectorXd& v) {
            return (c * net.forward(v, input).transpose())(0, 0);
        };
        EVX_VERIFY_GRADIENT(checkGradient(lossAtWeights, w, gw, kStep, kAbs, kRel));
        const auto lossAtInput = [&](const Eigen::VectorXd& v) {
            const Eigen::MatrixXd in = Eigen::Map<const Eigen::MatrixXd>(v.data(), 3, 20);
            return (c * net.forward(w, in).transpose())(0, 0);
        };
        const Eigen::VectorXd flatInput = Eigen::Map<const Eigen::VectorXd>(input.data(), input.size());
        EVX_VERIFY_GRADIENT(checkGradient(lossAtInput, flatInput,
                                          Eigen::Map<const Eigen::VectorXd>(gin.data(), gin.size()), kStep,
                                          kAbs, kRel));
    }

    void likelihoodTerm_data()
    {
        QTest::addColumn<bool>("latent");
        QTest::addColumn<bool>("learnNoise");
        QTest::addColumn<int>("inputs");
        QTest::newRow("BNN+LV, fixed σ_ε") << true << false << 1;
        QTest::newRow("BNN+LV, learned σ_ε, D = 3") << true << true << 3;
        QTest::newRow("BNN without z") << false << true << 2;
    }
    void likelihoodTerm()
    {
        QFETCH(bool, latent);
        QFETCH(bool, learnNoise);
        QFETCH(int, inputs);
        std::mt19937_64 rng(3);
        const Problem p = randomProblem(25, inputs, rng);
        ElboObjective elbo(p.x, p.y, {7, 5}, latent, learnNoise);
        const Eigen::VectorXd theta = randomTheta(elbo.layout(), rng);
        const ReparamNoise noise = randomNoise(elbo.layout(), 1, rng).front();
        Eigen::VectorXd grad = Eigen::VectorXd::Zero(theta.size());
        elbo.negLogLikelihood(theta, noise, 0.7, &grad);
        const auto f = [&](const Eigen::VectorXd& t) {
            return elbo.negLogLikelihood(t, noise, 0.7, nullptr);
        };
        EVX_VERIFY_GRADIENT(checkGradient(f, theta, grad, kStep, kAbs, kRel));
    }

    void likelihoodValueIsTheGaussianLogDensity()
    {
        // With every sd → 0 (τ = −60) the sample is the mean: NLL = −Σ log N(y; f(x, μ), σ_ε²).
        std::mt19937_64 rng(4);
        const Problem p = randomProblem(10, 1, rng);
        ElboObjective elbo(p.x, p.y, {4}, true, false);
        const ParameterLayout& l = elbo.layout();
        Eigen::VectorXd theta = randomTheta(l, rng);
        theta.segment(l.weightLogSd(), l.weights).setConstant(-60);
        theta.segment(l.latentLogSd(), l.latents).setConstant(-60);
        const double nll = elbo.negLogLikelihood(theta, randomNoise(l, 1, rng).front(), 0.5, nullptr);
        const Eigen::MatrixXd f =
            elbo.outputs(theta.segment(l.weightMean(), l.weights), theta.segment(l.latentMean(), l.latents));
        double expected = 0;
        for (int n = 0; n < 10; ++n)
            expected -= std::log(std::exp(-0.5 * std::pow((p.y(n) - f(0, n)) / 0.5, 2)) /
                                 (0.5 * std::sqrt(2 * M_PI)));
        EVX_COMPARE_NEAR(nll, expected, 1e-12 * std::fabs(expected));
    }

    void klTerms()
    {
        std::mt19937_64 rng(5);
        const Problem p = randomProblem(15, 2, rng);
        ElboObjective elbo(p.x, p.y, {4}, true, false);
        const ParameterLayout& l = elbo.layout();
        const Eigen::VectorXd theta = randomTheta(l, rng);
        for (const auto& [name, term] : {std::pair{"KL_W", &klWeights}, std::pair{"KL_z", &klLatents}}) {
            Eigen::VectorXd grad = Eigen::VectorXd::Zero(theta.size());
            term(l, theta, 0.37, &grad);
            const auto f = [&, term = term](const Eigen::VectorXd& t) { return term(l, t, 0.37, nullptr); };
            const auto check = checkGradient(f, theta, grad, kStep, kAbs, kRel);
            qInfo("%s: worst error %.2g of the tolerance", name, check.worstError);
            EVX_VERIFY_GRADIENT(check);
        }
    }

    void klValueIsTheClosedForm()
    {
        // KL(N(m, s²) ‖ N(0, v)) = log(√v/s) + (s² + m²)/(2v) − ½, one variable by hand.
        Eigen::VectorXd mean(1), logSd(1);
        mean << 0.8;
        logSd << std::log(0.3);
        const double expected = std::log(std::sqrt(2.0) / 0.3) + (0.09 + 0.64) / 4 - 0.5;
        EVX_COMPARE_NEAR(gaussianKl(mean, logSd, 2.0, nullptr, 0, 1), expected, 1e-15);
    }

    void henzeZirklerMatchesTheStatsModule_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("shape");
        QTest::newRow("normal, N = 50") << 50 << 0;
        QTest::newRow("exponential, N = 300") << 300 << 1;
        QTest::newRow("bimodal, N = 750") << 750 << 2;
    }
    void henzeZirklerMatchesTheStatsModule()
    {
        QFETCH(int, n);
        QFETCH(int, shape);
        std::mt19937_64 rng(6 + shape);
        Eigen::VectorXd a = randomVector(n, rng, 2, 1);
        if (shape == 1)
            a = (a.array() / 3).exp();
        if (shape == 2)
            a = a.array().sign() * 3 + a.array() * 0.2;
        const double reference = stats::henzeZirkler(a);
        const DifferentiableValue hz = henzeZirkler1d(a);
        QVERIFY(hz.defined);
        // Both sum the same N² exponentials in a different order: rounding ~N·1e-16 relative.
        EVX_COMPARE_NEAR(hz.value, reference, 1e-11 * std::max(1.0, reference));
        EVX_COMPARE_NEAR(henzeZirkler1d(a, false).value, reference, 1e-11 * std::max(1.0, reference));
    }

    void pairSumKernelPathsAgree()
    {
        // AVX2, SSE2 and scalar std::exp: the same sums to rounding (each E_ij to ~2 ulp).
        std::mt19937_64 rng(11);
        const Eigen::ArrayXd u = randomVector(203, rng, 1.3).array(); // odd: exercises the tails
        Eigen::ArrayXd s0[3], s1[3];
        double total[3];
        const SimdLevel levels[3] = {SimdLevel::Scalar, SimdLevel::Baseline, SimdLevel::Best};
        for (int k = 0; k < 3; ++k)
            total[k] = gaussianPairSums(u, 3.1, &s0[k], &s1[k], levels[k]);
        for (int k = 1; k < 3; ++k) {
            EVX_COMPARE_NEAR(total[k], total[0], 1e-13 * total[0]);
            EVX_COMPARE_NEAR((s0[k] - s0[0]).abs().maxCoeff(), 0.0, 1e-13 * s0[0].abs().maxCoeff());
            EVX_COMPARE_NEAR((s1[k] - s1[0]).abs().maxCoeff(), 0.0, 1e-13 * s1[0].abs().maxCoeff());
            EVX_COMPARE_NEAR(gaussianPairSums(u, 3.1, nullptr, nullptr, levels[k]), total[0],
                             1e-13 * total[0]);
        }
        // Brute force over all pairs for the first row's sums.
        double row = 0, moment = 0;
        for (Eigen::Index j = 1; j < u.size(); ++j) {
            row += std::exp(-3.1 * (u(0) - u(j)) * (u(0) - u(j)));
            moment += std::exp(-3.1 * (u(0) - u(j)) * (u(0) - u(j))) * u(j);
        }
        EVX_COMPARE_NEAR(s0[2](0), row, 1e-13 * row);
        EVX_COMPARE_NEAR(s1[2](0), moment, 1e-13 * std::fabs(moment) + 1e-15);
    }

    void kernelExponentialIsAccurate()
    {
        // Against std::exp over the whole range it is used on (≤ 0, down to the −700 clamp).
        double worst = 0, where = 0;
        for (double t = -700; t <= 0; t += 0.0173) {
            const double error = std::fabs(nonPositiveExp(t) / std::exp(t) - 1);
            if (error > worst) {
                worst = error;
                where = t;
            }
        }
        qInfo("worst relative error %.3g at t = %.4f", worst, where);
        EVX_COMPARE_NEAR(worst, 0.0, 1e-15);
        QCOMPARE(nonPositiveExp(0), 1.0);
    }

    void henzeZirklerGradient()
    {
        std::mt19937_64 rng(7);
        const Eigen::VectorXd a = (randomVector(60, rng).array().exp()).matrix(); // lognormal: HZ ≫ 0
        const DifferentiableValue hz = henzeZirkler1d(a);
        const auto f = [](const Eigen::VectorXd& v) { return henzeZirkler1d(v, false).value; };
        EVX_VERIFY_GRADIENT(checkGradient(f, a, hz.gradient, kStep, kAbs, kRel));
    }

    void henzeZirklerOfAConstantIsUndefined()
    {
        const DifferentiableValue hz = henzeZirkler1d(Eigen::VectorXd::Zero(20));
        QVERIFY(!hz.defined);
        QCOMPARE(hz.value, 0.0);
        QCOMPARE(hz.gradient.cwiseAbs().maxCoeff(), 0.0);
    }

    void correlationAndOffDiagonal()
    {
        std::mt19937_64 rng(8);
        const Eigen::VectorXd a = randomVector(40, rng), b = 0.5 * a + randomVector(40, rng);
        const DifferentiableValue r = pearsonCorrelation(a, b);
        // Against Eigen's own centred products.
        const Eigen::VectorXd ac = a.array() - a.mean(), bc = b.array() - b.mean();
        EVX_COMPARE_NEAR(r.value, ac.dot(bc) / (ac.norm() * bc.norm()), 1e-14);
        const auto fr = [&](const Eigen::VectorXd& v) { return pearsonCorrelation(a, v).value; };
        EVX_VERIFY_GRADIENT(checkGradient(fr, b, r.gradient, kStep, kAbs, kRel));

        Eigen::MatrixXd m =
            Eigen::MatrixXd::NullaryExpr(30, 3, [&] { return std::normal_distribution<double>()(rng); });
        m.col(2) += 0.7 * m.col(0);
        const DifferentiableValue off = offDiagonalCovarianceNorm(m);
        Eigen::MatrixXd cov =
            (m.rowwise() - m.colwise().mean()).transpose() * (m.rowwise() - m.colwise().mean()) / 30.0;
        EVX_COMPARE_NEAR(
            off.value, std::sqrt(2 * (cov(0, 1) * cov(0, 1) + cov(0, 2) * cov(0, 2) + cov(1, 2) * cov(1, 2))),
            1e-14);
        const auto fo = [&](const Eigen::VectorXd& v) {
            return offDiagonalCovarianceNorm(Eigen::Map<const Eigen::MatrixXd>(v.data(), 30, 3)).value;
        };
        const Eigen::VectorXd flat = Eigen::Map<const Eigen::VectorXd>(m.data(), m.size());
        EVX_VERIFY_GRADIENT(checkGradient(fo, flat, off.gradient, kStep, kAbs, kRel));
        // One latent per datum: Σ̂ is 1 × 1 and has no off-diagonal part.
        QCOMPARE(offDiagonalCovarianceNorm(m.col(0)).value, 0.0);
    }

    void cappedExponential()
    {
        double slope = 0;
        EVX_COMPARE_NEAR(cappedExp(3, 10, &slope), std::exp(3.0), 1e-12);
        EVX_COMPARE_NEAR(slope, std::exp(3.0), 1e-12);
        EVX_COMPARE_NEAR(cappedExp(1e6, 10, &slope), std::exp(10.0) * (1 + 1e6 - 10), 1e-6);
        EVX_COMPARE_NEAR(slope, std::exp(10.0), 1e-9);
        // Continuous at the cap, in value and slope.
        double below = 0, above = 0;
        EVX_COMPARE_NEAR(cappedExp(10 - 1e-9, 10, &below), cappedExp(10 + 1e-9, 10, &above), 1e-4);
        EVX_COMPARE_NEAR(below, above, 1e-4);
    }

    void eachNcaiPenalty_data()
    {
        // epsT = 1 keeps HZ/ε_T below the cap (the exponential branch); 0.01 puts it far above
        // (the linear branch); the third row switches λ off one penalty at a time.
        QTest::addColumn<double>("epsT");
        QTest::addColumn<int>("which"); // 0: all, 1: HZ only, 2: PC only
        QTest::newRow("below the cap, all") << 1.0 << 0;
        QTest::newRow("above the cap, HZ only") << 0.01 << 1;
        QTest::newRow("PC only, D = 2") << 1.0 << 2;
    }
    void eachNcaiPenalty()
    {
        QFETCH(double, epsT);
        QFETCH(int, which);
        std::mt19937_64 rng(9);
        const Problem p = randomProblem(80, which == 2 ? 2 : 1, rng);
        const Eigen::VectorXd mu = 0.4 * p.x.col(0) + randomVector(80, rng, 0.6); // correlated with x
        NcaiPenaltyOptions o;
        o.epsT = epsT;
        o.epsX = 2; // keeps the PC exponent below the cap, so both branches are exercised
        if (which == 1)
            o.lambda3 = 0;
        if (which == 2)
            o.lambda1 = 0;
        Eigen::VectorXd grad = Eigen::VectorXd::Zero(80);
        const NcaiPenaltyValue v = ncaiPenalties(mu, p.x, p.y, o, &grad);
        QVERIFY(v.hzDefined || which == 2);
        if (which == 1)
            QVERIFY2(v.hz / epsT > o.expCap, qPrintable(QString("HZ/ε_T = %1").arg(v.hz / epsT)));
        if (which == 0)
            QVERIFY2(v.hz / epsT < o.expCap, qPrintable(QString("HZ/ε_T = %1").arg(v.hz / epsT)));
        const auto f = [&](const Eigen::VectorXd& m) {
            return ncaiPenalties(m, p.x, p.y, o, nullptr).total();
        };
        // HZ sums N² exponentials of O(1) to a value of O(0.1) and rounds to ~1e-14, so central
        // differences (h = 1e-5) of HZ carry ~1e-9 absolute error on every coordinate whatever
        // its size, ~1e-7 of the largest (a long-double difference quotient confirmed the
        // analytic gradient to 1e-10 on the same data). The absolute part of the tolerance is
        // therefore 1e-6 of the largest coordinate; the penalty's slope scales both alike.
        EVX_VERIFY_GRADIENT(checkGradient(f, mu, grad, 1e-5, 1e-6 * grad.cwiseAbs().maxCoeff(), kRel));
    }

    void wholeLoss_data()
    {
        QTest::addColumn<bool>("latent");
        QTest::addColumn<bool>("penalties");
        QTest::addColumn<int>("draws");
        QTest::newRow("BNN") << false << false << 1;
        QTest::newRow("BNN+LV, −ELBO") << true << false << 1;
        QTest::newRow("BNN+LV, −ELBO + penalties, 3 draws") << true << true << 3;
    }
    void wholeLoss()
    {
        QFETCH(bool, latent);
        QFETCH(bool, penalties);
        QFETCH(int, draws);
        std::mt19937_64 rng(10);
        const Problem p = randomProblem(40, 1, rng);
        NcaiPenaltyOptions o;
        o.epsT = 1;
        BnnLoss loss(p.x, p.y, {6, 3}, latent, true, penalties ? std::optional(o) : std::nullopt);
        const Eigen::VectorXd theta = randomTheta(loss.layout(), rng);
        const std::vector<ReparamNoise> noise = randomNoise(loss.layout(), draws, rng);
        const PriorSettings priors{0.5, 0.8, 1.3};
        Eigen::VectorXd grad;
        const LossTerms t = loss.evaluate(theta, noise, priors, &grad);
        // The total is the sum of the named terms.
        EVX_COMPARE_NEAR(t.total(),
                         t.elbo.negLogLik + t.elbo.klWeights + t.elbo.klLatents + t.penalties.hzPenalty +
                             t.penalties.pcPenalty + t.penalties.offDiagonalPenalty,
                         1e-12 * std::fabs(t.total()));
        QCOMPARE(t.penalties.total() > 0, penalties);
        const auto f = [&](const Eigen::VectorXd& v) {
            return loss.evaluate(v, noise, priors, nullptr).total();
        };
        EVX_VERIFY_GRADIENT(checkGradient(f, theta, grad, kStep, kAbs, kRel));
    }

    void clippingBoundsThePenaltyGradient()
    {
        Eigen::VectorXd g = Eigen::VectorXd::Constant(16, 1e9);
        const double factor = clipRms(g, 10);
        EVX_COMPARE_NEAR(g.norm() / 4, 10.0, 1e-12);
        EVX_COMPARE_NEAR(factor, 1e-8, 1e-20);
        Eigen::VectorXd small = Eigen::VectorXd::Constant(4, 2.0);
        QCOMPARE(clipRms(small, 10), 1.0);
        QCOMPARE(small(0), 2.0);
    }
};

QTEST_APPLESS_MAIN(TestBnnGradients)
#include "test_bnn_gradients.moc"
