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

using namespace evx;

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
        return exportFigure(path(name), {"ue-drop-ball", m_scenario->schema(), m_values, m_figure}, *m_view, {1000, 700});
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
                                           {"ue-drop-ball", m_scenario->schema(), m_values, m_figure}, *m_view, {800, 600});
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

    void sessionRoundTrip()
    {
        const RunInput input{{{"mu_x", 1.5}, {"sigma_x", 3}, {"sigma_y_given_x", 0.5}, {"sigma_q", 0.25}, {"zeta", -4}},
                             {{0.5, 1.0}, {-2, 3e-7}},
                             "/data/some file.csv"};
        const Session saved{"ue-gaussian", input, {"Posterior/Jeffrey's rule"}};
        const auto scenario = ScenarioRegistry::instance().find("ue-gaussian");
        QCOMPARE(saveSession(path("s.evx.json"), saved, scenario->schema()), QString());
        const auto loaded = loadSession(path("s.evx.json"));
        QVERIFY(std::holds_alternative<Session>(loaded));
        const Session& s = std::get<Session>(loaded);
        QCOMPARE(s.scenarioId, saved.scenarioId);
        QVERIFY(s.input.values == scenario->schema().complete(saved.input.values));
        QVERIFY(s.input.points == saved.input.points);
        QCOMPARE(s.input.dataPath, saved.input.dataPath);
        QCOMPARE(s.hiddenSeries, saved.hiddenSeries);
    }

    void malformedSessionsAreRefusedWithAReason_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");
        const QByteArray head = R"({"format": "evidence-explorer-session", "version": 1, )";
        QTest::newRow("not json") << QByteArray("{not json") << "not valid JSON";
        QTest::newRow("empty") << QByteArray("") << "not valid JSON";
        QTest::newRow("array") << QByteArray("[1, 2]") << "not a JSON object";
        QTest::newRow("other format") << QByteArray(R"({"format": "x", "version": 1})") << "not an Evidence Explorer session";
        QTest::newRow("no version") << QByteArray(R"({"format": "evidence-explorer-session"})") << "no valid \"version\"";
        QTest::newRow("newer") << QByteArray(R"({"format": "evidence-explorer-session", "version": 99})") << "version 99";
        QTest::newRow("unknown scenario") << head + R"("scenario": "nope", "parameters": {}})" << "unknown scenario";
        QTest::newRow("no parameters") << head + R"("scenario": "ue-gaussian"})" << "\"parameters\"";
        QTest::newRow("unknown parameter") << head + R"("scenario": "ue-gaussian", "parameters": {"bogus": 1}})" << "no parameter \"bogus\"";
        QTest::newRow("out of range") << head + R"("scenario": "ue-gaussian", "parameters": {"sigma_x": -1}})" << "outside the range";
        QTest::newRow("text value") << head + R"("scenario": "ue-gaussian", "parameters": {"sigma_x": "wide"}})" << "not a number";
        QTest::newRow("null value") << head + R"("scenario": "ue-gaussian", "parameters": {"sigma_x": null}})" << "not a number";
        QTest::newRow("bad points") << head + R"("scenario": "ue-gaussian", "parameters": {}, "points": [[1]]})" << "pairs of numbers";
        QTest::newRow("bad data path") << head + R"("scenario": "ue-gaussian", "parameters": {}, "data_path": 3})" << "\"data_path\"";
        QTest::newRow("bad view") << head + R"("scenario": "ue-gaussian", "parameters": {}, "view": 3})" << "\"view\"";
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
