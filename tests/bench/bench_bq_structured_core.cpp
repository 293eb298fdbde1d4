// Structured-domain BQ costs (issue 39): the MMD kernel matrices of S = 500 mixing measures over
// the default (w, ℓ) grid with M = 2000 prior draws (z, V, and for WSABI-L k(X, draws) and
// k(draws, draws)); the gram kernel of S = 500 IBP matrices (N = 5) over M = 2000 draws; and one
// StructuredBq::estimate() (a new f vector: one solve per grid point) at S = 100 and 500.
// Run directly for figures: build/tests/bench/bench_bq_structured_core
#include "bq/structured/feature_kernels.h"
#include "bq/structured/mixture_kernels.h"
#include "bq/structured/structured_bq.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace evx;
using namespace evx::bq::structured;

namespace {

constexpr int kDraws = 2000;

// Posterior-like measures: 1–6 atoms near three clusters, Dirichlet-ish weights.
std::vector<MixingMeasure> posteriorLike(int count, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> jitter(0, 0.15);
    std::gamma_distribution<double> gamma(1.0);
    const double centres[] = {-1.2, 0.3, 1.5};
    std::vector<MixingMeasure> out;
    for (int i = 0; i < count; ++i) {
        MixingMeasure g;
        const int atoms = 1 + i % 6;
        double sum = 0;
        for (int a = 0; a < atoms; ++a) {
            g.atoms.push_back(centres[a % 3] + jitter(rng));
            g.weights.push_back(gamma(rng));
            sum += g.weights.back();
        }
        for (double& w : g.weights)
            w /= sum;
        out.push_back(std::move(g));
    }
    return out;
}

// G ~ DP(α, N(0, 1)) by stick-breaking until the mass left is below 1e-8 (as dp_prior.h).
std::vector<MixingMeasure> priorDraws(double alpha, int count, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::gamma_distribution<double> ga(1.0), gb(alpha);
    std::normal_distribution<double> normal;
    std::vector<MixingMeasure> out;
    for (int i = 0; i < count; ++i) {
        MixingMeasure g;
        double left = 1;
        while (left > 1e-8) {
            const double x = ga(rng), y = gb(rng), v = x / (x + y);
            g.weights.push_back(left * v);
            g.atoms.push_back(normal(rng));
            left *= 1 - v;
        }
        out.push_back(std::move(g));
    }
    return out;
}

// A random binary N × K matrix with 1–4 columns.
FeatureMatrix randomFeatures(int n, std::mt19937_64& rng)
{
    const int k = 1 + int(rng() % 4);
    FeatureMatrix z(n, k);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < k; ++j)
            z(i, j) = double(rng() % 2);
    return z;
}

Eigen::VectorXd logLikelihoods(int s)
{
    Eigen::VectorXd logF(s);
    for (int i = 0; i < s; ++i)
        logF[i] = -20 + 6 * std::sin(0.37 * i) - 0.01 * i;
    return logF;
}

} // namespace

class BenchBqStructuredCore : public QObject {
    Q_OBJECT

private slots:
    void mmdGrams_data()
    {
        QTest::addColumn<bool>("withDraws");
        QTest::newRow("S=500, GP on f") << false;
        QTest::newRow("S=500, WSABI-L") << true;
    }
    void mmdGrams()
    {
        QFETCH(bool, withDraws);
        const std::vector<MixingMeasure> samples = posteriorLike(500, 1);
        const std::vector<MixingMeasure> draws = priorDraws(1.0, kDraws, 2);
        std::vector<GramSet> grid;
        QBENCHMARK
        {
            grid = mmdMixtureGrams(samples, draws, defaultMmdWidths(), defaultMmdLengthscales(), withDraws);
        }
        QCOMPARE(grid.size(), defaultMmdWidths().size() * defaultMmdLengthscales().size());
        QVERIFY(grid.front().k.rows() == 500 && grid.front().v > 0);
    }

    void paperGrams()
    {
        const std::vector<MixingMeasure> samples = posteriorLike(500, 1);
        std::vector<GramSet> grid;
        QBENCHMARK
        {
            grid.clear();
            for (double w : defaultPaperWidths())
                grid.push_back(paperMixtureGram(samples, w));
        }
        QVERIFY(grid.front().k.rows() == 500);
    }

    void gramGrams()
    {
        std::mt19937_64 rng(4);
        std::vector<FeatureMatrix> samples;
        std::vector<WeightedGram> prior;
        for (int i = 0; i < 500; ++i)
            samples.push_back(randomFeatures(5, rng));
        for (int i = 0; i < kDraws; ++i) {
            const FeatureMatrix z = randomFeatures(5, rng);
            prior.push_back({z * z.transpose(), 1.0 / kDraws});
        }
        std::vector<GramSet> grid;
        QBENCHMARK
        {
            grid = gramFeatureGrams(samples, prior, defaultGramLengthscales(), true, false);
        }
        QVERIFY(grid.front().k.rows() == 500);
    }

    void estimate_data()
    {
        QTest::addColumn<int>("s");
        QTest::addColumn<bool>("wsabi");
        QTest::newRow("S=100, GP on f") << 100 << false;
        QTest::newRow("S=100, WSABI-L") << 100 << true;
        QTest::newRow("S=500, GP on f") << 500 << false;
        QTest::newRow("S=500, WSABI-L") << 500 << true;
    }
    void estimate()
    {
        QFETCH(int, s);
        QFETCH(bool, wsabi);
        std::vector<MixingMeasure> samples = posteriorLike(s / 2, 1);
        const std::vector<MixingMeasure> draws = priorDraws(1.0, kDraws, 2);
        samples.insert(samples.end(), draws.begin(), draws.begin() + (s - s / 2));
        const StructuredBq bq(
            mmdMixtureGrams(samples, draws, defaultMmdWidths(), defaultMmdLengthscales(), wsabi),
            wsabi ? Transform::Wsabi : Transform::None);
        const Eigen::VectorXd logF = logLikelihoods(s);
        StructuredEstimate e;
        QBENCHMARK
        {
            e = bq.estimate(logF);
        }
        QVERIFY(std::isfinite(e.mean) && e.variance >= 0);
    }
};

QTEST_MAIN(BenchBqStructuredCore)
#include "bench_bq_structured_core.moc"
