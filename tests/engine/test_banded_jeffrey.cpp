// The banded Jeffrey's-rule sum (evidence/banded_jeffrey.h) against the full n_x·n_y double sum
// on the same grids (the generic path of computeReadings, reached through a model that hides its
// Gaussian noise), and the closed-form virtual and distributional readings against the generic
// path's quadrature over y. Cases include the drop-of-a-ball corner the band was written for
// (σ_model = 0.001 s, σ_obs = 0.1 s: 4001 × 2775 grids, columns far in the prior's tail) and a
// decreasing mean, whose rows the band walks in reverse.
#include "evidence/banded_jeffrey.h"
#include "evidence/readings.h"
#include "models/drop_ball_model.h"

#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace evx;

namespace {

class OpaqueModel final : public evidence::BaseModel {
public:
    explicit OpaqueModel(const evidence::BaseModel& m) : m_model(m) {}
    double logPrior(double x) const override { return m_model.logPrior(x); }
    double logLikelihood(double y, double x) const override { return m_model.logLikelihood(y, x); }
    evidence::ConditionalMoments observable(double x) const override { return m_model.observable(x); }

private:
    const evidence::BaseModel& m_model;
};

// The largest difference between two densities on one grid, relative to the larger peak.
double worstRelative(const GridDensity& a, const GridDensity& b)
{
    double peak = 0, worst = 0;
    for (size_t i = 0; i < a.pdf.size(); ++i) {
        peak = std::max({peak, a.pdf[i], b.pdf[i]});
        worst = std::max(worst, std::abs(a.pdf[i] - b.pdf[i]));
    }
    return worst / peak;
}

} // namespace

class TestBandedJeffrey : public QObject {
    Q_OBJECT

private slots:
    void matchesTheFullSum_data()
    {
        QTest::addColumn<double>("height");
        QTest::addColumn<double>("tObs");
        QTest::addColumn<double>("sigmaModel");
        QTest::addColumn<double>("sigmaObs");
        QTest::addColumn<double>("gLo");
        QTest::addColumn<double>("gHi");
        QTest::addColumn<int>("nx");
        QTest::addColumn<int>("ny");
        // Whether the y grid holds q (t̂ − 10 σ_obs > 0.1 t̂): otherwise the full sum's
        // distributional reading averages ln p(t | g) over a truncated q, and only the closed
        // form is right (test_drop_ball checks it against Gauss–Kronrod there).
        QTest::addColumn<bool>("qOnGrid");
        // Grids like the scenario's for these settings (drop_ball_scenario.cpp, makeGrids).
        QTest::newRow("fig4") << 1.0 << 0.43 << 0.005 << 0.025 << 7.0 << 16.63 << 401 << 201 << true;
        QTest::newRow("sharp model, vague stopwatch")
            << 1.0 << 0.43 << 0.001 << 0.1 << 2.0 << 70.0 << 4001 << 2775 << false;
        QTest::newRow("sharp model, early reading")
            << 1.0 << 0.35 << 0.001 << 0.1 << 2.0 << 70.0 << 4001 << 2255 << false;
        // A latent grid far narrower than the timings reach: most columns sit against an edge.
        QTest::newRow("grid narrower than the evidence")
            << 1.0 << 0.43 << 0.002 << 0.05 << 9.0 << 11.0 << 801 << 1001 << true;
    }

    void matchesTheFullSum()
    {
        QFETCH(double, height);
        QFETCH(double, tObs);
        QFETCH(double, sigmaModel);
        QFETCH(double, sigmaObs);
        QFETCH(double, gLo);
        QFETCH(double, gHi);
        QFETCH(int, nx);
        QFETCH(int, ny);
        QFETCH(bool, qOnGrid);
        const models::DropBallModel model(height, sigmaModel, 10, 1);
        const OpaqueModel opaque(model);
        const evidence::GaussianEvidence q(tObs, sigmaObs);
        const double tLo = std::max(tObs - 10 * sigmaObs, 0.1 * tObs);
        const evidence::ReadingGrids grids{UniformGrid(2, 20, 801), UniformGrid(gLo, gHi, nx),
                                           UniformGrid(tLo, tObs + 10 * sigmaObs, ny)};
        const evidence::Readings fast = evidence::computeReadings(model, q, tObs, grids);
        const evidence::Readings full = evidence::computeReadings(opaque, q, tObs, grids);

        // The band leaves out terms below e^-50 of each column's top: the difference is rounding.
        const double jeffrey = worstRelative(fast.jeffrey, full.jeffrey);
        QVERIFY2(jeffrey < 1e-12,
                 qPrintable(QString("Jeffrey density differs by %1 of its peak").arg(jeffrey)));
        QCOMPARE_LE(std::abs(fast.jeffrey.mean - full.jeffrey.mean), 1e-12 * full.jeffrey.mean);
        QCOMPARE_LE(std::abs(fast.jeffrey.sd - full.jeffrey.sd), 1e-10 * full.jeffrey.sd);
        // Closed-form Gaussian integrals over y against the trapezoid rule on the y grid, which
        // resolves the model error at 2 points per sd: they agree to rounding.
        const double ve = worstRelative(fast.virtualEvidence, full.virtualEvidence);
        QVERIFY2(ve < 1e-10, qPrintable(QString("virtual density differs by %1 of its peak").arg(ve)));
        QCOMPARE_LE(std::abs(fast.virtualEvidence.mean - full.virtualEvidence.mean),
                    1e-12 * full.virtualEvidence.mean);
        if (!qOnGrid)
            return;
        const double de = worstRelative(fast.distributional, full.distributional);
        QVERIFY2(de < 1e-10, qPrintable(QString("distributional density differs by %1 of its peak").arg(de)));
        QCOMPARE_LE(std::abs(fast.distributional.sd - full.distributional.sd), 1e-9 * full.distributional.sd);
    }

    void decreasingAndIncreasingMeansAgree()
    {
        // The band works on μ increasing; a mean that falls with x is walked reversed. Mirroring
        // the model (x → −x) must mirror the Jeffrey density exactly.
        const models::DropBallModel model(1, 0.002, 10, 1);
        struct Mirrored final : evidence::BaseModel {
            const models::DropBallModel& m;
            explicit Mirrored(const models::DropBallModel& model) : m(model) {}
            double logPrior(double x) const override { return m.logPrior(-x); }
            double logLikelihood(double y, double x) const override { return m.logLikelihood(y, -x); }
            evidence::ConditionalMoments observable(double x) const override { return m.observable(-x); }
            bool hasGaussianNoise() const override { return true; }
        } mirrored(model);
        const evidence::GaussianEvidence q(0.43, 0.03);
        const UniformGrid t(0.13, 0.73, 601);
        const evidence::Readings a =
            evidence::computeReadings(model, q, 0.43, {UniformGrid(4, 16, 401), UniformGrid(6, 20, 1401), t});
        const evidence::Readings b = evidence::computeReadings(
            mirrored, q, 0.43, {UniformGrid(-16, -4, 401), UniformGrid(-20, -6, 1401), t});
        double worst = 0;
        for (size_t i = 0; i < a.jeffrey.pdf.size(); ++i)
            worst = std::max(worst, std::abs(a.jeffrey.pdf[i] - b.jeffrey.pdf[a.jeffrey.pdf.size() - 1 - i]));
        QVERIFY2(worst < 1e-12 * *std::max_element(a.jeffrey.pdf.begin(), a.jeffrey.pdf.end()),
                 qPrintable(QString("mirrored Jeffrey densities differ by %1").arg(worst)));
        QCOMPARE_LE(std::abs(a.jeffrey.mean + b.jeffrey.mean), 1e-12 * a.jeffrey.mean);
    }

    void nonMonotoneMeanIsRefused()
    {
        const evidence::GaussianNoiseRows rows{{0, 0, 0, 0}, {0, 1, 0.5, 2}, {1, 1, 1, 1}};
        const UniformGrid x(0, 1, 4), y(-3, 3, 7);
        const std::vector<double> q(7, 1.0 / 7);
        QVERIFY(!evidence::bandedJeffrey(rows, x, y, q, {}).has_value());
        const evidence::GaussianNoiseRows sorted{{0, 0, 0, 0}, {0, 0.5, 1, 2}, {1, 1, 1, 1}};
        QVERIFY(evidence::bandedJeffrey(sorted, x, y, q, {}).has_value());
    }
};

QTEST_APPLESS_MAIN(TestBandedJeffrey)
#include "test_banded_jeffrey.moc"
