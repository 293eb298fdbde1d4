// BQ over structured domains (issue 39): the exact DP-mixture evidence by the subset recursion at
// n = 14 (target ≤ 50 ms, release), the same over a 41-point λ grid (target well under 1 s), the
// Student-t evidence at n = 10 and 14 and over 20 dof values at n = 10, and log p(x | G) for S = 1000
// measures at one λ. Run directly for figures: build/tests/bench/bench_bq_structured
#include "bq/structured/dp_exact.h"
#include "bq/structured/dp_mixture.h"
#include "bq/structured/dp_prior.h"
#include "bq/structured/ibp_enumeration.h"
#include "bq/structured/ibp_gibbs.h"

#include <QCoreApplication>
#include <QtTest>

using namespace evx;
using namespace evx::bq::structured;

class BenchBqStructured : public QObject {
    Q_OBJECT

private slots:
    void dpExactEvidence_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("n=10") << 10;
        QTest::newRow("n=12") << 12;
        QTest::newRow("n=14") << 14;
    }
    void dpExactEvidence()
    {
        QFETCH(int, n);
        const std::vector<double> x = simulateDpData(n, 1);
        const DpSettings s;
        double v = 0;
        QBENCHMARK
        {
            v += dpExactLogEvidence(x, s);
        }
        QVERIFY(std::isfinite(v));
    }

    void dpExactEvidenceOverBaseMeans()
    {
        const std::vector<double> x = simulateDpData(14, 1);
        std::vector<double> grid;
        for (int g = 0; g <= 40; ++g)
            grid.push_back(-4 + 0.2 * g);
        std::vector<double> curve;
        QBENCHMARK
        {
            curve = dpExactLogEvidenceOverBaseMeans(x, DpSettings{}, grid);
        }
        QCOMPARE(int(curve.size()), 41);
    }

    void dpStudentTEvidence_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("n=10") << 10;
        QTest::newRow("n=14") << 14;
    }
    void dpStudentTEvidence()
    {
        QFETCH(int, n);
        const std::vector<double> x = simulateDpData(n, 1);
        DpSettings s;
        s.components = DpComponents::StudentT;
        s.dof = 4;
        double v = 0;
        QBENCHMARK
        {
            v += dpExactLogEvidence(x, s);
        }
        QVERIFY(std::isfinite(v));
    }

    void dpStudentTOverDofs()
    {
        // The scenario's dof curve: 20 values at n = 10.
        const std::vector<double> x = simulateDpData(10, 1);
        std::vector<double> dofs;
        for (int g = 0; g < 20; ++g)
            dofs.push_back(1 + 1.5 * g);
        std::vector<double> curve;
        QBENCHMARK_ONCE
        {
            curve = dpExactLogEvidenceOverDofs(x, DpSettings{}, dofs);
        }
        QCOMPARE(int(curve.size()), 20);
    }

    void dpLikelihoodOfMeasures()
    {
        const std::vector<double> x = simulateDpData(14, 1);
        const auto draws = drawDpPriorMeasures(1.0, 1000, 3);
        std::vector<double> logF;
        QBENCHMARK
        {
            logF = dpLogLikelihoods(x, draws, DpSettings{});
        }
        QCOMPARE(int(logF.size()), 1000);
    }

    // bq-ibp (helper h2): one collapsed Gibbs sweep at N = 25, D = 36 after burn-in (target ≤ 1 ms),
    // and the exact evidence over the N = 5 enumeration at one (σ_X, σ_A).
    void ibpGibbsSweep()
    {
        const IbpToyData d = makeIbpToyData(25, 1);
        IbpGibbs chain(d.x, 0.5, 1.0, 1.0, 1);
        for (int i = 0; i < 50; ++i)
            chain.sweep();
        QBENCHMARK
        {
            chain.sweep();
        }
        QVERIFY(chain.features() >= 0);
    }

    void ibpExactEvidenceAtOnePoint()
    {
        const IbpEnumeration en(5, 1.0, 1e-6, 50000);
        const IbpExactEvidence ev(en, makeIbpToyData(5, 1).x);
        double v = 0;
        QBENCHMARK
        {
            v += ev.logEvidence(0.5, 1.0);
        }
        QVERIFY(std::isfinite(v));
    }
};

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    BenchBqStructured bench;
    QStringList args = app.arguments();
    if (qEnvironmentVariableIsSet("EVX_BENCH_SMOKE"))
        args << "-iterations"
             << "1";
    return QTest::qExec(&bench, args);
}

#include "bench_bq_structured.moc"
