// Latency of the WVO scenarios (issue 5): the eight-schools reconstruction (grid sampling,
// virtual schools, weight optimisation) should take under 200 ms, the rats reconstruction
// under 1 s; the full runs add the leave-one-out and subsampling studies.
// Run directly for figures: build/tests/bench/bench_wvo
#include "scenarios/registry.h"

#include <QtTest>

using namespace evx;

class BenchWvo : public QObject {
    Q_OBJECT

private slots:
    void run_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("preset");
        QTest::newRow("eight-schools reconstruction") << "wvo-eight-schools"
                                                      << "reconstruction-only";
        QTest::newRow("eight-schools with leave-one-out") << "wvo-eight-schools"
                                                          << "fig4";
        QTest::newRow("rats reconstruction") << "wvo-rats"
                                             << "reconstruction-only";
        QTest::newRow("rats with leave-one-out and subsampling") << "wvo-rats"
                                                                 << "fig6";
        QTest::newRow("beta-bernoulli") << "wvo-beta-bernoulli"
                                        << "fig1";
        QTest::newRow("normal") << "wvo-normal"
                                << "fig2";
        QTest::newRow("normal-hyper") << "wvo-normal-hyper"
                                      << "fig3";
    }
    void run()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, preset);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        QVERIFY(s);
        const ParameterValues v = s->presetValues(preset.toStdString());
        Figure f;
        QBENCHMARK
        {
            f = s->run(v, {});
        }
        QVERIFY(f.summary.contains("kl.reconstruction"));
    }

    // The attainment case study times its own two sampler runs (full: all 3435 pupils;
    // incremental: 540 weighted virtual pupils + one school) with identical sampler settings;
    // this prints them and their ratio, and benchmarks the whole scenario run; shared-design
    // collapses the virtual schools (models::SharedDesignSchools).
    void attainment_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("paper") << "paper";
        QTest::newRow("shared-design") << "shared-design";
    }
    void attainment()
    {
        QFETCH(QString, preset);
        const auto s = ScenarioRegistry::instance().find("wvo-attainment");
        QVERIFY(s);
        RunInput in;
        in.values = s->presetValues(preset.toStdString());
        in.dataPath = EVX_SOURCE_DIR "/../shared/data/scots_sec.csv";
        Figure f;
        QBENCHMARK
        {
            f = s->runWith(in, {});
            qInfo(
                "attainment %s: full %.0f ms, incremental %.0f ms, speed-up %.2f, WVO construction %.0f ms, "
                "compression %.2f, KL reconstruction %.3f",
                qPrintable(preset), f.summary.value("time.full_ms"), f.summary.value("time.incremental_ms"),
                f.summary.value("time.speedup"), f.summary.value("time.wvo_construction_ms"),
                f.summary.value("compression.ratio"), f.summary.value("kl.reconstruction"));
        }
        QVERIFY(f.summary.contains("time.speedup"));
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    BenchWvo bench;
    QStringList args = app.arguments();
    if (qEnvironmentVariableIsSet("EVX_BENCH_SMOKE"))
        args << "-iterations"
             << "1";
    return QTest::qExec(&bench, args);
}

#include "bench_wvo.moc"
