// Session files round-trip (values, points, data path, hidden curves, pins) or are refused
// with a reason: malformed JSON, wrong types, huge or non-regular files.
#include "scenarios/registry.h"
#include "session.h"

#include <QTemporaryDir>
#include <QtTest>
#include <sys/stat.h>

#include <cmath>

using namespace evx;

class TestSessions : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

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
        Plot plot;
        plot.title = "Posterior";
        plot.xLabel = "x";
        plot.yLabel = "density";
        plot.logY = true;
        plot.series.push_back(
            {"a", SeriesKind::Line, {0, 0.1, 0.2}, {1.0 / 3, std::nan(""), 2e-300}, 3, true, 0});
        plot.series.push_back({"b", SeriesKind::Scatter, {1}, {-1}, kReferenceColour, false, 0});
        plot.series[1].thin = true;
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
        QCOMPARE(back.series[0].thin, false);
        QCOMPARE(back.series[1].thin, true);
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
        // A pinned curve sets the axes: values past ±1e100 are refused.
        QTest::newRow("pin huge y")
            << pinHead + R"([{"parameters": {}, "plots": [)" + plot +
                   R"([{"name": "a", "kind": "line", "colour": 1, "x": [0, 1], "y": [1, 1e308]}]}]}]})"
            << "holds 1e+308, beyond ±1e+100";
        QTest::newRow("pin huge x")
            << pinHead + R"([{"parameters": {}, "plots": [)" + plot +
                   R"([{"name": "a", "kind": "line", "colour": 1, "x": [-1e308, 1], "y": [1, 1]}]}]}]})"
            << "holds -1e+308, beyond ±1e+100";
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

QTEST_MAIN(TestSessions)
#include "test_sessions.moc"
