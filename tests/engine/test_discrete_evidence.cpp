// Uncertain evidence on a discrete observable (evidence/discrete_readings.h, ue-discrete):
// hand-computed posteriors, eq. 3 written out directly, the λ ∝ q / p(y) equivalence, the
// consistency condition and the scenario's contract keys.
#include "core/errors.h"
#include "evidence/discrete_readings.h"
#include "scenarios/registry.h"

#include <QtTest>
#include <cmath>
#include <random>

using namespace evx;

namespace {

models::DiscreteModel defaultModel()
{
    Eigen::VectorXd prior(2);
    prior << 0.8, 0.2;
    Eigen::MatrixXd rows(2, 3);
    rows << 0.7, 0.2, 0.1, 0.1, 0.3, 0.6;
    return {prior, rows};
}

models::DiscreteModel randomModel(std::mt19937_64& rng, int nx, int ny)
{
    std::uniform_real_distribution<double> u(0.01, 1);
    Eigen::VectorXd prior(nx);
    Eigen::MatrixXd rows(nx, ny);
    for (int i = 0; i < nx; ++i) {
        prior[i] = u(rng);
        for (int k = 0; k < ny; ++k)
            rows(i, k) = u(rng);
    }
    return {prior, rows};
}

// Eq. 3 as printed: p(x | ζ) = Σ_k λ_k p(x, y_k) / Σ_j λ_j p(y_j), with plain loops over the
// un-normalised inputs (so the model's own normalisation is checked too).
std::vector<double> eq3(const std::vector<double>& priorW, const std::vector<std::vector<double>>& rowsW,
                        const std::vector<double>& lambda)
{
    const size_t nx = priorW.size(), ny = lambda.size();
    double priorSum = 0;
    for (double p : priorW)
        priorSum += p;
    std::vector<double> num(nx, 0);
    double den = 0;
    for (size_t i = 0; i < nx; ++i) {
        double rowSum = 0;
        for (double l : rowsW[i])
            rowSum += l;
        for (size_t k = 0; k < ny; ++k) {
            const double joint = priorW[i] / priorSum * rowsW[i][k] / rowSum;
            num[i] += lambda[k] * joint;
            den += lambda[k] * joint;
        }
    }
    for (double& n : num)
        n /= den;
    return num;
}

Figure runScenario(const ParameterValues& v)
{
    return ScenarioRegistry::instance().find("ue-discrete")->run(v, {});
}

} // namespace

class TestDiscreteEvidence : public QObject {
    Q_OBJECT

private slots:
    void byHand()
    {
        // joint: x1 (0.56, 0.16, 0.08), x2 (0.02, 0.06, 0.12); p(y) = (0.58, 0.22, 0.20).
        const models::DiscreteModel m = defaultModel();
        Eigen::VectorXd e(3);
        e << 0.1, 0.2, 0.7;
        const auto ve = evidence::discreteVirtualEvidence(m, e);
        // VE: (0.1·0.56 + 0.2·0.16 + 0.7·0.08) / (0.1·0.58 + 0.2·0.22 + 0.7·0.2) = 0.144 / 0.242.
        QVERIFY(std::abs(ve.posteriorX[0] - 0.144 / 0.242) < 1e-14);
        QVERIFY(std::abs(ve.marginalY[2] - 0.14 / 0.242) < 1e-14);
        const auto jr = evidence::discreteJeffrey(m, e);
        // JR: 0.1·(0.56/0.58) + 0.2·(0.16/0.22) + 0.7·(0.08/0.20).
        QVERIFY(std::abs(jr.posteriorX[0] - (0.1 * 0.56 / 0.58 + 0.2 * 0.16 / 0.22 + 0.7 * 0.4)) < 1e-14);
        QVERIFY(std::abs(jr.marginalY[1] - 0.2) < 1e-15);
        // Consistency: 1 − Σ p(y)² = 1 − (0.3364 + 0.0484 + 0.04), against 1 − (0.01 + 0.04 + 0.49).
        const auto c = evidence::discreteConsistency(m, e);
        QVERIFY(std::abs(c.varY - 0.5752) < 1e-14);
        QVERIFY(std::abs(c.expectedVarGivenZeta - 0.46) < 1e-14);
        QVERIFY(c.consistent());
        Eigen::VectorXd flat(3);
        flat << 1, 1, 1;
        QVERIFY(!evidence::discreteConsistency(m, flat).consistent()); // 2/3 > 0.5752
    }

    void virtualMatchesEq3_data()
    {
        QTest::addColumn<int>("nx");
        QTest::addColumn<int>("ny");
        QTest::addColumn<int>("seed");
        for (int nx = 2; nx <= 4; ++nx)
            for (int ny = 2; ny <= 4; ++ny)
                QTest::newRow(qPrintable(QString("%1x%2").arg(nx).arg(ny))) << nx << ny << nx * 10 + ny;
    }
    void virtualMatchesEq3()
    {
        QFETCH(int, nx);
        QFETCH(int, ny);
        QFETCH(int, seed);
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> u(0.01, 1);
        std::vector<double> priorW(nx), lambda(ny);
        std::vector<std::vector<double>> rowsW(nx, std::vector<double>(ny));
        Eigen::VectorXd p(nx), l(ny);
        Eigen::MatrixXd r(nx, ny);
        for (int i = 0; i < nx; ++i) {
            p[i] = priorW[i] = u(rng);
            for (int k = 0; k < ny; ++k)
                r(i, k) = rowsW[i][k] = u(rng);
        }
        for (int k = 0; k < ny; ++k)
            l[k] = lambda[k] = 5 * u(rng);
        const auto ve = evidence::discreteVirtualEvidence({p, r}, l);
        const std::vector<double> expected = eq3(priorW, rowsW, lambda);
        for (int i = 0; i < nx; ++i)
            QVERIFY(std::abs(ve.posteriorX[i] - expected[i]) < 1e-14);
        QVERIFY(std::abs(ve.posteriorX.sum() - 1) < 1e-14);
        // λ only matters up to a factor.
        const auto scaled = evidence::discreteVirtualEvidence({p, r}, 3.7 * l);
        QVERIFY((scaled.posteriorX - ve.posteriorX).cwiseAbs().maxCoeff() < 1e-14);
    }

    // JR with q equals VE with λ ∝ q / p(y), and VE with λ equals JR with q ∝ λ p(y).
    void lambdaEquivalence_data() { virtualMatchesEq3_data(); }
    void lambdaEquivalence()
    {
        QFETCH(int, nx);
        QFETCH(int, ny);
        QFETCH(int, seed);
        std::mt19937_64 rng(seed + 1000);
        const models::DiscreteModel m = randomModel(rng, nx, ny);
        std::uniform_real_distribution<double> u(0.01, 1);
        Eigen::VectorXd q(ny);
        for (int k = 0; k < ny; ++k)
            q[k] = u(rng);
        q /= q.sum();
        const auto jr = evidence::discreteJeffrey(m, q);
        const Eigen::VectorXd lambda = evidence::equivalentLambda(m, q);
        QCOMPARE(lambda.maxCoeff(), 1.0);
        for (int k = 0; k < ny; ++k) // ∝ q / p(y)
            QVERIFY(std::abs(lambda[k] / lambda[0] - (q[k] / m.marginalY()[k]) / (q[0] / m.marginalY()[0])) <
                    1e-12);
        const auto ve = evidence::discreteVirtualEvidence(m, lambda);
        QVERIFY((jr.posteriorX - ve.posteriorX).cwiseAbs().maxCoeff() < 1e-14);
        QVERIFY((ve.marginalY - q).cwiseAbs().maxCoeff() < 1e-14);     // VE then moves p(y) to q exactly
        const Eigen::VectorXd back = evidence::equivalentTarget(m, q); // q read as λ
        const auto jrBack = evidence::discreteJeffrey(m, back);
        const auto veOfQ = evidence::discreteVirtualEvidence(m, q);
        QVERIFY((jrBack.posteriorX - veOfQ.posteriorX).cwiseAbs().maxCoeff() < 1e-14);
        // …and the two readings of the same numbers differ (unless p(y) is uniform).
        QVERIFY((jr.posteriorX - veOfQ.posteriorX).cwiseAbs().maxCoeff() > 1e-6);
    }

    void refusesImpossibleInput()
    {
        Eigen::VectorXd prior(2);
        prior << 0.5, 0.5;
        Eigen::MatrixXd rows(2, 2);
        rows << 1, 0, 0, 0; // x2's row sums to 0
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, models::DiscreteModel(prior, rows));
        rows << 1, 0, 1, 0; // y2 impossible under the model
        const models::DiscreteModel m(prior, rows);
        Eigen::VectorXd q(2);
        q << 0.5, 0.5;
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, evidence::discreteJeffrey(m, q));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, evidence::equivalentLambda(m, q));
        q << 0, 1; // λ puts all weight on the impossible y
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, evidence::discreteVirtualEvidence(m, q));
        prior << 0, 0;
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, models::DiscreteModel(prior, rows));
    }

    void scenarioReportsTheContractKeys()
    {
        const auto s = ScenarioRegistry::instance().find("ue-discrete");
        QVERIFY(s);
        const Figure f = runScenario(s->schema().defaults());
        QVERIFY(std::abs(f.summary.value("virtual.p_x1") - 0.144 / 0.242) < 1e-12);
        QVERIFY(std::abs(f.summary.value("jeffrey.p_x1") - (0.1 * 0.56 / 0.58 + 0.2 * 0.16 / 0.22 + 0.28)) <
                1e-12);
        QVERIFY(f.summary.value("equivalence.max_abs_diff") < 1e-14);
        // λ_k ∝ q_k / p(y_k) with q = (0.1, 0.2, 0.7), p(y) = (0.58, 0.22, 0.2), scaled to max 1.
        QVERIFY(std::abs(f.summary.value("equivalence.lambda_1") - (0.1 / 0.58) / (0.7 / 0.2)) < 1e-12);
        QCOMPARE(f.summary.value("jeffrey.consistent"), 1.0);
        QVERIFY(std::abs(f.summary.value("jeffrey.var_y") - 0.5752) < 1e-12);
        QVERIFY(f.warnings.empty());
        QCOMPARE(int(f.plots.size()), 2);
        QCOMPARE(f.plots[0].series.size(), size_t(4)); // prior, JR, VE, the line at 1
        ParameterValues v = s->presetValues("inconsistent");
        const Figure g = runScenario(v);
        QCOMPARE(g.summary.value("jeffrey.consistent"), 0.0);
        QCOMPARE(int(g.warnings.size()), 1);
        v["show_equivalent_lambda"] = 1;
        const Figure h = runScenario(v);
        QCOMPARE(h.plots[0].series.size(), size_t(5));
        QCOMPARE(int(h.tables.size()), 1);
        // The equivalent VE series reproduces the JR bars exactly.
        for (size_t i = 0; i < h.plots[0].series[1].y.size(); ++i)
            QVERIFY(std::abs(h.plots[0].series[1].y[i] - h.plots[0].series[3].y[i]) < 1e-14);
    }

    void scenarioRejectsAZeroRow()
    {
        ParameterValues v = ScenarioRegistry::instance().find("ue-discrete")->schema().defaults();
        v["lik_x2_y1"] = v["lik_x2_y2"] = v["lik_x2_y3"] = 0;
        try {
            runScenario(v);
            QFAIL("a zero likelihood row was accepted");
        } catch (const InvalidParameter& e) {
            QVERIFY(QString(e.what()).contains("x_2"));
        }
    }
};

QTEST_APPLESS_MAIN(TestDiscreteEvidence)
#include "test_discrete_evidence.moc"
