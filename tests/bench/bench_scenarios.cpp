// Latency of the pieces of one update: a scenario run, and drawing its figure.
#include "plot/plot_view.h"
#include "scenario_inputs.h"
#include "scenarios/registry.h"

#include <QtTest>

using namespace evx;

class BenchScenarios : public QObject {
    Q_OBJECT

    static void scenarioRows()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("preset");
        for (const auto& s : ScenarioRegistry::instance().all()) {
            const QString id = QString::fromStdString(s->info().id);
            QTest::newRow(qPrintable(id)) << id << QString();
            // CTest's smoke run (EVX_BENCH_SMOKE) proves the benchmark works on the defaults;
            // every preset already runs in test_engine_boundaries and test_command_line.
            if (qEnvironmentVariableIsSet("EVX_BENCH_SMOKE"))
                continue;
            for (const Preset& p : s->presets())
                QTest::newRow(qPrintable(id + "/" + QString::fromStdString(p.name)))
                    << id << QString::fromStdString(p.name);
        }
    }

    static ParameterValues valuesFor(const Scenario& s, const QString& preset)
    {
        return preset.isEmpty() ? s.schema().defaults() : s.presetValues(preset.toStdString());
    }

private slots:
    void run_data() { scenarioRows(); }
    void run()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, preset);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        const RunInput input = testing::exampleInput(*s, valuesFor(*s, preset));
        Figure f;
        QBENCHMARK
        {
            f = s->runWith(input, {});
        }
        QVERIFY(!f.plots.empty());
    }

    void render_data() { scenarioRows(); }
    void render()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, preset);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        const Figure f = s->runWith(testing::exampleInput(*s, valuesFor(*s, preset)), {});
        PlotView view;
        view.resize(1200, 800);
        view.show();
        QBENCHMARK
        {
            view.setFigure(f);
            view.renderNow();
        }
        QVERIFY(view.lastRenderMs() >= 0);
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    BenchScenarios bench;
    QStringList args = app.arguments();
    if (qEnvironmentVariableIsSet("EVX_BENCH_SMOKE"))
        args << "-iterations"
             << "1";
    return QTest::qExec(&bench, args);
}

#include "bench_scenarios.moc"
