// BQ over structured domains, the core (METHODS.md §2b): the paper's DP and IBP kernels' z and V
// against Monte Carlo over prior draws made here (own stick-breaking and IBP samplers), the MMD
// features against the direct double sum, the gram kernel against direct sums, and StructuredBq
// against independent dense computations: engine/bq's LengthscaleMixtureBq on a 1-D Gaussian
// problem, a finite prior sampled at every support point, prefixes, and WSABI-L's formulas.

#include "compare_near.h"

#include "bq/gaussian_measure.h"
#include "bq/lengthscale_mixture_bq.h"
#include "bq/structured/feature_kernels.h"
#include "bq/structured/mixture_kernels.h"
#include "bq/structured/structured_bq.h"
#include "core/errors.h"

#include <cmath>
#include <numbers>
#include <random>

using namespace evx;
using namespace evx::bq::structured;

namespace {

// G ~ DP(α, N(0, 1)) by stick-breaking, truncated once the mass left is below 1e-10 (the rest
// dropped: its effect on a kernel value is below 1e-10).
// A Monte Carlo mean and its standard error, accumulated one draw at a time.
struct MonteCarloMean {
    double sum = 0, sumSq = 0;
    int count = 0;
    void add(double x)
    {
        sum += x;
        sumSq += x * x;
        ++count;
    }
    double mean() const { return sum / count; }
    double se() const { return std::sqrt((sumSq / count - mean() * mean()) / count); }
};

MixingMeasure stickBreaking(double alpha, std::mt19937_64& rng)
{
    std::gamma_distribution<double> ga(1.0), gb(alpha);
    std::normal_distribution<double> normal;
    MixingMeasure g;
    double left = 1;
    while (left > 1e-10) {
        const double x = ga(rng), y = gb(rng), v = x / (x + y);
        g.weights.push_back(left * v);
        g.atoms.push_back(normal(rng));
        left *= 1 - v;
    }
    return g;
}

double normalPdf(double x, double variance)
{
    return std::exp(-0.5 * x * x / variance) / std::sqrt(2 * std::numbers::pi * variance);
}

// The paper's (1.74)+(1.78), written out again.
double paperDpKernel(const MixingMeasure& a, const MixingMeasure& b, double w)
{
    double s = 0;
    for (size_t i = 0; i < a.atoms.size(); ++i)
        for (size_t j = 0; j < b.atoms.size(); ++j)
            s += a.weights[i] * b.weights[j] * normalPdf(a.atoms[i] - b.atoms[j], w * w);
    return s;
}

// The Indian buffet (Griffiths–Ghahramani): customer i takes dish k with probability m_k/i and
// Poisson(α/i) new dishes.
FeatureMatrix ibpDraw(int n, double alpha, std::mt19937_64& rng)
{
    std::vector<std::vector<int>> rows(static_cast<size_t>(n));
    std::vector<int> counts;
    for (int i = 1; i <= n; ++i) {
        std::vector<int>& row = rows[size_t(i - 1)];
        row.assign(counts.size(), 0);
        for (size_t k = 0; k < counts.size(); ++k)
            if (std::uniform_real_distribution<double>()(rng) < double(counts[k]) / i) {
                row[k] = 1;
                ++counts[k];
            }
        const int fresh = std::poisson_distribution<int>(alpha / i)(rng);
        for (int k = 0; k < fresh; ++k) {
            row.push_back(1);
            counts.push_back(1);
        }
    }
    FeatureMatrix z = FeatureMatrix::Zero(n, Eigen::Index(counts.size()));
    for (int i = 0; i < n; ++i)
        for (size_t k = 0; k < rows[size_t(i)].size(); ++k)
            z(i, Eigen::Index(k)) = rows[size_t(i)][k];
    return z;
}

MixingMeasure randomMeasure(int atoms, double spread, std::mt19937_64& rng)
{
    std::normal_distribution<double> normal(0, spread);
    std::gamma_distribution<double> gamma(1.0);
    MixingMeasure g;
    double sum = 0;
    for (int i = 0; i < atoms; ++i) {
        g.atoms.push_back(normal(rng));
        g.weights.push_back(gamma(rng));
        sum += g.weights.back();
    }
    for (double& w : g.weights)
        w /= sum;
    return g;
}

// A 1-D Gaussian-kernel grid under p = N(0, 1): z and V in closed form (BQ paper (1.65)–(1.66)).
std::vector<GramSet> gaussianGrid(const Eigen::VectorXd& x, const std::vector<double>& ls)
{
    std::vector<GramSet> grid;
    for (double l : ls) {
        GramSet g;
        g.hyper = {l};
        g.k.resize(x.size(), x.size());
        for (Eigen::Index i = 0; i < x.size(); ++i)
            for (Eigen::Index j = 0; j < x.size(); ++j)
                g.k(i, j) = std::exp(-0.5 * std::pow((x[i] - x[j]) / l, 2));
        g.z = (l / std::sqrt(l * l + 1) * (-0.5 * x.array().square() / (l * l + 1)).exp()).matrix();
        g.v = l / std::sqrt(l * l + 2);
        grid.push_back(g);
    }
    return grid;
}

// A finite prior on points t_1..t_P of the line with probabilities p, Gaussian kernel on t,
// samples = the support points given by index; draws = the whole support (WSABI-L).
std::vector<GramSet> finiteGrid(const Eigen::VectorXd& t, const Eigen::VectorXd& p,
                                const std::vector<int>& idx, const std::vector<double>& ls)
{
    std::vector<GramSet> grid;
    for (double l : ls) {
        const Eigen::Index m = t.size(), s = Eigen::Index(idx.size());
        Eigen::MatrixXd kt(m, m);
        for (Eigen::Index i = 0; i < m; ++i)
            for (Eigen::Index j = 0; j < m; ++j)
                kt(i, j) = std::exp(-0.5 * std::pow((t[i] - t[j]) / l, 2));
        GramSet g;
        g.hyper = {l};
        g.k.resize(s, s);
        g.kDraws.resize(s, m);
        for (Eigen::Index a = 0; a < s; ++a) {
            g.kDraws.row(a) = kt.row(idx[size_t(a)]);
            for (Eigen::Index b = 0; b < s; ++b)
                g.k(a, b) = kt(idx[size_t(a)], idx[size_t(b)]);
        }
        g.z = g.kDraws * p;
        g.v = p.dot(kt * p);
        g.kDrawsDraws = kt;
        g.drawWeights = p;
        grid.push_back(g);
    }
    return grid;
}

} // namespace

class TestBqStructuredCore : public QObject {
    Q_OBJECT

private slots:
    // (1.79) z(G) = Σ π_i N(u_i | 0, w² + 1) and (1.80) V = N(0 | 0, w² + 2) against the mean of
    // k(G, G') over G' ~ DP(α, N(0, 1)) and over independent pairs.
    void paperDpKernelMatchesMonteCarlo_data()
    {
        QTest::addColumn<double>("alpha");
        QTest::newRow("alpha=0.3") << 0.3;
        QTest::newRow("alpha=1") << 1.0;
        QTest::newRow("alpha=5") << 5.0;
    }
    void paperDpKernelMatchesMonteCarlo()
    {
        QFETCH(double, alpha);
        const double w = 0.5;
        std::mt19937_64 rng(17);
        const MixingMeasure g{{0.5, 0.3, 0.2}, {-0.4, 1.2, 2.0}};
        const GramSet gram = paperMixtureGram({g}, w);
        // Enough draws to resolve a 2 % error in V at α = 0.3 (sd(k)/V ≈ 0.9 there) at 4 errors.
        const int draws = alpha < 5 ? 40000 : 12000;
        MonteCarloMean zMean, vMean;
        for (int i = 0; i < draws; ++i) {
            const MixingMeasure a = stickBreaking(alpha, rng), b = stickBreaking(alpha, rng);
            zMean.add(paperDpKernel(g, a, w));
            vMean.add(paperDpKernel(a, b, w));
        }
        const double zMc = zMean.mean(), vMc = vMean.mean(), zSe = zMean.se(), vSe = vMean.se();
        qInfo("alpha %g: z %.5f vs MC %.5f ± %.5f; V %.5f vs MC %.5f ± %.5f", alpha, gram.z[0], zMc, zSe,
              gram.v, vMc, vSe);
        // 4 Monte Carlo standard errors: a false alarm once in ~16000 runs (the seed is fixed).
        EVX_COMPARE_NEAR(gram.z[0], zMc, 4 * zSe);
        EVX_COMPARE_NEAR(gram.v, vMc, 4 * vSe);
        EVX_COMPARE_NEAR(gram.k(0, 0), paperDpKernel(g, g, w), 1e-14);
    }

    // (1.70)'s z = α Σ_n r_n (1.72) and V = α² N (1.73) against the IBP's own Monte Carlo: exact
    // for the infinite IBP, whose row sums are Poisson(α).
    void paperIbpKernelMatchesMonteCarlo_data()
    {
        QTest::addColumn<double>("alpha");
        QTest::newRow("alpha=0.5") << 0.5;
        QTest::newRow("alpha=2") << 2.0;
    }
    void paperIbpKernelMatchesMonteCarlo()
    {
        QFETCH(double, alpha);
        const int n = 4, draws = 40000;
        std::mt19937_64 rng(5);
        FeatureMatrix z(n, 2);
        z << 1, 0, 1, 1, 0, 1, 0, 0;
        const GramSet gram = paperFeatureGram({z}, alpha);
        auto kernel = [](const FeatureMatrix& a, const FeatureMatrix& b) {
            double s = 0; // Σ_k Σ_k' Σ_n a_nk b_nk', as (1.70) is printed
            for (Eigen::Index k = 0; k < a.cols(); ++k)
                for (Eigen::Index l = 0; l < b.cols(); ++l)
                    s += a.col(k).dot(b.col(l));
            return s;
        };
        MonteCarloMean zMean, vMean;
        for (int i = 0; i < draws; ++i) {
            const FeatureMatrix a = ibpDraw(n, alpha, rng), b = ibpDraw(n, alpha, rng);
            zMean.add(kernel(z, a));
            vMean.add(kernel(a, b));
        }
        const double zMc = zMean.mean(), vMc = vMean.mean(), zSe = zMean.se(), vSe = vMean.se();
        qInfo("alpha %g: z %.4f vs MC %.4f ± %.4f; V %.4f vs MC %.4f ± %.4f", alpha, gram.z[0], zMc, zSe,
              gram.v, vMc, vSe);
        EVX_COMPARE_NEAR(gram.z[0], zMc, 4 * zSe);
        EVX_COMPARE_NEAR(gram.v, vMc, 4 * vSe);
        EVX_COMPARE_NEAR(gram.k(0, 0), kernel(z, z), 0);
    }

    // METHODS §2b: Z = I₂ and Z = [1; 1] correlate 1 under (1.70) though their likelihoods differ;
    // the gram kernel tells them apart (‖I − 11ᵀ‖²_F = 2).
    void paperIbpKernelConfusesDistinctMatrices()
    {
        const FeatureMatrix a = FeatureMatrix::Identity(2, 2), b = FeatureMatrix::Ones(2, 1);
        const GramSet paper = paperFeatureGram({a, b}, 1.0);
        EVX_COMPARE_NEAR(paper.k(0, 1) / std::sqrt(paper.k(0, 0) * paper.k(1, 1)), 1.0, 1e-15);
        std::vector<WeightedGram> prior{{a * a.transpose(), 0.5}, {b * b.transpose(), 0.5}};
        const GramSet gram = gramFeatureGrams({a, b}, prior, {1.0}, false, true).front();
        // d̄² = E‖A − B‖² = ½·2 = 1 (two equally likely points at distance² 2), so ℓ = 1 and k = e^{−1}.
        EVX_COMPARE_NEAR(gram.hyper[1], 1.0, 1e-14);
        EVX_COMPARE_NEAR(gram.k(0, 1), std::exp(-1.0), 1e-15);
    }

    // The gram kernel's K, z and V against direct sums over a small weighted support, both as an
    // enumeration (every pair) and as Monte Carlo draws (distinct pairs).
    void gramKernelMatchesDirectSums()
    {
        std::mt19937_64 rng(3);
        const int n = 4;
        std::vector<FeatureMatrix> samples;
        std::vector<WeightedGram> prior;
        for (int i = 0; i < 5; ++i)
            samples.push_back(ibpDraw(n, 1.5, rng));
        for (int i = 0; i < 40; ++i) {
            const FeatureMatrix d = ibpDraw(n, 1.5, rng);
            prior.push_back({d * d.transpose(), 1.0 / 40});
        }
        auto dist2 = [](const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return (a - b).squaredNorm(); };
        for (bool exact : {true, false}) {
            double pairMass = 0, d2 = 0;
            for (size_t i = 0; i < prior.size(); ++i)
                for (size_t j = 0; j < prior.size(); ++j)
                    if (exact || i != j) {
                        pairMass += prior[i].weight * prior[j].weight;
                        d2 += prior[i].weight * prior[j].weight * dist2(prior[i].zzt, prior[j].zzt);
                    }
            const double l = 0.5 * std::sqrt(d2 / pairMass);
            const GramSet g = gramFeatureGrams(samples, prior, {0.5}, false, exact).front();
            EVX_COMPARE_NEAR(g.hyper[1], l, 1e-12 * l);
            auto k = [l](double d) { return std::exp(-0.5 * d / (l * l)); };
            double v = 0;
            for (size_t i = 0; i < prior.size(); ++i)
                for (size_t j = 0; j < prior.size(); ++j)
                    if (exact || i != j)
                        v += prior[i].weight * prior[j].weight * k(dist2(prior[i].zzt, prior[j].zzt));
            EVX_COMPARE_NEAR(g.v, v / (exact ? 1.0 : pairMass), 1e-13);
            for (size_t s = 0; s < samples.size(); ++s) {
                const Eigen::MatrixXd gs = samples[s] * samples[s].transpose();
                double z = 0;
                for (const WeightedGram& p : prior)
                    z += p.weight * k(dist2(gs, p.zzt));
                EVX_COMPARE_NEAR(g.z[Eigen::Index(s)], z, 1e-13);
                EVX_COMPARE_NEAR(g.k(Eigen::Index(s), 0), k(dist2(gs, samples[0] * samples[0].transpose())),
                                 1e-13);
            }
        }
    }

    // MMD² from the node features against the direct double sum over atoms: K, z, V and the
    // lengthscale scale, for draws few enough that V takes every distinct pair.
    void mmdFeaturesMatchDirectSums()
    {
        std::mt19937_64 rng(11);
        std::vector<MixingMeasure> samples, draws;
        for (int i = 0; i < 6; ++i)
            samples.push_back(randomMeasure(1 + i % 4, 1.5, rng));
        for (int i = 0; i < 30; ++i)
            draws.push_back(stickBreaking(1.0, rng));
        double worst = 0;
        for (double w : {0.2, 0.7}) {
            double pairSum = 0, pairs = 0;
            for (size_t a = 0; a < draws.size(); ++a)
                for (size_t b = a + 1; b < draws.size(); ++b) {
                    pairSum += directMmdSquared(draws[a], draws[b], w);
                    ++pairs;
                }
            const double rms = std::sqrt(pairSum / pairs);
            const GramSet g = mmdMixtureGrams(samples, draws, {w}, {0.3}, false).front();
            const double l = 0.3 * rms;
            // The features' trapezoid error is ~1e-16 of a kernel value; MMD² between measures
            // whose atoms are a width apart is O(0.1–1), so 1e-10 relative leaves room for rounding.
            EVX_COMPARE_NEAR(g.hyper[2], l, 1e-10 * l);
            auto k = [l](double d2) { return std::exp(-0.5 * d2 / (l * l)); };
            double v = 0;
            for (size_t a = 0; a < draws.size(); ++a)
                for (size_t b = a + 1; b < draws.size(); ++b)
                    v += k(directMmdSquared(draws[a], draws[b], w));
            EVX_COMPARE_NEAR(g.v, v / pairs, 1e-10);
            for (size_t s = 0; s < samples.size(); ++s) {
                double z = 0;
                for (const MixingMeasure& d : draws)
                    z += k(directMmdSquared(samples[s], d, w));
                EVX_COMPARE_NEAR(g.z[Eigen::Index(s)], z / double(draws.size()), 1e-10);
                for (size_t t = 0; t < s; ++t) {
                    const double direct = directMmdSquared(samples[s], samples[t], w);
                    const double viaK = -2 * l * l * std::log(g.k(Eigen::Index(s), Eigen::Index(t)));
                    worst = std::max(worst, std::abs(viaK - direct) / direct);
                }
            }
        }
        qInfo("largest relative error of MMD² (features vs direct): %.2e", worst);
        QVERIFY2(worst < 1e-9, qPrintable(QString("relative error %1").arg(worst)));
    }

    // Many draws: V over the pairs (m, m + o), o ≤ 64, against every distinct pair (direct sums);
    // both are unbiased for the same V, so they differ by Monte Carlo noise only.
    void mmdIncompletePairsAgreeWithAllPairs()
    {
        std::mt19937_64 rng(23);
        std::vector<MixingMeasure> draws;
        for (int i = 0; i < 400; ++i)
            draws.push_back(stickBreaking(1.0, rng));
        const GramSet g = mmdMixtureGrams({draws[0]}, draws, {0.5}, {0.5}, false).front();
        const double l = g.hyper[2];
        double sum = 0, sq = 0, pairs = 0;
        for (size_t a = 0; a < draws.size(); ++a)
            for (size_t b = a + 1; b < draws.size(); ++b) {
                const double k = std::exp(-0.5 * directMmdSquared(draws[a], draws[b], 0.5) / (l * l));
                sum += k;
                sq += k * k;
                ++pairs;
            }
        const double v = sum / pairs, sdK = std::sqrt(sq / pairs - v * v);
        // Given the draws, the window is a fixed set of P = 25600 of the pairs; the draws being
        // exchangeable, it behaves as a random subset, whose mean is within ~sd(k)/√P of the mean
        // over all pairs. 4 such units.
        const double tol = 4 * sdK / std::sqrt(400.0 * 64);
        qInfo("V window %.5f, all pairs %.5f, tolerance %.5f", g.v, v, tol);
        EVX_COMPARE_NEAR(g.v, v, tol);
    }

    // GP on f with h integrated out against engine/bq's LengthscaleMixtureBq on the same 1-D
    // Gaussian problem (z, V closed form): same means, variances and weights.
    void matchesLengthscaleMixtureBq()
    {
        const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(10, -3, 3);
        const std::vector<double> ls{0.3, 0.5477225575051661, 1.0}; // log-spaced as in LengthscaleMixtureBq
        Eigen::VectorXd logF(x.size());
        for (Eigen::Index i = 0; i < x.size(); ++i)
            logF[i] = -0.5 * std::pow((x[i] - 0.7) / 0.8, 2) + 0.3 * std::sin(2 * x[i]) - 40;
        const StructuredBq bq(gaussianGrid(x, ls), Transform::None);
        const StructuredEstimate e = bq.estimate(logF);
        bq::LengthscaleMixtureBq ref(bq::GaussianMeasure::oneDimensional(0, 1), 0.3, 1.0, 3);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            ref.add(Eigen::VectorXd::Constant(1, x[i]), std::exp(logF[i] - e.logScale));
        const bq::ZEstimate r = ref.estimate();
        qInfo("mean %.12g vs %.12g, variance %.6g vs %.6g, jitter %g / %g", e.mean, r.mean, e.variance,
              r.variance, e.jitter, ref.jitter());
        QVERIFY(e.jitter == 0.0 && ref.jitter() == 0.0);
        EVX_COMPARE_NEAR(e.logScale, logF.maxCoeff(), 0);
        // Two different factorisations of the same well-conditioned K: agreement to ~1e-10.
        EVX_COMPARE_NEAR(e.mean, r.mean, 1e-10 * std::abs(r.mean));
        EVX_COMPARE_NEAR(e.variance, r.variance, 1e-8 * r.variance);
        const std::vector<double> rw = ref.weights();
        for (size_t j = 0; j < ls.size(); ++j)
            EVX_COMPARE_NEAR(e.weights[j], rw[j], 1e-10);
        EVX_COMPARE_NEAR(e.logMean(), e.logScale + std::log(e.mean), 1e-15);
    }

    // Every support point of a finite prior sampled: E[Z] = Σ p_i f_i exactly and V[Z] = 0, for
    // the GP on f and for WSABI-L (the GP on f̃ interpolates the samples, so a + ½f̃² = f there).
    void finitePriorFullySampledIsExact_data()
    {
        QTest::addColumn<bool>("wsabi");
        QTest::newRow("gp-on-f") << false;
        QTest::newRow("wsabi") << true;
    }
    void finitePriorFullySampledIsExact()
    {
        QFETCH(bool, wsabi);
        const Eigen::VectorXd t = Eigen::VectorXd::LinSpaced(7, -2, 2);
        Eigen::VectorXd p(7);
        p << 0.05, 0.1, 0.2, 0.3, 0.15, 0.12, 0.08;
        const std::vector<int> idx{3, 0, 6, 1, 5, 2, 4};
        Eigen::VectorXd logF(7), f(7);
        for (int i = 0; i < 7; ++i) {
            logF[i] = -3 * std::pow(t[idx[size_t(i)]] - 0.5, 2) - 100;
            f[i] = std::exp(logF[i] + 100);
        }
        double exact = 0;
        for (int i = 0; i < 7; ++i)
            exact += p[idx[size_t(i)]] * f[i];
        const StructuredBq bq(finiteGrid(t, p, idx, {0.5, 1.0}), wsabi ? Transform::Wsabi : Transform::None);
        const StructuredEstimate e = bq.estimate(logF);
        const double z = std::exp(e.logMean() + 100);
        qInfo("E[Z] %.15g vs %.15g, sd %.3g", z, exact, e.sd() * std::exp(e.logScale + 100));
        // K is well conditioned (points 0.67 apart, ℓ ≤ 1): K K⁻¹ = I to ~1e-12.
        EVX_COMPARE_NEAR(z, exact, 1e-10 * exact);
        EVX_COMPARE_NEAR(e.sd(), 0.0, 1e-6 * e.mean);
    }

    // The first n samples' estimate equals a StructuredBq built on the first n samples alone,
    // also where the full K needed jitter (the last sample repeats the first) and the prefix not.
    void prefixEqualsSmallerProblem_data()
    {
        QTest::addColumn<bool>("wsabi");
        QTest::addColumn<bool>("duplicate");
        QTest::newRow("gp-on-f") << false << false;
        QTest::newRow("wsabi") << true << false;
        QTest::newRow("gp-on-f, jittered") << false << true;
        QTest::newRow("wsabi, jittered") << true << true;
    }
    void prefixEqualsSmallerProblem()
    {
        QFETCH(bool, wsabi);
        QFETCH(bool, duplicate);
        const Eigen::VectorXd t = Eigen::VectorXd::LinSpaced(15, -3, 3);
        const Eigen::VectorXd p = Eigen::VectorXd::Constant(15, 1.0 / 15);
        std::vector<int> idx{7, 2, 12, 0, 9, 4, 14, 5, 10};
        if (duplicate)
            idx.push_back(7);
        Eigen::VectorXd logF(Eigen::Index(idx.size()));
        for (size_t i = 0; i < idx.size(); ++i)
            logF[Eigen::Index(i)] = -2 * std::pow(t[idx[i]] - 1, 2) + 0.1 * i;
        const Transform tr = wsabi ? Transform::Wsabi : Transform::None;
        // One grid point where jitter is forced, so the jitter reported is that factor's.
        const std::vector<double> ls = duplicate ? std::vector<double>{0.8} : std::vector<double>{0.4, 0.8};
        const StructuredBq full(finiteGrid(t, p, idx, ls), tr);
        QCOMPARE(full.estimate(logF).jitter > 0, duplicate);
        for (int n : {4, 6, 9}) {
            const std::vector<int> head(idx.begin(), idx.begin() + n);
            const StructuredBq small(finiteGrid(t, p, head, ls), tr);
            const StructuredEstimate a = full.estimate(logF.head(n)), b = small.estimate(logF.head(n));
            // A fresh factor of the block, not the jittered full one (QCOMPARE would let 1e-12 pass).
            QVERIFY2(a.jitter == 0.0, qPrintable(QString("jitter %1").arg(a.jitter)));
            // The leading block of one factor against a factor of the block: equal to rounding.
            EVX_COMPARE_NEAR(a.mean, b.mean, 1e-12 * std::abs(b.mean));
            EVX_COMPARE_NEAR(a.variance, b.variance, 1e-9 * b.variance);
            EVX_COMPARE_NEAR(a.weights[0], b.weights[0], 1e-12);
        }
    }

    // WSABI-L on one grid point against the formulas written out with a dense solve:
    // E = a + ½ m̃ᵀWm̃, V = (f̃ᵀK⁻¹f̃/(n − 2))(uᵀK_gg u − uᵀK_gx K⁻¹ K_xg u), u = W∘m̃; for Monte
    // Carlo draws V also holds the mean's sampling variance.
    void wsabiMatchesDenseFormulas()
    {
        const Eigen::VectorXd t = Eigen::VectorXd::LinSpaced(25, -3, 3);
        Eigen::VectorXd p = (-0.5 * t.array().square()).exp().matrix();
        p /= p.sum();
        const std::vector<int> idx{12, 3, 20, 8, 16, 0, 24, 10};
        Eigen::VectorXd logF(8);
        for (int i = 0; i < 8; ++i)
            logF[i] = -1.5 * std::pow(t[idx[size_t(i)]] - 0.8, 2) - 7;
        const std::vector<GramSet> grid = finiteGrid(t, p, idx, {0.6});
        const StructuredEstimate e = StructuredBq(grid, Transform::Wsabi).estimate(logF);
        const GramSet& g = grid.front();
        const Eigen::VectorXd y = (logF.array() - logF.maxCoeff()).exp().matrix();
        const double a = 0.8 * y.minCoeff();
        const Eigen::VectorXd ft = (2 * (y.array() - a)).sqrt().matrix();
        const Eigen::FullPivLU<Eigen::MatrixXd> lu(g.k);
        const Eigen::VectorXd mt = g.kDraws.transpose() * lu.solve(ft);
        const double mean = a + 0.5 * mt.dot(p.asDiagonal() * mt);
        const Eigen::VectorXd u = p.cwiseProduct(mt);
        const Eigen::VectorXd kxu = g.kDraws * u;
        const double variance =
            ft.dot(lu.solve(ft)) / (8 - 2) * (u.dot(g.kDrawsDraws * u) - kxu.dot(lu.solve(kxu)));
        qInfo("mean %.12g vs %.12g, variance %.6g vs %.6g", e.mean, mean, e.variance, variance);
        EVX_COMPARE_NEAR(e.mean, mean, 1e-11 * mean);
        EVX_COMPARE_NEAR(e.variance, variance, 1e-7 * variance);
        QVERIFY(e.variance > 0);
        // As Monte Carlo draws, the mean's own sampling variance Σ W_m² (h_m − h̄)², h = ½m̃², is added.
        std::vector<GramSet> mcGrid = grid;
        mcGrid.front().monteCarloDraws = true;
        const StructuredEstimate mc = StructuredBq(mcGrid, Transform::Wsabi).estimate(logF);
        const Eigen::ArrayXd h = 0.5 * mt.array().square();
        const double hBar = (p.array() * h).sum();
        const double mcVariance = (p.array().square() * (h - hBar).square()).sum();
        qInfo("Monte Carlo part of the variance %.6g", mcVariance);
        EVX_COMPARE_NEAR(mc.mean, mean, 1e-11 * mean);
        EVX_COMPARE_NEAR(mc.variance, variance + mcVariance, 1e-7 * (variance + mcVariance));
    }

    void refusesBadInput()
    {
        const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(5, -1, 1);
        const StructuredBq bq(gaussianGrid(x, {0.5}), Transform::None);
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, bq.estimate(Eigen::VectorXd::Zero(2)));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, bq.estimate(Eigen::VectorXd::Zero(6)));
        QVERIFY_THROWS_EXCEPTION(NumericalError, bq.estimate(Eigen::VectorXd::Constant(
                                                     5, -std::numeric_limits<double>::infinity())));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, StructuredBq(gaussianGrid(x, {0.5}), Transform::Wsabi));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, paperMixtureGram({MixingMeasure{}}, 0.5));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter,
                                 paperFeatureGram({FeatureMatrix::Constant(2, 1, 2.0)}, 1.0));
    }
};

QTEST_APPLESS_MAIN(TestBqStructuredCore)
#include "test_bq_structured_core.moc"
