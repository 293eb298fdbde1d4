// Export files are valid in every format, writes are atomic, and session files round-trip
// or are refused with a reason.
#include "exporter.h"
#include "figure_serialiser.h"
#include "plot/plot_view.h"
#include "scenarios/registry.h"
#include "session.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>
#include <sys/resource.h>
#include <sys/stat.h>

#include <csignal>

using namespace evx;

namespace {

// A full disk, injected: RLIMIT_FSIZE makes every write past `bytes` fail (EFBIG, with
// SIGXFSZ ignored) as ENOSPC would, for this process only.
struct FullDisk {
    rlimit saved{};
    explicit FullDisk(rlim_t bytes)
    {
        std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &saved);
        rlimit tight = saved;
        tight.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &tight);
    }
    ~FullDisk() { setrlimit(RLIMIT_FSIZE, &saved); }
};

} // namespace

class TestExportsAndSessions : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::shared_ptr<const Scenario> m_scenario;
    ParameterValues m_values;
    Figure m_figure;
    PlotView* m_view = nullptr;

    QString path(const QString& name) const { return m_dir.filePath(name); }
    QString exportTo(const QString& name)
    {
        return exportFigure(path(name), {"ue-drop-ball", m_scenario->schema(), m_values, m_figure}, *m_view,
                            QSize(1000, 700));
    }

    QByteArray contents(const QString& name) const
    {
        QFile f(path(name));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(missing)");
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_scenario = ScenarioRegistry::instance().find("ue-drop-ball");
        m_values = m_scenario->presetValues("fig4");
        m_figure = m_scenario->run(m_values, {});
        m_view = new PlotView;
        m_view->resize(1000, 700);
        m_view->setFigure(m_figure);
    }
    void cleanupTestCase() { delete m_view; }

    void pngDecodesAtTheRequestedSize()
    {
        QCOMPARE(exportTo("f.png"), QString());
        QImage image(path("f.png"));
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1000, 700));
        // A drawn plot has many colours (curves, text, grid); a blank image has one.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }

    void svgParses()
    {
        QCOMPARE(exportTo("f.svg"), QString());
        QSvgRenderer svg(path("f.svg"));
        QVERIFY(svg.isValid());
        QVERIFY(svg.defaultSize().width() > 100);
    }

    void pdfParses()
    {
        QCOMPARE(exportTo("f.pdf"), QString());
        QFile file(path("f.pdf"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray data = file.readAll();
        QVERIFY(data.startsWith("%PDF-"));
        QVERIFY(data.trimmed().endsWith("%%EOF"));
        // A real parser: pdfinfo (poppler-utils, installed by scripts/install-deps.sh).
        const QString pdfinfo = QStandardPaths::findExecutable("pdfinfo");
        QVERIFY2(!pdfinfo.isEmpty(), "pdfinfo is missing: run scripts/install-deps.sh");
        QProcess p;
        p.start(pdfinfo, {path("f.pdf")});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 0);
        const QString info = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(info.contains(QRegularExpression("Pages:\\s+1\\b")), qPrintable(info));
    }

    // An 89 mm x 66.75 mm PDF with 8 pt text, as poppler reads it: the page in points is
    // mm / 25.4 * 72 (pdfinfo prints three decimals), and every font is embedded (pdffonts).
    void pdfAtAPrintSizeHasThatPageAndEmbeddedFonts()
    {
        const PrintSize size{89, 66.75, 8, 600};
        QCOMPARE(exportFigure(path("print.pdf"), {"ue-drop-ball", m_scenario->schema(), m_values, m_figure},
                              *m_view, size),
                 QString());
        auto run = [](const QString& tool, const QStringList& args) {
            const QString exe = QStandardPaths::findExecutable(tool);
            if (exe.isEmpty())
                return QString("(%1 is missing: run scripts/install-deps.sh)").arg(tool);
            QProcess p;
            p.start(exe, args);
            p.waitForFinished(20000);
            return QString::fromUtf8(p.readAllStandardOutput());
        };
        const QString info = run("pdfinfo", {path("print.pdf")});
        const auto page = QRegularExpression(R"(Page size:\s+([0-9.]+) x ([0-9.]+) pts)").match(info);
        QVERIFY2(page.hasMatch(), qPrintable(info));
        QCOMPARE_LE(std::abs(page.captured(1).toDouble() - 89 / 25.4 * 72), 5e-4);    // 252.283
        QCOMPARE_LE(std::abs(page.captured(2).toDouble() - 66.75 / 25.4 * 72), 5e-4); // 189.213
        const QStringList fonts = run("pdffonts", {path("print.pdf")}).split('\n', Qt::SkipEmptyParts).mid(2);
        QVERIFY2(!fonts.isEmpty(), "no fonts: the text is not text");
        for (const QString& font : fonts) {
            const QStringList columns = font.simplified().split(' ');
            // name type encoding emb sub uni object ID: "emb" is the fourth column from the end.
            QVERIFY2(columns.size() >= 7 && columns[columns.size() - 5] == "yes", qPrintable(font));
        }
    }

    void jsonMatchesTheDesignFormat()
    {
        QCOMPARE(exportTo("f.json"), QString());
        QFile file(path("f.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(root.value("scenario").toString(), QString("ue-drop-ball"));
        QCOMPARE(root.value("parameters").toObject().value("t_obs").toDouble(), 0.43);
        QCOMPARE(root.value("summary").toObject().value("virtual.mean").toDouble(),
                 m_figure.summary.value("virtual.mean"));
        const QJsonArray plots = root.value("plots").toArray();
        QCOMPARE(plots.size(), qsizetype(m_figure.plots.size()));
        const QJsonObject first = plots.at(0).toObject();
        for (const char* key : {"title", "x_label", "y_label", "series", "bands"})
            QVERIFY2(first.contains(key), key);
        const QJsonObject series = first.value("series").toArray().at(1).toObject();
        QCOMPARE(series.value("name").toString(), QString("Jeffrey's rule"));
        QCOMPARE(series.value("kind").toString(), QString("line"));
        QCOMPARE(series.value("x").toArray().size(), series.value("y").toArray().size());
        QVERIFY(root.value("warnings").isArray());
    }

    // DESIGN.md: "data" holds the observations a figure was computed from, written exactly
    // (the engine tests recompute each scenario's numbers from them); a scenario whose only
    // inputs are parameters writes no "data".
    void jsonCarriesTheObservedData_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QStringList>("columns");
        QTest::newRow("simulated") << "wvo-normal" << QStringList{"y"};
        QTest::newRow("built-in data set") << "wvo-eight-schools" << QStringList{"sigma", "y"};
        QTest::newRow("parameters only") << "ue-drop-ball" << QStringList{};
    }
    void jsonCarriesTheObservedData()
    {
        QFETCH(QString, scenario);
        QFETCH(QStringList, columns);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        const ParameterValues values = s->schema().defaults();
        const Figure figure = s->run(values, {});
        const QString name = scenario + "-data.json";
        QCOMPARE(exportFigure(path(name), {scenario, s->schema(), values, figure}, *m_view, QSize(1000, 700)),
                 QString());
        const QJsonObject root = QJsonDocument::fromJson(contents(name)).object();
        QCOMPARE(root.value("scenario").toString(), scenario);
        if (columns.isEmpty()) {
            QVERIFY(figure.data.empty());
            QVERIFY(!root.contains("data"));
            return;
        }
        const QJsonObject data = root.value("data").toObject();
        QCOMPARE(data.keys(), columns); // QJsonObject keys are sorted
        QCOMPARE(qsizetype(figure.data.size()), columns.size());
        for (const auto& [key, v] : figure.data) {
            const QJsonArray a = data.value(QString::fromStdString(key)).toArray();
            QCOMPARE(a.size(), qsizetype(v.size()));
            QVERIFY(!v.empty());
            for (std::size_t i = 0; i < v.size(); ++i)
                QCOMPARE(a.at(qsizetype(i)).toDouble(), v[i]);
        }
    }

    void jsonCarriesTheFiguresTables()
    {
        // ue-discrete builds a table of the equivalent evidence; the export writes it cell for cell.
        const auto s = ScenarioRegistry::instance().find("ue-discrete");
        ParameterValues values = s->schema().defaults();
        values["show_equivalent_lambda"] = 1;
        const Figure figure = s->run(values, {});
        QVERIFY(!figure.tables.empty());
        QCOMPARE(exportFigure(path("tables.json"), {"ue-discrete", s->schema(), values, figure}, *m_view,
                              QSize(1000, 700)),
                 QString());
        const QJsonArray tables =
            QJsonDocument::fromJson(contents("tables.json")).object().value("tables").toArray();
        QCOMPARE(tables.size(), qsizetype(figure.tables.size()));
        for (qsizetype t = 0; t < tables.size(); ++t) {
            const QJsonObject o = tables.at(t).toObject();
            const Table& table = figure.tables[std::size_t(t)];
            QCOMPARE(o.value("title").toString(), QString::fromStdString(table.title));
            QCOMPARE(o.value("columns").toArray().size(), qsizetype(table.columns.size()));
            const QJsonArray rows = o.value("rows").toArray();
            QCOMPARE(rows.size(), qsizetype(table.rows.size()));
            for (qsizetype r = 0; r < rows.size(); ++r)
                for (qsizetype c = 0; c < rows.at(r).toArray().size(); ++c)
                    QCOMPARE(rows.at(r).toArray().at(c).toString(),
                             QString::fromStdString(table.rows[std::size_t(r)][std::size_t(c)]));
        }
    }

    void markdownHasParametersSummaryAndTables()
    {
        const auto s = ScenarioRegistry::instance().find("ue-discrete");
        ParameterValues values = s->schema().defaults();
        values["show_equivalent_lambda"] = 1;
        const Figure figure = s->run(values, {});
        QCOMPARE(exportFigure(path("report.md"), {"ue-discrete", s->schema(), values, figure}, *m_view,
                              QSize(1000, 700)),
                 QString());
        const QString md = QString::fromUtf8(contents("report.md"));
        QVERIFY(md.startsWith("# ue-discrete\n"));
        QVERIFY(md.contains("| show_equivalent_lambda | true |"));
        const auto& [key, value] = figure.summary.entries().front();
        QVERIFY(md.contains(QString("| %1 | %2 |").arg(QString::fromStdString(key)).arg(value, 0, 'g', 17)));
        const Table& t = figure.tables.at(0);
        QVERIFY(md.contains("## " + QString::fromStdString(t.title)));
        QVERIFY(md.contains("| " + QString::fromStdString(t.rows.at(0).at(0)) + " | " +
                            QString::fromStdString(t.rows.at(0).at(1)) + " |"));
    }

    void csvHasAHeaderAndEveryPoint()
    {
        QCOMPARE(exportTo("f.csv"), QString());
        QFile file(path("f.csv"));
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), QString("plot,element,name,x,y,lower,upper,value"));
        size_t points = 0;
        for (const Plot& p : m_figure.plots)
            for (const Series& s : p.series)
                points += s.x.size();
        QCOMPARE(size_t(lines.filter(",series,").size()), points);
        QVERIFY(lines.contains(QString("summary,summary,jeffrey.mean,,,,,%1")
                                   .arg(m_figure.summary.value("jeffrey.mean"), 0, 'g', 17)));
    }

    void unknownFormatAndUnwritablePathFailWithoutWriting()
    {
        QVERIFY(exportTo("f.bmp").contains("png, pdf, svg, csv, json"));
        QVERIFY(!QFile::exists(path("f.bmp")));
        const QString error = exportFigure(path("no/such/dir/f.json"),
                                           {"ue-drop-ball", m_scenario->schema(), m_values, m_figure},
                                           *m_view, QSize(800, 600));
        QVERIFY(error.startsWith("cannot write"));
    }

    void failedWriteKeepsTheOldFile()
    {
        // A directory in the way of QSaveFile's commit: the old file must survive intact.
        QCOMPARE(writeFileAtomically(path("keep.json"), "old"), QString());
        QVERIFY(!writeFileAtomically(path("."), "new").isEmpty());
        QFile file(path("keep.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("old"));
        // And no temporary files are left behind by image exports.
        QCOMPARE(exportTo("again.png"), QString());
        QCOMPARE(QDir(m_dir.path()).entryList({".evx-export-*"}, QDir::Files | QDir::Hidden).size(), 0);
    }

    void fullDiskLeavesTheOldFileAndSaysSo_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name :
             {"full.evx.json", "full.json", "full.csv", "full.png", "full.pdf", "full.svg"})
            QTest::newRow(name) << name;
    }

    void fullDiskLeavesTheOldFileAndSaysSo()
    {
        QFETCH(QString, name);
        QCOMPARE(writeFileAtomically(path(name), "old contents"), QString());
        const auto scenario = ScenarioRegistry::instance().find("ue-drop-ball");
        QString error;
        {
            const FullDisk disk(100);
            if (name.endsWith(".evx.json"))
                error = saveSession(path(name), {"ue-drop-ball", {m_values, {}, {}}, {}}, scenario->schema());
            else
                error = exportTo(name);
        }
        QVERIFY2(error.contains("the previous file, if any, is unchanged"), qPrintable(error));
        QCOMPARE(contents(name), QByteArray("old contents"));
        const QStringList left = QDir(m_dir.path()).entryList({name + "*"}, QDir::Files | QDir::Hidden);
        QCOMPARE(left, QStringList{name});
    }

    void filesFollowTheUmaskAndReadOnlyTargetsAreKept()
    {
        const mode_t before = ::umask(027);
        for (const char* name : {"mode.png", "mode.pdf", "mode.svg", "mode.json"}) {
            QCOMPARE(exportTo(name), QString());
            struct stat st {};
            QCOMPARE(::stat(path(name).toLocal8Bit().constData(), &st), 0);
            QCOMPARE(int(st.st_mode & 0777), 0640);
        }
        ::umask(before);
        QCOMPARE(writeFileAtomically(path("locked.png"), "old"), QString());
        QVERIFY(QFile::setPermissions(path("locked.png"), QFile::ReadOwner | QFile::ReadGroup));
        QVERIFY(exportTo("locked.png").contains("read-only"));
        QCOMPARE(contents("locked.png"), QByteArray("old"));
    }

    void sessionRoundTrip_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<bool>("withData");
        QTest::newRow("points") << "bq-1d" << false;
        QTest::newRow("data file") << "wvo-attainment" << true;
    }

    void sessionRoundTrip()
    {
        QFETCH(QString, scenario);
        QFETCH(bool, withData);
        const auto s0 = ScenarioRegistry::instance().find(scenario.toStdString());
        RunInput input{{{"seed", 7}}, {}, {}};
        if (withData) {
            QFile data(path("some data.csv"));
            QVERIFY(data.open(QIODevice::WriteOnly));
            data.write("verbal,attain,sex,social,second\n");
            input.dataPath = path("some data.csv").toStdString();
        } else {
            input.points = {{0.5, 1.0}, {-2, 3e-7}};
        }
        const Session saved{scenario, input, {"Posterior/Jeffrey's rule"}};
        QCOMPARE(saveSession(path("s.evx.json"), saved, s0->schema()), QString());
        const auto loaded = loadSession(path("s.evx.json"));
        if (const auto* why = std::get_if<QString>(&loaded))
            QFAIL(qPrintable(*why));
        const Session& s = std::get<Session>(loaded);
        QCOMPARE(s.scenarioId, saved.scenarioId);
        QVERIFY(s.input.values == s0->schema().complete(saved.input.values));
        QVERIFY(s.input.points == saved.input.points);
        QCOMPARE(s.input.dataPath, saved.input.dataPath);
        QCOMPARE(s.hiddenSeries, saved.hiddenSeries);
    }

    // Pinned curves come back number for number (JSON numbers print the shortest text that
    // reads back the same double), a NaN gap as a gap, with their kind, colour and dash.
    void sessionKeepsPinnedCurves()
    {
        const auto scenario = ScenarioRegistry::instance().find("ue-gaussian");
        PinnedFigure pin{scenario->schema().complete({{"zeta", 3}}), {}};
        Plot plot{.title = "Posterior", .xLabel = "x", .yLabel = "density", .logY = true};
        plot.series.push_back(
            {"a", SeriesKind::Line, {0, 0.1, 0.2}, {1.0 / 3, std::nan(""), 2e-300}, 3, true, 0});
        plot.series.push_back({"b", SeriesKind::Scatter, {1}, {-1}, kReferenceColour, false, 0});
        pin.figure.plots.push_back(plot);
        const Session saved{"ue-gaussian", {scenario->schema().defaults(), {}, {}}, {}, {pin, pin}};
        const auto loaded = parseSession(sessionToJson(saved, scenario->schema()));
        if (const auto* why = std::get_if<QString>(&loaded))
            QFAIL(qPrintable(*why));
        const Session& s = std::get<Session>(loaded);
        QCOMPARE(s.pins.size(), std::size_t(2));
        QVERIFY(s.pins[1].values == pin.values);
        const Plot& back = s.pins[1].figure.plots.at(0);
        QCOMPARE(back.title, plot.title);
        QCOMPARE(back.yLabel, plot.yLabel);
        QCOMPARE(back.logY, true);
        QCOMPARE(back.series.size(), std::size_t(2));
        QCOMPARE(back.series[0].x, plot.series[0].x);
        QCOMPARE(back.series[0].y[0], 1.0 / 3);
        QVERIFY2(std::isnan(back.series[0].y[1]), qPrintable(QString::number(back.series[0].y[1])));
        QCOMPARE(back.series[0].y[2], 2e-300);
        QCOMPARE(back.series[0].colour, 3);
        QCOMPARE(back.series[0].dashed, true);
        QCOMPARE(back.series[1].kind, SeriesKind::Scatter);
        QCOMPARE(back.series[1].colour, kReferenceColour);
        QCOMPARE(back.series[1].y, plot.series[1].y);
    }

    void sessionFilesMustBeSmallRegularFiles()
    {
        const QString fifo = path("session.fifo");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        // Neither blocks on the FIFO nor reads /dev/zero until memory runs out.
        for (const QString& p : {fifo, QString("/dev/zero"), m_dir.path()}) {
            const auto result = loadSession(p);
            QVERIFY(std::holds_alternative<QString>(result));
            QVERIFY2(std::get<QString>(result).contains("is not a regular file"),
                     qPrintable(std::get<QString>(result)));
        }
        QFile big(path("big.evx.json"));
        QVERIFY(big.open(QIODevice::WriteOnly));
        big.write(QByteArray((16 << 20) + 1, ' '));
        big.close();
        QVERIFY(std::get<QString>(loadSession(big.fileName())).contains("at most 1.68e+07"));
    }

    void malformedSessionsAreRefusedWithAReason_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");
        const QByteArray head = R"({"format": "evidence-explorer-session", "version": 1, )";
        QTest::newRow("not json") << QByteArray("{not json") << "not valid JSON";
        QTest::newRow("empty") << QByteArray("") << "not valid JSON";
        QTest::newRow("array") << QByteArray("[1, 2]") << "not a JSON object";
        QTest::newRow("other format")
            << QByteArray(R"({"format": "x", "version": 1})") << "not an Evidence Explorer session";
        QTest::newRow("no version") << QByteArray(R"({"format": "evidence-explorer-session"})")
                                    << "no valid \"version\"";
        QTest::newRow("newer") << QByteArray(R"({"format": "evidence-explorer-session", "version": 99})")
                               << "version 99";
        QTest::newRow("unknown scenario") << head + R"("scenario": "nope", "parameters": {}})"
                                          << "unknown scenario";
        QTest::newRow("no parameters") << head + R"("scenario": "ue-gaussian"})"
                                       << "\"parameters\"";
        QTest::newRow("unknown parameter")
            << head + R"("scenario": "ue-gaussian", "parameters": {"bogus": 1}})"
            << "no parameter 'bogus'";
        QTest::newRow("out of range") << head + R"("scenario": "ue-gaussian", "parameters": {"sigma_x": -1}})"
                                      << "outside the range";
        QTest::newRow("text value") << head +
                                           R"("scenario": "ue-gaussian", "parameters": {"sigma_x": "wide"}})"
                                    << "not a number";
        QTest::newRow("null value") << head + R"("scenario": "ue-gaussian", "parameters": {"sigma_x": null}})"
                                    << "not a number";
        QTest::newRow("bad points") << head +
                                           R"("scenario": "ue-gaussian", "parameters": {}, "points": [[1]]})"
                                    << "pairs of numbers";
        QTest::newRow("bad data path")
            << head + R"("scenario": "ue-gaussian", "parameters": {}, "data_path": 3})"
            << "\"data_path\"";
        QTest::newRow("bad view") << head + R"("scenario": "ue-gaussian", "parameters": {}, "view": 3})"
                                  << "\"view\"";
        // The same limits as the command line: points, their box, data files.
        QTest::newRow("point at 1e300")
            << head + R"("scenario": "bq-1d", "parameters": {}, "points": [[1e300, -1e300]]})"
            << "x must lie from -100 to 100";
        QTest::newRow("points not taken")
            << head + R"("scenario": "ue-gaussian", "parameters": {}, "points": [[1, 2]]})"
            << "takes no points";
        QByteArray many = head + R"("scenario": "bq-2d-marginal", "parameters": {}, "points": [[0, 0])";
        for (int i = 0; i < 100; ++i)
            many += ", [0, 0]";
        QTest::newRow("101 points") << many + "]}"
                                    << "takes at most 100";
        QTest::newRow("data not taken")
            << head + R"("scenario": "ue-gaussian", "parameters": {}, "data_path": "/etc/hostname"})"
            << "takes no data file";
        QTest::newRow("data /dev/zero")
            << head + R"("scenario": "wvo-attainment", "parameters": {}, "data_path": "/dev/zero"})"
            << "not a regular file";
        QTest::newRow("data missing")
            << head + R"("scenario": "wvo-attainment", "parameters": {}, "data_path": "/no/such.csv"})"
            << "does not exist";
        QTest::newRow("over budget")
            << head +
                   R"("scenario": "ue-kepler", "parameters": {"n_e": 400, "walkers": 128, "jr_steps": 5000}})"
            << "lower n_e";
        // Pins: their parameters checked as the session's, their curves well formed, at most four.
        const QByteArray pinHead = head + R"("scenario": "ue-gaussian", "parameters": {}, "pins": )";
        const QByteArray plot = R"({"title": "t", "x_label": "x", "y_label": "y", "series": )";
        QTest::newRow("pins not a list") << pinHead + "3}"
                                         << "\"pins\" is not a list";
        QTest::newRow("pin not an object") << pinHead + "[3]}"
                                           << "a pin is not an object";
        QTest::newRow("pin bad parameter") << pinHead + R"([{"parameters": {"sigma_x": -1}, "plots": []}]})"
                                           << "a pin's parameters: ";
        QTest::newRow("pin plot untitled") << pinHead + R"([{"parameters": {}, "plots": [{"series": []}]}]})"
                                           << "lacks its \"title\"";
        QTest::newRow("pin x y lengths")
            << pinHead + R"([{"parameters": {}, "plots": [)" + plot +
                   R"([{"name": "a", "kind": "line", "colour": 1, "x": [1, 2], "y": [1]}]}]}]})"
            << "pinned series of plot 't' is malformed";
        QTest::newRow("pin bad kind")
            << pinHead + R"([{"parameters": {}, "plots": [)" + plot +
                   R"([{"name": "a", "kind": "pie", "colour": 1, "x": [], "y": []}]}]}]})"
            << "is malformed";
        QTest::newRow("pin text number")
            << pinHead + R"([{"parameters": {}, "plots": [)" + plot +
                   R"([{"name": "a", "kind": "line", "colour": 1, "x": [1], "y": ["1"]}]}]}]})"
            << "is malformed";
        QByteArray five = pinHead + "[";
        for (int i = 0; i < 5; ++i)
            five += QByteArray(i ? ", " : "") + R"({"parameters": {}, "plots": []})";
        QTest::newRow("five pins") << five + "]}"
                                   << "5 pins; a session keeps at most 4";
        // QJsonDocument keeps the last of two equal keys; the loader refuses such a file.
        QTest::newRow("duplicate key")
            << head + R"("scenario": "ue-gaussian", "scenario": "bq-1d", "parameters": {}})"
            << "'scenario' appears twice";
        QTest::newRow("duplicate parameter")
            << head + R"("scenario": "ue-gaussian", "parameters": {"zeta": 1, "z\u0065ta": 2}})"
            << "'zeta' appears twice";
        QTest::newRow("long name") << head + "\"scenario\": \"ue-gaussian\", \"parameters\": {\"" +
                                          QByteArray(100000, 'x') + "\": 1}}"
                                   << "(100000 bytes in all)";
    }

    void malformedSessionsAreRefusedWithAReason()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        const auto result = parseSession(content);
        QVERIFY(std::holds_alternative<QString>(result));
        QVERIFY2(std::get<QString>(result).contains(reason), qPrintable(std::get<QString>(result)));
    }
};

QTEST_MAIN(TestExportsAndSessions)
#include "test_exports_and_sessions.moc"
