// Links on the command line, run as a user would: --print-link for --scenario/--preset/--set
// and for a session file, `evidence-explorer URL --export f` computing what the state it came
// from computes, and hostile links refused with one line, exit 2 and nothing written.
#include "app_process.h"
#include "scenarios/registry.h"
#include "session.h"

#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace evx;
using evx::testing::AppResult;
using evx::testing::readJsonFile;
using evx::testing::runApp;

namespace {

QString printedLink(const QStringList& args)
{
    const AppResult r = runApp(QStringList(args) << "--print-link");
    // Qt's own notes (QStandardPaths on a shared /tmp) may precede; the program itself says nothing.
    QStringList own = r.err.split('\n', Qt::SkipEmptyParts);
    own.removeIf([](const QString& line) { return line.startsWith("QStandardPaths:"); });
    if (r.exitCode != 0 || !own.isEmpty())
        qFatal("--print-link failed (%d): %s", r.exitCode, qPrintable(r.err));
    return r.out;
}

} // namespace

class TestLinkCommandLine : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void printedLinkOpensTheSameState_data()
    {
        QTest::addColumn<QStringList>("state");
        QTest::newRow("scenario") << QStringList{"--scenario", "ue-discrete"};
        QTest::newRow("preset and set")
            << QStringList{"--scenario", "ue-gaussian", "--preset", "fig2-left", "--set", "zeta=2.75"};
        QTest::newRow("points") << QStringList{"--scenario", "bq-1d", "--point", "0.5", "--point", "-1.25"};
    }

    void printedLinkOpensTheSameState()
    {
        QFETCH(QStringList, state);
        const QString out = printedLink(state);
        QVERIFY2(out.endsWith('\n') && out.count('\n') == 1, qPrintable(out));
        const QString link = out.trimmed();
        QVERIFY2(link.startsWith("evx://" + state[1] + "?"), qPrintable(link));

        const QString direct = m_dir.filePath(QTest::currentDataTag() + QString("-direct.json"));
        const QString viaLink = m_dir.filePath(QTest::currentDataTag() + QString("-link.json"));
        QCOMPARE(runApp(QStringList(state) << "--export" << direct).exitCode, 0);
        const AppResult r = runApp({link, "--export", viaLink});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject a = readJsonFile(direct), b = readJsonFile(viaLink);
        QVERIFY(!a.value("summary").toObject().isEmpty());
        QCOMPARE(b.value("scenario"), a.value("scenario"));
        QCOMPARE(b.value("parameters"), a.value("parameters"));
        QCOMPARE(b.value("summary"), a.value("summary"));
    }

    // A session file's link exports the session's summary, and --set still applies over a link.
    void sessionLinkRoundTrips()
    {
        const auto s = ScenarioRegistry::instance().find("ue-drop-ball");
        Session session{"ue-drop-ball", {s->presetValues("fig4"), {}, {}}, {}};
        session.input.values["sigma_obs"] = 0.0312345;
        const QString path = m_dir.filePath("drop.evx.json");
        QCOMPARE(saveSession(path, session, s->schema()), QString());
        const QString link = printedLink({path}).trimmed();
        QVERIFY2(link.contains("sigma_obs=0.0312345&") || link.endsWith("sigma_obs=0.0312345"),
                 qPrintable(link));

        QCOMPARE(runApp({path, "--export", m_dir.filePath("session.json")}).exitCode, 0);
        QCOMPARE(runApp({link, "--export", m_dir.filePath("link.json")}).exitCode, 0);
        QCOMPARE(readJsonFile(m_dir.filePath("link.json")).value("summary"),
                 readJsonFile(m_dir.filePath("session.json")).value("summary"));

        QCOMPARE(runApp({link, "--set", "sigma_obs=0.05", "--export", m_dir.filePath("set.json")}).exitCode,
                 0);
        QCOMPARE(readJsonFile(m_dir.filePath("set.json"))
                     .value("parameters")
                     .toObject()
                     .value("sigma_obs")
                     .toDouble(),
                 0.05);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown key") << QStringList{"evx://ue-gaussian?colour=red"}
                                     << "has no parameter 'colour'";
        QTest::newRow("out of range") << QStringList{"evx://ue-gaussian?sigma_x=-1"} << "sigma_x";
        QTest::newRow("100 KB") << QStringList{"evx://ue-gaussian?zeta=" + QString(100 * 1024, '1')}
                                << "at most 8192";
        QTest::newRow("bad escape") << QStringList{"evx://ue-gaussian?zeta=%g1"} << "bad escape";
        QTest::newRow("link with --scenario")
            << QStringList{"evx://ue-gaussian", "--scenario", "ue-discrete"} << "names its own scenario";
        QTest::newRow("print-link with export")
            << QStringList{"--scenario", "ue-gaussian", "--print-link"} << "--print-link prints a link only";
        QTest::newRow("print-link without a state") << QStringList{"--print-link"} << "--print-link needs";
        QTest::newRow("print-link with a data file")
            << QStringList{"--scenario", "wvo-attainment", "--data", EVX_SOURCE_DIR "/README.md",
                           "--print-link"}
            << "cannot carry a data file";
    }

    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const QString out = m_dir.filePath(QString("refused-%1.json").arg(QTest::currentDataTag()));
        if (QString(QTest::currentDataTag()) != "print-link without a state" &&
            QString(QTest::currentDataTag()) != "print-link with a data file")
            args << "--export" << out;
        const AppResult r = runApp(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QVERIFY2(r.err.count('\n') == 1 && r.err.size() < 400, qPrintable(r.err.left(400)));
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_MAIN(TestLinkCommandLine)
#include "test_link_command_line.moc"
