// Two pieces of uncertain evidence on the same y (evidence/joint_table.h, ue-commutativity;
// uncertain-evidence paper, App. A): Jeffrey's rule depends on the order (the second
// overwrites the first), virtual evidence does not, against the Gaussian closed forms.
#include "evidence/joint_table.h"
#include "models/linear_gaussian_model.h"
#include "scenarios/registry.h"

#include <QtTest>
#include <cmath>

using namespace evx;

class TestCommutativity : public QObject {
    Q_OBJECT

private slots:
    void outcomes_data()
    {
        QTest::addColumn<double>("zetaA");
        QTest::addColumn<double>("sigmaA");
        QTest::addColumn<double>("zetaB");
        QTest::addColumn<double>("sigmaB");
        QTest::newRow("defaults") << -1.5 << 0.7 << 2.0 << 0.7;
        QTest::newRow("contradictory") << -3.0 << 0.4 << 3.0 << 0.4;
        QTest::newRow("agreeing, different spread") << 1.8 << 0.5 << 2.2 << 1.2;
        // After A, the mass near y = 3 is below 1e-308 of the peak: a table kept as densities
        // underflowed there and B found nothing ("updated joint vanishes").
        QTest::newRow("far apart, B sharp") << -6.0 << 2.0 << 3.0 << 0.3;
    }
    void outcomes()
    {
        QFETCH(double, zetaA);
        QFETCH(double, sigmaA);
        QFETCH(double, zetaB);
        QFETCH(double, sigmaB);
        const ParameterValues v{
            {"zeta_a", zetaA}, {"sigma_a", sigmaA}, {"zeta_b", zetaB}, {"sigma_b", sigmaB}};
        const Figure f = ScenarioRegistry::instance().find("ue-commutativity")->run(v, {});
        const models::LinearGaussianModel m(0, 2, 1); // the scenario's defaults
        const auto onlyA = models::closedFormReadings(m, zetaA, sigmaA);
        const auto onlyB = models::closedFormReadings(m, zetaB, sigmaB);
        // The grid is 301 points over ±7 sd: moments to ~1e-6 of an sd.
        const double tol = 1e-4;
        // A then B ends where B alone does, B then A where A alone does.
        QVERIFY2(
            std::abs(f.summary.value("jeffrey_a_then_b.mean") - onlyB.jeffrey.mean) < tol,
            qPrintable(
                QString("%1 vs %2").arg(f.summary.value("jeffrey_a_then_b.mean")).arg(onlyB.jeffrey.mean)));
        QVERIFY(std::abs(f.summary.value("jeffrey_a_then_b.sd") - onlyB.jeffrey.sd) < tol);
        QVERIFY(std::abs(f.summary.value("jeffrey_b_then_a.mean") - onlyA.jeffrey.mean) < tol);
        QVERIFY(std::abs(f.summary.value("jeffrey_b_then_a.sd") - onlyA.jeffrey.sd) < tol);
        QVERIFY(f.summary.value("commutativity.jeffrey_max_abs_diff") > 1e-3);
        // Virtual evidence: the product of the two likelihoods, N(y; ζ_AB, σ_AB²) up to a constant.
        const double precision = 1 / (sigmaA * sigmaA) + 1 / (sigmaB * sigmaB);
        const double zetaAB = (zetaA / (sigmaA * sigmaA) + zetaB / (sigmaB * sigmaB)) / precision;
        const auto both = models::closedFormReadings(m, zetaAB, 1 / std::sqrt(precision));
        QVERIFY(std::abs(f.summary.value("virtual.mean") - both.virtualEvidence.mean) < tol);
        QVERIFY(std::abs(f.summary.value("virtual.sd") - both.virtualEvidence.sd) < tol);
        QVERIFY(std::abs(f.summary.value("virtual_b_then_a.mean") - both.virtualEvidence.mean) < tol);
        QVERIFY(f.summary.value("commutativity.virtual_max_abs_diff") < 1e-12);
        // The mixture remedy with w = 1/2: a Jeffrey update with the mixture is the average of
        // the two single updates (Jeffrey's rule is linear in q).
        QVERIFY(std::abs(f.summary.value("mixture.mean") - 0.5 * (onlyA.jeffrey.mean + onlyB.jeffrey.mean)) <
                tol);
    }

    void jointTableUpdates()
    {
        const models::LinearGaussianModel m(0, 1, 0.5);
        const evidence::JointTable t(m, UniformGrid(-8, 8, 401), UniformGrid(-8, 8, 401));
        const evidence::GaussianEvidence q(1, 0.3);
        const evidence::JointTable j = t.jeffrey([&](double y) { return q.logDensity(y); });
        // Jeffrey's rule sets the y marginal to q.
        const std::vector<double> py = j.marginalY();
        for (int k = 0; k < 401; k += 20)
            QVERIFY(std::abs(py[k] - std::exp(q.logDensity(-8 + 0.04 * k))) < 1e-9);
        // Applying the same Jeffrey update twice changes nothing more.
        const evidence::JointTable jj = j.jeffrey([&](double y) { return q.logDensity(y); });
        const auto a = j.marginalX(), b = jj.marginalX();
        for (size_t i = 0; i < a.size(); ++i)
            QVERIFY(std::abs(a[i] - b[i]) < 1e-12);
    }
};

QTEST_APPLESS_MAIN(TestCommutativity)
#include "test_commutativity.moc"
