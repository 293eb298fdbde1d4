// Export files are valid in every format, and writes (exports and sessions) are atomic: a
// failed or full-disk write leaves the old file and says so.
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

class TestExports : public QObject {
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
};

QTEST_MAIN(TestExports)
#include "test_exports.moc"
