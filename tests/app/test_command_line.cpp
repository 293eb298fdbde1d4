// The command line of DESIGN.md, run as a user would: the real binary in a process.
#include "app_process.h"
#include "pin_labels.h"
#include "plot/plot_view.h"
#include "scenario_inputs.h"
#include "scenarios/registry.h"
#include "session.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace evx;

namespace {

using Result = evx::testing::AppResult;

Result run(const QStringList& args)
{
    return evx::testing::runApp(args);
}

QJsonObject readJson(const QString& path)
{
    return evx::testing::readJsonFile(path);
}

} // namespace

class TestCommandLine : public QObject {
    Q_OBJECT

private slots:
    void listsEveryScenario()
    {
        const Result r = run({"--list-scenarios"});
        QCOMPARE(r.exitCode, 0);
        for (const auto& s : ScenarioRegistry::instance().all())
            QVERIFY2(r.out.contains(QString::fromStdString(s->info().id)), qPrintable(r.out));
    }

    void exportsEveryScenarioWithAPreset_data()
    {
        // Defaults and the first preset of every scenario: the command line treats every preset
        // alike, and test_engine_boundaries runs each of them (the 48 generalised-Bayes table
        // rows alone took 5 minutes here, run twice each).
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("preset");
        for (const auto& s : ScenarioRegistry::instance().all()) {
            const QString id = QString::fromStdString(s->info().id);
            QTest::newRow(qPrintable(id + " defaults")) << id << QString();
            if (!s->presets().empty()) {
                const QString preset = QString::fromStdString(s->presets().front().name);
                QTest::newRow(qPrintable(id + " " + preset)) << id << preset;
            }
        }
    }

    void exportsEveryScenarioWithAPreset()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, preset);
        QTemporaryDir dir;
        QStringList args{
            "--scenario", scenario, "--export", dir.filePath("out.json"), "--export", dir.filePath("out.png"),
            "--size",     "800x500"};
        if (!preset.isEmpty())
            args << "--preset" << preset;
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        const ParameterValues values =
            preset.isEmpty() ? s->schema().defaults() : s->presetValues(preset.toStdString());
        const RunInput input = testing::exampleInput(*s, values);
        if (!input.dataPath.empty())
            args << "--data" << QString::fromStdString(input.dataPath);
        const Result r = run(args);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject json = readJson(dir.filePath("out.json"));
        QCOMPARE(json.value("scenario").toString(), scenario);
        const Figure expected = s->runWith(input, {});
        // Keys under "time." are wall-clock measurements; everything else is reproducible.
        for (const auto& [key, value] : expected.summary.entries())
            if (key.rfind("time.", 0) != 0)
                QCOMPARE(json.value("summary").toObject().value(QString::fromStdString(key)).toDouble(),
                         value);
        QCOMPARE(QImage(dir.filePath("out.png")).size(), QSize(800, 500));
    }

    // A PNG at a print size has mm / 25.4 * dpi pixels and says its dpi; a PDF's page is the
    // print size (checked with pdfinfo in test_exports_and_sessions). Without a height the
    // figure's own: ue-gaussian's two stacked plots are taller than wide.
    void printSizes()
    {
        QTemporaryDir dir;
        const Result r = run({"--scenario", "ue-gaussian", "--figure-size", "single-column", "--dpi", "600",
                              "--export", dir.filePath("c.png"), "--export", dir.filePath("c.svg")});
        QCOMPARE(r.exitCode, 0);
        const QImage column(dir.filePath("c.png"));
        QCOMPARE(column.width(), 2102); // 89 / 25.4 * 600 = 2102.4
        QVERIFY2(column.height() > column.width(), qPrintable(QString::number(column.height())));
        QCOMPARE(std::lround(column.dotsPerMeterX() * 0.0254), 600L);
        QVERIFY(QFile(dir.filePath("c.svg")).size() > 0);

        const Result slide =
            run({"--scenario", "ue-gaussian", "--figure-size", "slide", "--export", dir.filePath("s.png")});
        QCOMPARE(slide.exitCode, 0);
        QCOMPARE(QImage(dir.filePath("s.png")).size(), QSize(1920, 1080)); // 254 x 142.875 mm at 192 dpi
    }

    void setOverridesThePreset()
    {
        QTemporaryDir dir;
        const Result r = run({"--scenario", "ue-gaussian", "--preset", "fig2-left", "--set", "zeta=5",
                              "--export", dir.filePath("o.json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject params = readJson(dir.filePath("o.json")).value("parameters").toObject();
        QCOMPARE(params.value("zeta").toDouble(), 5.0);
        QCOMPARE(params.value("mu_x").toDouble(), -10.0);
    }

    void badInputExitsTwoWithOneLineAndWritesNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("reason");
        const QString out = "OUT/x.json";
        QTest::newRow("unknown scenario")
            << QStringList{"--scenario", "nope", "--export", out} << "unknown scenario";
        QTest::newRow("unknown parameter")
            << QStringList{"--scenario", "ue-gaussian", "--set", "bogus=1", "--export", out}
            << "unknown parameter";
        QTest::newRow("unknown preset")
            << QStringList{"--scenario", "ue-gaussian", "--preset", "fig9", "--export", out} << "no preset";
        QTest::newRow("out of range")
            << QStringList{"--scenario", "ue-gaussian", "--set", "sigma_x=100", "--export", out}
            << "outside the range";
        QTest::newRow("negative sd") << QStringList{"--scenario",     "ue-drop-ball", "--set",
                                                    "sigma_obs=-0.1", "--export",     out}
                                     << "outside the range";
        QTest::newRow("nan") << QStringList{"--scenario", "ue-gaussian", "--set", "zeta=nan", "--export", out}
                             << "not a finite number";
        QTest::newRow("not a number")
            << QStringList{"--scenario", "ue-gaussian", "--set", "zeta=two", "--export", out}
            << "not a number";
        QTest::newRow("set without =")
            << QStringList{"--scenario", "ue-gaussian", "--set", "zeta", "--export", out} << "name=value";
        QTest::newRow("cross-parameter")
            << QStringList{"--scenario", "ue-drop-ball", "--set", "g_prior_sd=4", "--export", out}
            << "g positive";
        QTest::newRow("unknown option")
            << QStringList{"--scenario", "ue-gaussian", "--frobnicate"} << "unknown argument";
        QTest::newRow("missing value")
            << QStringList{"--scenario", "ue-gaussian", "--export"} << "needs a value";
        QTest::newRow("export without scenario")
            << QStringList{"--export", out} << "--scenario ID is required";
        QTest::newRow("unknown format")
            << QStringList{"--scenario", "ue-gaussian", "--export", "OUT/x.bmp"} << "unknown format";
        QTest::newRow("missing folder")
            << QStringList{"--scenario", "ue-gaussian", "--export", "OUT/none/x.json"} << "does not exist";
        QTest::newRow("bad size") << QStringList{"--scenario", "ue-gaussian", "--export",
                                                 out,          "--size",      "big"}
                                  << "WIDTHxHEIGHT";
        QTest::newRow("tiny size") << QStringList{"--scenario", "ue-gaussian", "--export",
                                                  out,          "--size",      "10x10"}
                                   << "WIDTHxHEIGHT";
        QTest::newRow("export and sweep")
            << QStringList{"--scenario", "ue-gaussian", "--export", out, "--bench-sweep", "zeta=0:1:3"}
            << "cannot be combined";
        QTest::newRow("bad sweep") << QStringList{"--scenario", "ue-gaussian", "--bench-sweep", "zeta=0:1"}
                                   << "name=from:to:steps";
        QTest::newRow("sweep out of range")
            << QStringList{"--scenario", "ue-gaussian", "--bench-sweep", "zeta=0:99:3"}
            << "outside the range";
        QTest::newRow("sweep one step")
            << QStringList{"--scenario", "ue-gaussian", "--bench-sweep", "zeta=0:1:1"} << "steps";
        QTest::newRow("point not accepted")
            << QStringList{"--scenario", "ue-gaussian", "--point", "1,2", "--export", out}
            << "takes no --point";
        QTest::newRow("data not accepted")
            << QStringList{"--scenario", "ue-gaussian", "--data", EVX_SOURCE_DIR "/README.md", "--export",
                           out}
            << "takes no --data";
        QTest::newRow("point without scenario") << QStringList{"--point", "1"} << "--scenario ID is required";
        QTest::newRow("sweep unknown")
            << QStringList{"--scenario", "ue-gaussian", "--bench-sweep", "nope=0:1:3"} << "unknown parameter";
        // Hostile input that once crashed, hung or printed null.
        QTest::newRow("point at 1e300")
            << QStringList{"--scenario", "bq-1d", "--point", "1e300,-1e300", "--export", out}
            << "x must lie from -100 to 100";
        QTest::newRow("huge g") << QStringList{"--scenario", "bq-evidence", "--point",
                                               "1e12",       "--export",    out}
                                << "x must lie";
        QTest::newRow("huge 2-D point")
            << QStringList{"--scenario", "bq-2d-marginal", "--point", "0,1e300", "--export", out}
            << "y must lie";
        QStringList many{"--scenario", "bq-2d-marginal", "--export", out};
        for (int i = 0; i < 101; ++i)
            many << "--point"
                 << "0.1,0.2";
        QTest::newRow("101 points") << many << "takes at most 100";
        QTest::newRow("data /dev/zero")
            << QStringList{"--scenario", "wvo-attainment", "--data", "/dev/zero", "--export", out}
            << "not a regular file";
        QTest::newRow("data folder") << QStringList{"--scenario", "wvo-attainment", "--data",
                                                    "OUT",        "--export",       out}
                                     << "not a regular file";
        QTest::newRow("kepler budget")
            << QStringList{"--scenario",  "ue-kepler", "--set",         "n_e=400",  "--set",
                           "walkers=128", "--set",     "jr_steps=5000", "--export", out}
            << "lower n_e, walkers";
        QTest::newRow("100 KB value") << QStringList{"--scenario", "ue-gaussian",
                                                     "--set",      "zeta=" + QString(100000, '9') + "x",
                                                     "--export",   out}
                                      << "(100001 bytes in all)";
        // Print sizes: one message each, nothing written.
        const QString png = "OUT/f.png";
        auto print = [&](const char* name, QStringList extra, const char* why) {
            QTest::newRow(name) << (QStringList{"--scenario", "ue-gaussian", "--export", png} + extra)
                                << QString(why);
        };
        print("width 0", {"--width-mm", "0"}, "--width-mm 0 is not a width from 10 to 1000 mm");
        print("width negative", {"--width-mm", "-89"}, "is not a width");
        print("width nan", {"--width-mm", "nan"}, "is not a width");
        print("width 1e300", {"--width-mm", "1e300"}, "is not a width");
        print("width not a number", {"--width-mm", "wide"}, "--width-mm 'wide' is not a number");
        print("height without width", {"--height-mm", "60"}, "need --width-mm or --figure-size");
        print("dpi too high", {"--width-mm", "89", "--dpi", "5000"},
              "--dpi 5000 is not a resolution from 36 to 2400");
        print("too many pixels", {"--width-mm", "1000", "--height-mm", "1000", "--dpi", "2400"},
              "more than 64 million");
        print("font too large", {"--width-mm", "40", "--font-pt", "12"}, "does not fit a 40 mm wide figure");
        // No text of 4 pt or more fits: the message names the size that does, not a smaller text.
        print("width 10", {"--width-mm", "10"},
              "a 10 mm wide figure is too small for text of 4 pt, the smallest drawn: use at least 21.2 mm "
              "wide");
        print("width and height too small", {"--width-mm", "89", "--height-mm", "12"},
              "a 89 x 12 mm figure is too small for text of 4 pt");
        print("font 0", {"--font-pt", "0"}, "--font-pt 0 is not a text size");
        print("unknown figure size", {"--figure-size", "poster"},
              "is not one of single-column, double-column, slide");
        print("preset and width", {"--figure-size", "slide", "--width-mm", "100"}, "not both");
        print("pixels and millimetres", {"--size", "800x600", "--width-mm", "89"}, "use one of them");
        QTest::newRow("print size without export")
            << QStringList{"--scenario", "ue-gaussian", "--width-mm", "89"} << "apply only to --export";
        QTest::newRow("escape codes")
            << QStringList{"--scenario", "ue-gaussian", "--set", "zeta=\x1b[2J", "--export", out}
            << "'\\x1b[2J' is not a number";
    }

    void badInputExitsTwoWithOneLineAndWritesNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        for (QString& a : args)
            a.replace("OUT", dir.path());
        const Result r = run(args);
        QCOMPARE(r.exitCode, 2);
        const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().startsWith("evidence-explorer: error: "), qPrintable(r.err));
        QVERIFY2(lines.first().contains(reason), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).size(),
                 0);
    }

    void messagesStayShort()
    {
        // The 100 KB value above is cut; the whole message fits a terminal line or two.
        const Result r = run({"--scenario", "ue-gaussian", "--set", "zeta=" + QString(100000, '9') + "x"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.size() < 200, qPrintable(QString::number(r.err.size())));
    }

    void tenThousandOptionsParseWithoutRecursion()
    {
        // --set=name=value was split by a recursive call per argument: 10 000 of them
        // overflowed the stack.
        QTemporaryDir dir;
        QStringList args{"--scenario", "ue-gaussian", "--export", dir.filePath("o.json")};
        for (int i = 0; i < 10000; ++i)
            args << QString("--set=zeta=%1").arg(i % 10);
        const Result r = run(args);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(readJson(dir.filePath("o.json")).value("parameters").toObject().value("zeta").toDouble(),
                 9.0);
    }

    void attainmentSchoolCodeBeyondIntIsRefused()
    {
        // A 'second' of 2^31 overflowed the school index and crashed the process.
        QTemporaryDir dir;
        QFile csv(dir.filePath("scots.csv"));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("attain,verbal,sex,social,second\n");
        for (int i = 0; i < 30; ++i)
            csv.write(QString("%1,%2,%3,%4,%5\n")
                          .arg(1 + i % 9)
                          .arg(i - 15)
                          .arg(i % 2 ? "F" : "M")
                          .arg(i % 4)
                          .arg(i == 29 ? "2147483648" : QString::number(1 + i % 3))
                          .toUtf8());
        csv.close();
        const Result r = run(
            {"--scenario", "wvo-attainment", "--data", csv.fileName(), "--export", dir.filePath("o.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("column 'second' holds '2147483648', beyond"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("o.json")));
    }

    void userTextSpeaksOfTheProgramNotOfIssues()
    {
        // What a user reads (help, lists, every scenario's parameters, the explanation pages
        // and presets) says what the program does; the history of a change stays in commits.
        static const QRegularExpression issue("\\bissues?\\s*#?\\d+",
                                              QRegularExpression::CaseInsensitiveOption);
        auto check = [](const QString& where, const QString& text) {
            const auto m = issue.match(text);
            QVERIFY2(
                !m.hasMatch(),
                qPrintable(where + ": " + text.mid(std::max<qsizetype>(0, m.capturedStart() - 40), 100)));
        };
        check("--list-scenarios", run({"--list-scenarios"}).out);
        for (const auto& s : evx::ScenarioRegistry::instance().all()) {
            const QString id = QString::fromStdString(s->info().id);
            check("--list-parameters " + id, run({"--list-parameters", id}).out);
        }
        QDirIterator files(QString(EVX_SOURCE_DIR) + "/resources", QDir::Files, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile f(files.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            if (f.fileName().endsWith(".md") || f.fileName().endsWith(".json") ||
                f.fileName().endsWith(".desktop"))
                check(f.fileName(), QString::fromUtf8(f.readAll()));
        }
        const QString help = run({"--help"}).out;
        QVERIFY(help.contains("Tables:"));
        QVERIFY2(!issue.match(help).hasMatch(), qPrintable(issue.match(help).captured()));
    }

    void printSizeIsCheckedBeforeTheRun()
    {
        // A BNN trained for 30 000 epochs runs for minutes; a print size no text fits is
        // refused before it starts, within seconds (it was refused only after the run).
        QTemporaryDir dir;
        QElapsedTimer timer;
        timer.start();
        const Result r = evx::testing::runApp({"--scenario", "bnn-ncai", "--set", "epochs=30000", "--export",
                                               dir.filePath("f.pdf"), "--width-mm", "10"},
                                              60000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("too small for text of 4 pt"), qPrintable(r.err));
        QVERIFY2(timer.elapsed() < 20000, qPrintable(QString("%1 ms").arg(timer.elapsed())));
    }

    void readOnlyExportTargetIsKept()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath("locked.png");
        QVERIFY(evx::testing::writeFile(target, "old"));
        QVERIFY(QFile::setPermissions(target, QFile::ReadOwner));
        const Result r = run({"--scenario", "ue-gaussian", "--export", target});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("read-only"), qPrintable(r.err));
        QFile f(target);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("old"));
    }

    void benchSweepReportsLatencies()
    {
        const Result r =
            run({"--scenario", "ue-gaussian", "--bench-sweep", "zeta=-5:5:6", "--size", "640x480"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value("scenario").toString(), QString("ue-gaussian"));
        QCOMPARE(o.value("parameter").toString(), QString("zeta"));
        QCOMPARE(o.value("steps").toInt(), 6);
        for (const char* part :
             {"compute_ms", "render_ms", "first_figure_ms", "longest_wait_ms", "total_ms"}) {
            const QJsonObject s = o.value(part).toObject();
            QVERIFY2(s.contains("p50") && s.contains("p95") && s.contains("max"), part);
            QVERIFY(s.value("p50").toDouble() <= s.value("p95").toDouble());
            QVERIFY(s.value("p95").toDouble() <= s.value("max").toDouble());
        }
        // total covers compute and render of the same update; the first figure comes before its end.
        QVERIFY(o.value("total_ms").toObject().value("max").toDouble() >=
                o.value("render_ms").toObject().value("p50").toDouble());
        QVERIFY(o.value("first_figure_ms").toObject().value("max").toDouble() <=
                o.value("total_ms").toObject().value("max").toDouble());
        // Without partial figures the longest wait is the wait for the final one.
        QVERIFY(o.value("longest_wait_ms").toObject().value("max").toDouble() <=
                o.value("total_ms").toObject().value("max").toDouble());
        QVERIFY(o.value("longest_wait_ms").toObject().value("p50").toDouble() > 0);
    }

    void listParametersShowsRangesDefaultsAndPresets()
    {
        for (const QStringList& args : {QStringList{"--list-parameters", "gb-poisson"},
                                        QStringList{"--scenario", "gb-poisson", "--help"}}) {
            const Result r = run(args);
            QCOMPARE(r.exitCode, 0);
            // Every parameter by its --set name, a choice with its choices and default, a
            // real with its range, and the presets.
            for (const auto& spec : evx::ScenarioRegistry::instance().find("gb-poisson")->schema().specs())
                QVERIFY2(r.out.contains("  " + QString::fromStdString(spec.name) + "  "), spec.name.c_str());
            QVERIFY(r.out.contains(
                "one of tvd, hellinger, alpha-0.5, alpha-0.6, alpha-0.7, alpha-0.8, alpha-0.9, kl; "
                "default hellinger"));
            QVERIFY(r.out.contains("0.5 … 9; default 3"));
            QVERIFY(r.out.contains("table2-negbin-hellinger"));
        }
        const Result bad = run({"--list-parameters", "nope"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("unknown scenario"));
    }

    void sessionFileOnTheCommandLine()
    {
        QTemporaryDir dir;
        const auto scenario = evx::ScenarioRegistry::instance().find("ue-gaussian");
        evx::Session session;
        session.scenarioId = "ue-gaussian";
        session.input.values = scenario->schema().defaults();
        session.input.values["zeta"] = 4.5;
        const QString path = dir.filePath("s.evx.json");
        QVERIFY(evx::saveSession(path, session, scenario->schema()).isEmpty());

        // The session's parameters are what is exported; --set still applies on top.
        const QString out = dir.filePath("out.json");
        Result r = run({path, "--export", out});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = readJson(out);
        QCOMPARE(o.value("scenario").toString(), QString("ue-gaussian"));
        QCOMPARE(o.value("parameters").toObject().value("zeta").toDouble(), 4.5);
        r = run({path, "--set", "sigma_q=0.5", "--export", out});
        QCOMPARE(r.exitCode, 0);
        o = readJson(out);
        QCOMPARE(o.value("parameters").toObject().value("zeta").toDouble(), 4.5);
        QCOMPARE(o.value("parameters").toObject().value("sigma_q").toDouble(), 0.5);

        // A session names its own scenario; a broken one is one clear error, exit 2.
        r = run({path, "--scenario", "ue-discrete", "--export", out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("names its own scenario"));
        QFile broken(dir.filePath("broken.evx.json"));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"format\": \"something else\"}");
        broken.close();
        r = run({broken.fileName(), "--export", out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("not an Evidence Explorer session"), qPrintable(r.err));
        r = run({dir.filePath("missing.evx.json"), "--export", out});
        QCOMPARE(r.exitCode, 2);
    }

    // An export of a session shows its pins, as the window's export does (View → Pin).
    void sessionExportShowsItsPins()
    {
        QTemporaryDir dir;
        const auto scenario = evx::ScenarioRegistry::instance().find("ue-gaussian");
        evx::Session session;
        session.scenarioId = "ue-gaussian";
        session.input.values = scenario->schema().defaults();
        const QString plain = dir.filePath("plain.evx.json");
        QVERIFY(evx::saveSession(plain, session, scenario->schema()).isEmpty());
        evx::RunInput pinnedInput = session.input;
        pinnedInput.values["zeta"] = 4.5;
        session.pins.push_back(
            {pinnedInput.values, evx::PlotView::pinnedCurves(scenario->runChecked(pinnedInput, {}))});
        const QString pinned = dir.filePath("pinned.evx.json");
        QVERIFY(evx::saveSession(pinned, session, scenario->schema()).isEmpty());

        // Both sessions compute the same figure; only the pin's ghosts and legend entry can
        // tell their images apart.
        auto imageOf = [&](const QString& sessionPath) {
            const QString out = dir.filePath("out.png");
            QFile::remove(out);
            const Result r = run({sessionPath, "--export", out, "--size", "900x600"});
            return r.exitCode == 0 ? QImage(out) : QImage();
        };
        const QImage without = imageOf(plain), withPin = imageOf(pinned);
        QVERIFY(!without.isNull() && !withPin.isNull());
        QCOMPARE(withPin.size(), without.size());
        QVERIFY2(withPin != without, "the session's pin is missing from its export");
        const QString label = evx::pinLabel(scenario->schema(), pinnedInput.values, session.input.values);
        QVERIFY2(label.contains("4.5"), qPrintable(label));
    }

    void benchSweepEndsAtTheRangesEnd()
    {
        // 0.001 + (0.05 − 0.001)·3/3 is 0.05 + 1 ulp: a sweep to a parameter's maximum stopped
        // there with "outside the range".
        const Result r = run(
            {"--scenario", "ue-drop-ball", "--bench-sweep", "sigma_model=0.001:0.05:4", "--size", "640x480"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value("steps").toInt(), 4);
    }

    void benchSweepStepsThroughChoices()
    {
        // A choice sweeps its indices: tvd … kl are the eight divergences, so 8 steps visit each.
        const Result r = run({"--scenario", "gb-poisson", "--set", "method=gen-grid", "--bench-sweep",
                              "divergence=tvd:kl:8", "--size", "640x480"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value("parameter").toString(), QString("divergence"));
        QCOMPARE(o.value("steps").toInt(), 8);
        QVERIFY(o.value("first_figure_ms").toObject().value("p50").toDouble() > 0);
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "test_command_line.moc"
