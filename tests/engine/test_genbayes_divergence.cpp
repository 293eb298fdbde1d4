// f-divergences and the Jensen–Shannon distance of the generalised-Bayes paper, against the
// closed-form check values of METHODS.md §4 and hand-computed cases.
#include "genbayes/divergence.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace evx::genbayes;

namespace {

double logNegBin(int k, double size, double p)
{
    return std::lgamma(k + size) - std::lgamma(size) - std::lgamma(k + 1.0) + size * std::log(p) +
           k * std::log1p(-p);
}

double logPoisson(int k, double rate)
{
    return -rate + k * std::log(rate) - std::lgamma(k + 1.0);
}

double logNormal(double x, double mean, double sd)
{
    const double z = (x - mean) / sd;
    return -0.5 * z * z - std::log(sd * std::sqrt(2 * std::numbers::pi));
}

double logLaplace(double x, double loc, double scale)
{
    return -std::fabs(x - loc) / scale - std::log(2 * scale);
}

} // namespace

class TestGenbayesDivergence : public QObject {
    Q_OBJECT

private slots:
    void idsRoundTrip()
    {
        QCOMPARE(divergenceIds().size(), std::size_t(8));
        QCOMPARE(QString::fromStdString(divergenceIds()[2]), QString("alpha-0.5"));
        for (Divergence d : kAllDivergences)
            QVERIFY(divergenceFromId(divergenceId(d)) == d);
        QVERIFY(!divergenceFromId("alpha-0.4"));
    }

    void fVanishesAtRatioOneAndClips()
    {
        for (Divergence d : kAllDivergences)
            QCOMPARE(fOfLogRatio(d, 0.0) + 1, 1.0);
        // log r is clipped to [−5, 3], TVD to [−5, 0]: r > 1 counts as r = 1 for TVD.
        QCOMPARE(clippedF(Divergence::Kl, -10), 5.0);
        QCOMPARE(clippedF(Divergence::Kl, 10), -3.0);
        QCOMPARE(clippedF(Divergence::Tvd, 2), 0.0);
        QCOMPARE(clippedF(Divergence::Tvd, -10), 0.5 * (1 - std::exp(-5)));
        QCOMPARE(clippedF(Divergence::Hellinger, 1), 1 - std::exp(0.5));
        // α = 0.5 is four times the squared Hellinger f.
        QCOMPARE(fOfLogRatio(Divergence::Alpha05, 0.7), 4 * fOfLogRatio(Divergence::Hellinger, 0.7));
    }

    void negBinAgainstPoissonMatchesTheCheckValues_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("expected");
        // METHODS §4, g = NB(size 10, p 0.8) (mean 2.5), p = Poisson(3); given to 6 decimals.
        QTest::newRow("kl") << "kl" << 0.057224;
        QTest::newRow("hellinger") << "hellinger" << 0.013605;
        QTest::newRow("tvd") << "tvd" << 0.135632;
        QTest::newRow("alpha-0.5") << "alpha-0.5" << 0.054421;
    }

    void negBinAgainstPoissonMatchesTheCheckValues()
    {
        QFETCH(QString, id);
        QFETCH(double, expected);
        const double d = discreteDivergence(
            *divergenceFromId(id.toStdString()), [](int k) { return logPoisson(k, 3); },
            [](int k) { return logNegBin(k, 10, 0.8); });
        QVERIFY2(std::fabs(d - expected) < 5e-7,
                 qPrintable(QString("%1: %2 vs %3").arg(id).arg(d, 0, 'g', 10).arg(expected)));
    }

    void laplaceAgainstNormalMatchesTheCheckValues_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("expected");
        // g = Laplace(1, 1), p = N(1, 1).
        QTest::newRow("kl") << "kl" << 0.225791;
        QTest::newRow("hellinger") << "hellinger" << 0.025218;
        QTest::newRow("tvd") << "tvd" << 0.117474;
    }

    void laplaceAgainstNormalMatchesTheCheckValues()
    {
        QFETCH(QString, id);
        QFETCH(double, expected);
        const double d = continuousDivergence(
            *divergenceFromId(id.toStdString()), [](double x) { return logNormal(x, 1, 1); },
            [](double x) { return logLaplace(x, 1, 1); }, -49, 51, {1});
        QVERIFY2(std::fabs(d - expected) < 5e-7,
                 qPrintable(QString("%1: %2 vs %3").arg(id).arg(d, 0, 'g', 10).arg(expected)));
        // KL in closed form: E_g[log g − log p] = −log 2 − 1 + ½ log 2π + ½ E(x−1)² with E(x−1)² = 2.
        if (id == "kl")
            QVERIFY(std::fabs(d - (-std::log(2.0) - 1 + 0.5 * std::log(2 * std::numbers::pi) + 1)) < 1e-10);
    }

    void jensenShannonDistance()
    {
        const std::vector<double> p{1, 2, 3, 4};
        QCOMPARE(evx::genbayes::jensenShannonDistance(p, {2, 4, 6, 8}) + 1, 1.0); // scale does not matter
        QCOMPARE(evx::genbayes::jensenShannonDistance({1, 0}, {0, 3}), std::sqrt(std::log(2.0)));
        // P = (1, 0), Q = (½, ½), M = (¾, ¼): √(½ (log 4/3 + ½ log ⅔ + ½ log 2)) by hand.
        QVERIFY(std::fabs(evx::genbayes::jensenShannonDistance({1, 0}, {1, 1}) - 0.46450140402) < 1e-9);
        QVERIFY(evx::genbayes::jensenShannonDistance({1, 0}, {1, 1}) ==
                evx::genbayes::jensenShannonDistance({1, 1}, {1, 0}));
    }
};

QTEST_GUILESS_MAIN(TestGenbayesDivergence)
#include "test_genbayes_divergence.moc"
