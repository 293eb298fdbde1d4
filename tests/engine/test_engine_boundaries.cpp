// Project-wide rules of the engine: it includes no Qt header, every registered scenario
// honours the contract (stable ids, presets that run, cancellation, clear errors).
#include "core/errors.h"
#include "scenario_inputs.h"
#include "scenarios/registry.h"

#include <QtTest>
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

using namespace evx;

// Every axis says what it shows, or, in a grid (a corner plot), another plot of its column
// (x) or row (y) does, as the outer edge of a printed grid labels the axes it shares.
bool labelled(const Figure& f, const Plot& p)
{
    auto any = [&](auto sameLine, auto label) {
        return std::any_of(f.plots.begin(), f.plots.end(),
                           [&](const Plot& q) { return q.row >= 0 && sameLine(q) && !label(q).empty(); });
    };
    const bool x =
        !p.xLabel.empty() || (p.row >= 0 && any([&](const Plot& q) { return q.column == p.column; },
                                                [](const Plot& q) { return q.xLabel; }));
    const bool y = !p.yLabel.empty() || (p.row >= 0 && any([&](const Plot& q) { return q.row == p.row; },
                                                           [](const Plot& q) { return q.yLabel; }));
    return x && y;
}

class TestEngineBoundaries : public QObject {
    Q_OBJECT

private slots:
    void engineIncludesNoQtHeader()
    {
        // "\x23" is '#': moc chokes on a literal include directive inside a raw string.
        const std::regex qtInclude("\x23\\s*include\\s*[<\"](Q[A-Za-z]|qcustomplot)");
        int files = 0;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(EVX_SOURCE_DIR "/engine")) {
            if (!entry.is_regular_file())
                continue;
            ++files;
            std::ifstream in(entry.path());
            std::string line;
            while (std::getline(in, line))
                QVERIFY2(!std::regex_search(line, qtInclude),
                         qPrintable(QString::fromStdString(entry.path().string() + ": " + line)));
        }
        QVERIFY(files > 10);
    }

    void idsAreUniqueKebabCase()
    {
        const std::regex kebab("[a-z0-9]+(-[a-z0-9]+)*");
        std::set<std::string> ids;
        for (const auto& s : ScenarioRegistry::instance().all()) {
            const ScenarioInfo info = s->info();
            QVERIFY2(std::regex_match(info.id, kebab), info.id.c_str());
            QVERIFY2(ids.insert(info.id).second, info.id.c_str());
            QVERIFY(!info.title.empty() && !info.topic.empty());
            // A data set named must be one of ../shared/data's (exampleInput opens it there).
            if (s->inputs().dataFile && !s->inputs().dataSetName.empty())
                QVERIFY2(s->inputs().dataSetName.find('/') == std::string::npos, info.id.c_str());
            QCOMPARE(ScenarioRegistry::instance().find(info.id), s);
        }
        QVERIFY(ids.count("ue-gaussian") && ids.count("ue-drop-ball"));
        QVERIFY(!ScenarioRegistry::instance().find("no-such-scenario"));
    }

    // One row per scenario: Qt's watchdog times each row, and the heavy scenarios' presets
    // (gb-regression's sixteen, the trained BNNs) together take minutes on a busy machine.
    void everyPresetRunsAndLabelsItsPlots_data()
    {
        QTest::addColumn<QString>("id");
        for (const auto& s : ScenarioRegistry::instance().all())
            QTest::newRow(s->info().id.c_str()) << QString::fromStdString(s->info().id);
    }
    void everyPresetRunsAndLabelsItsPlots()
    {
        QFETCH(QString, id);
        {
            const auto s = ScenarioRegistry::instance().find(id.toStdString());
            std::vector<ParameterValues> runs{s->schema().defaults()};
            for (const Preset& p : s->presets())
                runs.push_back(s->presetValues(p.name));
            for (const ParameterValues& v : runs) {
                const Figure f = s->runWith(testing::exampleInput(*s, v), {});
                QVERIFY(!f.plots.empty());
                QVERIFY(!f.summary.empty());
                for (const Plot& p : f.plots) {
                    QVERIFY2(!p.title.empty() && labelled(f, p), (s->info().id + ": " + p.title).c_str());
                    for (const Series& series : p.series) {
                        QVERIFY(!series.name.empty());
                        QCOMPARE(series.x.size(), series.y.size());
                        QVERIFY(!series.x.empty());
                        if (series.kind == SeriesKind::Line && !series.dashed)
                            QVERIFY2(series.x.size() > 1, series.name.c_str());
                    }
                }
            }
        }
    }

    void unknownPresetIsAClearError()
    {
        const auto s = ScenarioRegistry::instance().find("ue-gaussian");
        try {
            s->presetValues("fig9");
            QFAIL("accepted an unknown preset");
        } catch (const InvalidParameter& e) {
            QVERIFY(QString(e.what()).contains("fig2-left"));
        }
    }

    void cancelledRunThrowsCancelled()
    {
        std::atomic<bool> cancel{true};
        const RunContext context(&cancel, nullptr);
        for (const auto& s : ScenarioRegistry::instance().all())
            QVERIFY_THROWS_EXCEPTION(Cancelled,
                                     s->runWith(testing::exampleInput(*s, s->schema().defaults()), context));
    }

    void crossParameterErrorsAreClear()
    {
        // A prior on g that reaches g ≤ 0 is refused with the reason, not a NaN plot.
        const auto s = ScenarioRegistry::instance().find("ue-drop-ball");
        try {
            s->run({{"g_prior_mean", 5}, {"g_prior_sd", 2}}, {});
            QFAIL("accepted a prior that allows g ≤ 0");
        } catch (const InvalidParameter& e) {
            QVERIFY(QString(e.what()).contains("g positive"));
        }
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, s->run({{"sigma_obs", 0}}, {}));
    }
};

QTEST_APPLESS_MAIN(TestEngineBoundaries)
#include "test_engine_boundaries.moc"
