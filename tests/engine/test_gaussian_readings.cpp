// The Gaussian scenario's closed forms against hand-derived values, and the general
// numerical path (evidence/readings.h) against the closed forms.
#include "evidence/readings.h"
#include "models/linear_gaussian_model.h"
#include "scenarios/registry.h"

#include <QtTest>
#include <cmath>

using namespace evx;

namespace {

// Grids of ±12 sd at ≥ 10 points per sd of the narrowest density: the trapezoid rule is
// then exact to ~1e-12, so any difference above 1e-8 is a bug, not quadrature error.
evidence::ReadingGrids gridsFor(const models::LinearGaussianModel& m, double zeta, double sq)
{
    const models::GaussianReadings r = models::closedFormReadings(m, zeta, sq);
    const double narrow = std::min({r.exact.sd, r.virtualEvidence.sd, r.jeffrey.sd, m.priorSd()});
    const double lo = std::min(m.priorMean() - 12 * m.priorSd(), zeta - 12 * (m.noiseSd() + sq));
    const double hi = std::max(m.priorMean() + 12 * m.priorSd(), zeta + 12 * (m.noiseSd() + sq));
    const int nx = std::min(20001, int((hi - lo) / (narrow / 10)) + 1);
    const double yStep = std::min(m.noiseSd(), sq) / 4;
    const int ny = int(24 * sq / yStep) + 1;
    return {UniformGrid(m.priorMean() - 12 * m.priorSd(), m.priorMean() + 12 * m.priorSd(), 2001),
            UniformGrid(lo, hi, nx), UniformGrid(zeta - 12 * sq, zeta + 12 * sq, ny)};
}

// The same model seen only through logLikelihood, forcing the generic path.
class OpaqueModel final : public evidence::BaseModel {
public:
    explicit OpaqueModel(const models::LinearGaussianModel& m) : m_model(m) {}
    double logPrior(double x) const override { return m_model.logPrior(x); }
    double logLikelihood(double y, double x) const override { return m_model.logLikelihood(y, x); }
    evidence::ConditionalMoments observable(double x) const override { return m_model.observable(x); }

private:
    const models::LinearGaussianModel& m_model;
};

} // namespace

class TestGaussianReadings : public QObject {
    Q_OBJECT

private slots:
    void figure2LeftByHand()
    {
        // k = 4/5; Jeffrey: mean −10 + 0.8·12, variance 0.8·1 + 0.64·4;
        // virtual: precision 1/4 + 1/5; distributional: precision 1/4 + 1.
        const models::LinearGaussianModel m(-10, 2, 1);
        const auto r = models::closedFormReadings(m, 2, 2);
        QVERIFY(std::abs(r.jeffrey.mean - -0.4) < 1e-12);
        QVERIFY(std::abs(r.jeffrey.sd - std::sqrt(3.36)) < 1e-12);
        QVERIFY(std::abs(r.virtualEvidence.mean - (-2.5 + 0.4) / 0.45) < 1e-12);
        QVERIFY(std::abs(r.virtualEvidence.sd - std::sqrt(1 / 0.45)) < 1e-12);
        QVERIFY(std::abs(r.distributional.mean - (-2.5 + 2) / 1.25) < 1e-12);
        QVERIFY(std::abs(r.distributional.sd - std::sqrt(1 / 1.25)) < 1e-12);
        QCOMPARE(r.varY, 5.0);
        QCOMPARE(r.expectedVarGivenZeta, 4.0);
    }

    void numericalPathMatchesClosedForms_data()
    {
        QTest::addColumn<double>("muX");
        QTest::addColumn<double>("sigmaX");
        QTest::addColumn<double>("noise");
        QTest::addColumn<double>("sigmaQ");
        QTest::addColumn<double>("zeta");
        QTest::newRow("fig2-left") << -10.0 << 2.0 << 1.0 << 2.0 << 2.0;
        QTest::newRow("fig2-right") << 0.0 << 5.0 << 2.0 << 0.5 << 2.0;
        QTest::newRow("inconsistent") << 1.0 << 0.5 << 0.3 << 3.0 << -1.0;
        QTest::newRow("narrow noise") << 3.0 << 4.0 << 0.05 << 0.2 << 5.0;
        QTest::newRow("wide evidence") << 0.0 << 1.0 << 1.0 << 10.0 << 7.0;
    }

    void numericalPathMatchesClosedForms()
    {
        QFETCH(double, muX);
        QFETCH(double, sigmaX);
        QFETCH(double, noise);
        QFETCH(double, sigmaQ);
        QFETCH(double, zeta);
        const models::LinearGaussianModel m(muX, sigmaX, noise);
        const auto exact = models::closedFormReadings(m, zeta, sigmaQ);
        const evidence::GaussianEvidence q(zeta, sigmaQ);
        const auto num = evidence::computeReadings(m, q, zeta, gridsFor(m, zeta, sigmaQ));

        auto close = [](const GridDensity& d, const models::Normal& n) {
            return std::abs(d.mean - n.mean) < 1e-8 * std::max(1.0, std::abs(n.mean)) &&
                   std::abs(d.sd - n.sd) < 1e-8 * n.sd;
        };
        QVERIFY2(close(num.prior, exact.prior), "prior");
        QVERIFY2(close(num.exact, exact.exact), "exact evidence");
        QVERIFY2(close(num.jeffrey, exact.jeffrey), "Jeffrey's rule");
        QVERIFY2(close(num.virtualEvidence, exact.virtualEvidence), "virtual evidence");
        QVERIFY2(close(num.distributional, exact.distributional), "distributional evidence");
        QVERIFY(std::abs(num.consistency.varY - exact.varY) < 1e-8 * exact.varY);
        QCOMPARE(num.consistency.expectedVarGivenZeta, exact.expectedVarGivenZeta);

        // Pointwise: the tabulated Jeffrey density is the closed-form Normal.
        double worst = 0;
        for (size_t i = 0; i < num.jeffrey.x.size(); i += 7)
            worst = std::max(worst, std::abs(num.jeffrey.pdf[i] - exact.jeffrey.pdf(num.jeffrey.x[i])));
        QVERIFY2(worst < 1e-8 / exact.jeffrey.sd, qPrintable(QString::number(worst)));
    }

    void genericAndGaussianNoisePathsAgree()
    {
        const models::LinearGaussianModel m(-10, 2, 1);
        const OpaqueModel opaque(m);
        QVERIFY(m.hasGaussianNoise() && !opaque.hasGaussianNoise());
        const evidence::GaussianEvidence q(2, 2);
        const auto grids = gridsFor(m, 2, 2);
        const auto fast = evidence::computeReadings(m, q, 2, grids);
        const auto generic = evidence::computeReadings(opaque, q, 2, grids);
        QVERIFY(std::abs(fast.jeffrey.mean - generic.jeffrey.mean) < 1e-12);
        QVERIFY(std::abs(fast.virtualEvidence.sd - generic.virtualEvidence.sd) < 1e-12);
        QVERIFY(std::abs(fast.distributional.sd - generic.distributional.sd) < 1e-12);
    }

    void scenarioReportsClosedForms_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("fig2-left") << "fig2-left";
        QTest::newRow("fig2-right") << "fig2-right";
    }

    void scenarioReportsClosedForms()
    {
        QFETCH(QString, preset);
        const auto scenario = ScenarioRegistry::instance().find("ue-gaussian");
        QVERIFY(scenario);
        const ParameterValues v = scenario->presetValues(preset.toStdString());
        const Figure f = scenario->run(v, {});
        const models::LinearGaussianModel m(v.at("mu_x"), v.at("sigma_x"), v.at("sigma_y_given_x"));
        const auto r = models::closedFormReadings(m, v.at("zeta"), v.at("sigma_q"));
        QCOMPARE(f.summary.value("prior.mean"), r.prior.mean);
        QCOMPARE(f.summary.value("prior.sd"), r.prior.sd);
        QCOMPARE(f.summary.value("jeffrey.mean"), r.jeffrey.mean);
        QCOMPARE(f.summary.value("jeffrey.sd"), r.jeffrey.sd);
        QCOMPARE(f.summary.value("virtual.mean"), r.virtualEvidence.mean);
        QCOMPARE(f.summary.value("virtual.sd"), r.virtualEvidence.sd);
        QCOMPARE(f.summary.value("distributional.mean"), r.distributional.mean);
        QCOMPARE(f.summary.value("distributional.sd"), r.distributional.sd);
        QCOMPARE(f.summary.value("jeffrey.consistent"), 1.0);
        QVERIFY(f.warnings.empty());
        // One plot with the prior and the three posteriors, each named in the legend.
        QCOMPARE(int(f.plots.at(0).series.size()), 4);
        QCOMPARE(f.plots[0].series[1].name, std::string("Jeffrey's rule"));
    }

    void consistencyFlagFlipsAtItsBoundary_data()
    {
        // Var[y] = σ_x² + σ_y|x² = 4 + 1 = 5: consistent iff σ_q² ≤ 5.
        QTest::addColumn<double>("sigmaQ");
        QTest::addColumn<double>("consistent");
        QTest::newRow("just inside") << std::sqrt(5.0) * (1 - 1e-9) << 1.0;
        QTest::newRow("just outside") << std::sqrt(5.0) * (1 + 1e-9) << 0.0;
        QTest::newRow("far outside") << 5.0 << 0.0;
    }

    void consistencyFlagFlipsAtItsBoundary()
    {
        QFETCH(double, sigmaQ);
        QFETCH(double, consistent);
        const auto scenario = ScenarioRegistry::instance().find("ue-gaussian");
        ParameterValues v = scenario->presetValues("fig2-left");
        v["sigma_q"] = sigmaQ;
        const Figure f = scenario->run(v, {});
        QCOMPARE(f.summary.value("jeffrey.consistent"), consistent);
        QCOMPARE(f.warnings.empty(), consistent == 1.0);
    }
};

QTEST_APPLESS_MAIN(TestGaussianReadings)
#include "test_gaussian_readings.moc"
