// Theorem 1 of the BNN+LV paper in the one-node model: the family (W/C, (C − 1)x + Cz)
// reproduces the data exactly; its maximiser against the closed form (flat prior) and a brute-
// force grid (σ_w = 1); the limit C* and the interval (C_lo, 1) at large N; and the scenario's
// summary recomputed from its exported data.
#include "bnn/one_node.h"
#include "scenarios/registry.h"

#include <QtTest>

#include <cmath>

using namespace evx;
using namespace evx::bnn;

namespace {

// The maximiser of Σ log N(ẑ_n; 0, σ_z²) alone (the prior on W flat): Σ (C(x + z) − x)² is
// least at C = Σ x(x + z) / Σ (x + z)².
double flatPriorMaximiser(const OneNodeData& d)
{
    const Eigen::ArrayXd s = d.x.array() + d.z.array();
    return (d.x.array() * s).sum() / s.square().sum();
}

} // namespace

class TestBnnIdentifiability : public QObject {
    Q_OBJECT

private slots:
    void everyMemberReproducesTheData()
    {
        // The likelihood term is computed from (Ŵ, ẑ) as such: it must equal the truth's for
        // every C, so the differences along the family are p(ẑ) and p(Ŵ) alone.
        OneNodeModel m{1.7, 0.8, 0.2, 1e6};
        const OneNodeData d = simulateOneNode(m, 300, 0.4, 3);
        for (double c : {0.3, 0.6, 0.9, 1.4}) {
            double worst = 0;
            for (Eigen::Index i = 0; i < d.x.size(); ++i) {
                const double zHat = (c - 1) * d.x(i) + c * d.z(i);
                worst = std::max(worst, std::fabs(leakyRelu(m.w / c * (d.x(i) + zHat), m.slope) -
                                                  leakyRelu(m.w * (d.x(i) + d.z(i)), m.slope)));
            }
            QVERIFY2(worst < 1e-12, qPrintable(QString("C = %1: %2").arg(c).arg(worst)));
        }
    }

    void maximiserMatchesTheClosedFormUnderAFlatPrior()
    {
        OneNodeModel m{1.0, 1.0, 0.1, 1e8}; // σ_w = 1e8: log p(W/C) varies by < 1e-15 nats
        const OneNodeData d = simulateOneNode(m, 500, 0.0, 11);
        const FamilyMaximum best = familyMaximiser(m, d);
        QVERIFY(!best.atBound);
        // Brent to 40 bits: |ΔC| ≲ 1e-8 relative to the interval.
        QVERIFY2(std::fabs(best.c - flatPriorMaximiser(d)) < 1e-6,
                 qPrintable(QString("%1 vs %2").arg(best.c).arg(flatPriorMaximiser(d))));
    }

    void maximiserMatchesABruteForceGrid()
    {
        // σ_w = 1 moves the maximiser away from the closed form; a grid of step 1e-5 around it
        // finds the same C to within one step.
        OneNodeModel m{2.0, 0.7, 0.1, 1.0};
        const OneNodeData d = simulateOneNode(m, 60, 0.5, 5);
        const double c = familyMaximiser(m, d).c;
        QVERIFY(std::fabs(c - flatPriorMaximiser(d)) > 1e-3); // the prior matters here
        double bestC = 0, bestValue = -INFINITY;
        for (double t = 0.05; t <= 2; t += 1e-5)
            if (const double value = familyLogDensity(m, d, t); value > bestValue) {
                bestValue = value;
                bestC = t;
            }
        QVERIFY2(std::fabs(c - bestC) < 2e-5, qPrintable(QString("%1 vs %2").arg(c).arg(bestC)));
    }

    void constantsAreTheTheoremsOnes()
    {
        const FamilyConstants k = familyConstants(3.0, 1.0); // m2 = 3, σ_z² = 1
        QCOMPARE(k.cLo, 0.5);
        QCOMPARE(k.cStar, 0.75);
    }

    void largeSamplesPreferTheInterval()
    {
        // x ~ N(1, 1): m2 ≈ 2, σ_z = 1, so C* ≈ 2/3 and C_lo ≈ 1/3. The maximiser's sampling
        // sd at N = 200 000 is about 0.002; 0.01 is five of them.
        const OneNodeModel m{1.0, 1.0, 0.1, std::sqrt(10.0)};
        const OneNodeData d = simulateOneNode(m, 200000, 1.0, 2);
        const FamilyConstants k = familyConstants(d.x.squaredNorm() / double(d.x.size()), m.sigmaZ);
        QVERIFY(std::fabs(k.cStar - 2.0 / 3.0) < 0.01);
        const double c = familyMaximiser(m, d).c;
        QVERIFY2(std::fabs(c - k.cStar) < 0.01, qPrintable(QString("%1 vs C* %2").arg(c).arg(k.cStar)));
        const double truth = familyLogDensity(m, d, 1);
        for (double t : {k.cLo + 0.05, 0.5 * (k.cLo + 1), 0.95})
            QVERIFY2(familyLogDensity(m, d, t) > truth, qPrintable(QString("C = %1").arg(t)));
        for (double t : {k.cLo - 0.05, 1.05})
            QVERIFY2(familyLogDensity(m, d, t) < truth, qPrintable(QString("C = %1").arg(t)));
    }

    void scenarioSummaryRecomputesFromItsData()
    {
        const auto s = ScenarioRegistry::instance().find("bnn-identifiability");
        QVERIFY(s);
        ParameterValues v{{"n", 400}, {"w_prior_sd", 100}, {"seed", 4}};
        for (const auto& [k, x] : s->schema().defaults())
            v.emplace(k, x);
        const Figure f = s->runChecked({v, {}, {}}, {});
        std::map<std::string, std::vector<double>> data(f.data.begin(), f.data.end());
        QCOMPARE(int(data.at("x").size()), 400);
        QCOMPARE(int(data.at("y").size()), 400);
        OneNodeData d;
        d.x = Eigen::Map<const Eigen::VectorXd>(data.at("x").data(), 400);
        d.z = Eigen::Map<const Eigen::VectorXd>(data.at("z").data(), 400);
        // σ_w = 100 shifts the maximiser by ~W²/(σ_w² N) ≈ 3e-7 from the flat-prior closed form.
        QVERIFY(std::fabs(f.summary.value("c_map") - flatPriorMaximiser(d)) < 1e-5);
        const FamilyConstants k = familyConstants(d.x.squaredNorm() / 400, 1.0);
        QCOMPARE(f.summary.value("c_lo"), k.cLo);
        QCOMPARE(f.summary.value("c_star"), k.cStar);
        QVERIFY(f.summary.value("log_density_gain") > 0);
        QVERIFY(f.summary.value("c_map") > k.cLo && f.summary.value("c_map") < 1);
    }
};

QTEST_GUILESS_MAIN(TestBnnIdentifiability)
#include "test_bnn_identifiability.moc"
