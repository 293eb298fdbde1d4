// Lessons on the command line, run as a user would: --list-lessons, and --lesson ID|FILE
// --step K --export writing that step's figure, its JSON carrying the caption.
#include "app_process.h"
#include "lesson.h"

#include <QFile>
#include <QImage>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace evx;
using evx::testing::AppResult;
using evx::testing::readJsonFile;
using evx::testing::runApp;

class TestLessonCommandLine : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void listsEveryLesson()
    {
        const AppResult r = runApp({"--list-lessons"});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QVERIFY2(lines.size() >= 5, qPrintable(r.out));
        for (const QString& id : shippedLessonIds()) {
            const Lesson lesson = std::get<Lesson>(loadLesson(id));
            const QString expected =
                QString("%1  %2  (%3 steps)").arg(id, -22).arg(lesson.title).arg(lesson.steps.size());
            QVERIFY2(lines.contains(expected), qPrintable(expected + "\n" + r.out));
        }
    }

    void exportsAStep()
    {
        const QString id = shippedLessonIds().front();
        const Lesson lesson = std::get<Lesson>(loadLesson(id));
        const int k = int(lesson.steps.size()); // the last step
        const AppResult r =
            runApp({"--lesson", id, "--step", QString::number(k), "--export", m_dir.filePath("step.json"),
                    "--export", m_dir.filePath("step.png"), "--size", "800x500"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject json = readJsonFile(m_dir.filePath("step.json"));
        const LessonStep& step = lesson.steps.back();
        QCOMPARE(json.value("caption").toString(), step.caption);
        QCOMPARE(json.value("scenario").toString(), step.scenarioId);
        QVERIFY(!json.value("summary").toObject().isEmpty());
        QCOMPARE(QImage(m_dir.filePath("step.png")).size(), QSize(800, 500));

        // Without --step: step 1. A plain export has no caption.
        QCOMPARE(runApp({"--lesson", id, "--export", m_dir.filePath("first.json")}).exitCode, 0);
        QCOMPARE(readJsonFile(m_dir.filePath("first.json")).value("caption").toString(),
                 lesson.steps[0].caption);
        QCOMPARE(runApp({"--scenario", "ue-gaussian", "--export", m_dir.filePath("plain.json")}).exitCode, 0);
        QVERIFY(!readJsonFile(m_dir.filePath("plain.json")).contains("caption"));
    }

    void exportsALessonFile()
    {
        QFile f(m_dir.filePath("mine.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "evidence-explorer-lesson", "version": 1, "title": "Mine", "steps": [
            {"scenario": "ue-gaussian", "caption": "first"},
            {"set": {"zeta": 3.5}, "pins": [{"zeta": 0}], "caption": "second, ζ = 3.5"}]})");
        f.close();
        const AppResult r =
            runApp({"--lesson", f.fileName(), "--step", "2", "--export", m_dir.filePath("mine-2.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject json = readJsonFile(m_dir.filePath("mine-2.json"));
        QCOMPARE(json.value("caption").toString(), QString("second, ζ = 3.5"));
        QCOMPARE(json.value("parameters").toObject().value("zeta").toDouble(), 3.5);
    }

    // --print-link of a lesson step names the lesson and step; the link exports that step with
    // its caption, and a --set over it stays.
    void lessonStepLinks()
    {
        const QString id = shippedLessonIds().front();
        const Lesson lesson = std::get<Lesson>(loadLesson(id));
        const AppResult printed = runApp({"--lesson", id, "--step", "2", "--print-link"});
        QCOMPARE(printed.exitCode, 0);
        const QString link = printed.out.trimmed();
        QVERIFY2(link.startsWith("evx://" + lesson.steps[1].scenarioId + "?") &&
                     link.endsWith(QString("&lesson=%1&step=2").arg(id)),
                 qPrintable(link));
        const AppResult r = runApp({link, "--export", m_dir.filePath("linked.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject json = readJsonFile(m_dir.filePath("linked.json"));
        QCOMPARE(json.value("caption").toString(), lesson.steps[1].caption);
        QCOMPARE(runApp({"--lesson", id, "--step", "2", "--export", m_dir.filePath("step2.json")}).exitCode,
                 0);
        QCOMPARE(json.value("summary"), readJsonFile(m_dir.filePath("step2.json")).value("summary"));
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QString id = shippedLessonIds().front();
        QTest::newRow("step 0") << QStringList{"--lesson", id, "--step", "0"} << "--step '0': the lesson";
        QTest::newRow("step past the end") << QStringList{"--lesson", id, "--step", "99"} << "has steps 1 to";
        QTest::newRow("step without lesson")
            << QStringList{"--scenario", "ue-gaussian", "--step", "2"} << "--step K needs --lesson";
        QTest::newRow("unknown id") << QStringList{"--lesson", "no-such"} << "no lesson 'no-such'";
        QTest::newRow("missing file") << QStringList{"--lesson", "/nonexistent/l.json"} << "does not exist";
        QTest::newRow("with --scenario") << QStringList{"--lesson", id, "--scenario", "ue-gaussian"}
                                         << "a lesson step names its own scenario";
    }

    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const QString out = m_dir.filePath("refused.json");
        const AppResult r = runApp(QStringList(args) << "--export" << out);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QVERIFY2(r.err.count('\n') == 1, qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_MAIN(TestLessonCommandLine)
#include "test_lesson_command_line.moc"
