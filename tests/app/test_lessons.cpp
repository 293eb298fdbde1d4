// Guided lessons (lesson.h): every shipped lesson loads and every step runs without a warning;
// a malformed lesson gets one message naming the step and the field; evx:set links parse and
// set exactly what they say; the window walks a lesson with Page Down / Page Up.
#include "core/errors.h"
#include "lesson.h"
#include "lesson_panel.h"
#include "main_window.h"
#include "main_window_support.h"
#include "params/parameter_panel.h"
#include "plot/plot_view.h"
#include "scenarios/registry.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QTextBrowser>
#include <QtTest>

using namespace evx;

namespace {

Lesson loadedOrFail(const QString& id)
{
    auto lesson = loadLesson(id);
    if (const auto* why = std::get_if<QString>(&lesson))
        qFatal("%s", qPrintable(*why));
    return std::get<Lesson>(lesson);
}

// A lesson of two good steps with one field of step 2 replaced by `field: value` (raw JSON).
QByteArray lessonWith(const QString& field, const QString& value)
{
    QString step2 = R"({"scenario": "ue-gaussian", "set": {"zeta": 1}, "caption": "Two"})";
    if (!field.isEmpty()) {
        QJsonObject o = QJsonDocument::fromJson(step2.toUtf8()).object();
        o.remove(field);
        QString text = QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
        if (!value.isEmpty())
            text.replace(0, 1, QString("{\"%1\": %2%3").arg(field, value, o.isEmpty() ? "" : ", "));
        step2 = text;
    }
    return QString(R"({"format": "evidence-explorer-lesson", "version": 1, "title": "T", "steps": [
        {"scenario": "ue-gaussian", "preset": "fig2-left", "caption": "One"}, %1]})")
        .arg(step2)
        .toUtf8();
}

} // namespace

class TestLessons : public QObject {
    Q_OBJECT

private slots:
    // Five at least, one per paper, each 5 to 10 steps (the issue's bounds).
    void shippedLessonsCoverEveryPaper()
    {
        const QStringList ids = shippedLessonIds();
        QVERIFY2(ids.size() >= 5, qPrintable(ids.join(", ")));
        QSet<QString> topics;
        for (const QString& id : ids) {
            const Lesson lesson = loadedOrFail(id);
            QVERIFY2(lesson.steps.size() >= 5 && lesson.steps.size() <= 10,
                     qPrintable(QString("%1: %2 steps").arg(id).arg(lesson.steps.size())));
            QVERIFY2(!lesson.paper.isEmpty(), qPrintable(id));
            for (const LessonStep& step : lesson.steps)
                topics.insert(QString::fromStdString(
                    ScenarioRegistry::instance().find(step.scenarioId.toStdString())->info().topic));
        }
        QSet<QString> all;
        for (const auto& s : ScenarioRegistry::instance().all())
            all.insert(QString::fromStdString(s->info().topic));
        QCOMPARE(topics, all);
    }

    void everyStepRunsWithoutAWarning_data()
    {
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<int>("step");
        for (const QString& id : shippedLessonIds()) {
            const Lesson lesson = loadedOrFail(id);
            for (std::size_t k = 0; k < lesson.steps.size(); ++k)
                QTest::newRow(qPrintable(QString("%1 step %2").arg(id).arg(k + 1))) << id << int(k);
        }
    }

    void everyStepRunsWithoutAWarning()
    {
        QFETCH(QString, lesson);
        QFETCH(int, step);
        const LessonStep s = loadedOrFail(lesson).steps[std::size_t(step)];
        const auto scenario = ScenarioRegistry::instance().find(s.scenarioId.toStdString());
        std::vector<RunInput> inputs{s.input};
        for (const ParameterValues& pin : s.pins)
            inputs.push_back({pin, s.input.points, {}});
        for (const RunInput& input : inputs) {
            const Figure f = scenario->runChecked(input, {});
            QVERIFY(!f.plots.empty());
            QString warnings;
            for (const std::string& w : f.warnings)
                warnings += QString::fromStdString(w) + "; ";
            QVERIFY2(f.warnings.empty(), qPrintable(warnings));
        }
        // Every link in the caption sets values of this step's scenario.
        for (const QString& link : markupLinks(s.caption))
            QVERIFY2(!parseSetLink(link, scenario->schema()).empty(), qPrintable(link));
    }

    void malformedLessonsNameStepAndField_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown scenario")
            << lessonWith("scenario", "\"ue-nope\"") << "step 2, \"scenario\": unknown scenario 'ue-nope'";
        QTest::newRow("scenario not text") << lessonWith("scenario", "3") << "step 2, \"scenario\"";
        QTest::newRow("unknown preset") << lessonWith("preset", "\"fig9\"") << "step 2, \"preset\"";
        QTest::newRow("unknown parameter")
            << lessonWith("set", R"({"zeta": 1, "zetta": 2})")
            << "step 2, \"set\": scenario 'ue-gaussian' has no parameter 'zetta'";
        QTest::newRow("out of range") << lessonWith("set", R"({"sigma_q": -1})") << "step 2, \"set\": ";
        QTest::newRow("text not a number")
            << lessonWith("set", R"({"zeta": "two"})") << "step 2, \"set\": zeta: 'two' is not a number";
        QTest::newRow("set not an object") << lessonWith("set", "[1]") << "step 2, \"set\": not an object";
        QTest::newRow("no caption") << lessonWith("caption", "") << "step 2, \"caption\": missing or empty";
        QTest::newRow("bad caption link")
            << lessonWith("caption", R"x("[try](evx:set?zetta=1)")x")
            << "step 2, \"caption\": the link 'evx:set?zetta=1' names no parameter";
        QTest::newRow("caption link out of range")
            << lessonWith("caption", R"x("[try](evx:set?sigma_q=0)")x") << "step 2, \"caption\": ";
        QTest::newRow("caption link bad escape") << lessonWith("caption", R"x("[try](evx:set?zeta=%zz)")x")
                                                 << "step 2, \"caption\": the link has a bad escape";
        QTest::newRow("points on a scenario without")
            << lessonWith("points", "[[1, 0]]") << "step 2, \"points\": ";
        QTest::newRow("pins too many") << lessonWith("pins", "[{}, {}, {}, {}, {}]") << "step 2, \"pins\": ";
        QTest::newRow("pin bad value") << lessonWith("pins", R"([{"zeta": 99}])") << "step 2, \"pins\": ";
        QTest::newRow("unknown field")
            << lessonWith("caption2", "\"x\"") << "step 2 has an unknown field 'caption2'";
        QTest::newRow("not JSON") << QByteArray("{\"format\": ") << "not valid JSON";
        QTest::newRow("not a lesson")
            << QByteArray(R"({"format": "evidence-explorer-session"})") << "not a lesson";
        QTest::newRow("newer") << QByteArray(R"({"format": "evidence-explorer-lesson", "version": 2})")
                               << "format version 2";
        QTest::newRow("no steps")
            << QByteArray(
                   R"({"format": "evidence-explorer-lesson", "version": 1, "title": "T", "steps": []})")
            << "\"steps\" is not a list of 1 to 50 steps";
        QTest::newRow("first step without scenario")
            << QByteArray(
                   R"({"format": "evidence-explorer-lesson", "version": 1, "title": "T", "steps": [{"caption": "x"}]})")
            << "step 1, \"scenario\": missing";
    }

    void malformedLessonsNameStepAndField()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        auto lesson = parseLesson(json, "test");
        const auto* why = std::get_if<QString>(&lesson);
        QVERIFY2(why, "accepted");
        QVERIFY2(why->contains(expected), qPrintable(*why));
        QVERIFY2(!why->contains('\n'), qPrintable(*why));
    }

    void goodLessonParses()
    {
        auto lesson = parseLesson(lessonWith({}, {}), "test");
        QVERIFY2(std::holds_alternative<Lesson>(lesson),
                 std::holds_alternative<QString>(lesson) ? qPrintable(std::get<QString>(lesson)) : "");
        const Lesson& l = std::get<Lesson>(lesson);
        QCOMPARE(l.steps.size(), std::size_t(2));
        const auto s = ScenarioRegistry::instance().find("ue-gaussian");
        QVERIFY(l.steps[0].input.values == s->presetValues("fig2-left"));
        ParameterValues second = s->schema().defaults(); // a step never inherits the last one's values
        second["zeta"] = 1;
        QVERIFY(l.steps[1].input.values == second);
    }

    void setLinksSetExactlyWhatTheySay()
    {
        const auto s = ScenarioRegistry::instance().find("ue-gaussian");
        const ParameterValues changes = parseSetLink("evx:set?sigma_q=0.5&zeta=-1.25", s->schema());
        QCOMPARE(changes.size(), std::size_t(2));
        QCOMPARE(changes.at("sigma_q"), 0.5);
        QCOMPARE(changes.at("zeta"), -1.25);
        const auto b = ScenarioRegistry::instance().find("bq-1d");
        const ParameterValues choice = parseSetLink("evx:set?method=mc", b->schema());
        QCOMPARE(choice.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(b->schema().format("method", choice.at("method"))), QString("mc"));
        for (const QString& bad :
             {QString("evx:set?"), QString("evx:set?zeta=1&zeta=2"), QString("evx:set?nope=1"),
              QString("evx:set?zeta=abc"), QString("evx:set?zeta=%G0"), QString("evx://ue-gaussian?zeta=1"),
              QString("http://example.org")})
            QVERIFY_THROWS_EXCEPTION(InvalidParameter, parseSetLink(bad, s->schema()));
    }

    void captionMarkup()
    {
        const QString html = captionHtml("σ_q is *small*.\n\nTry [σ_q = 0.5](evx:set?sigma_q=0.5) & <b>");
        QVERIFY2(html.contains("σ<sub>q</sub>"), qPrintable(html));
        QVERIFY2(html.contains("<i>small</i>"), qPrintable(html));
        QVERIFY2(html.contains("<a href=\"evx:set?sigma_q=0.5\">σ<sub>q</sub> = 0.5</a>"), qPrintable(html));
        QVERIFY2(html.contains("&amp; &lt;b&gt;"), qPrintable(html));
        QCOMPARE(html.count("<p>"), 2);
    }

    // Every evx:set link in an explanation page (F1) names a parameter of its scenario.
    void explanationLinksParse()
    {
        int links = 0;
        for (const QFileInfo& page : QDir(EVX_SOURCE_DIR "/resources/explanations").entryInfoList({"*.md"})) {
            QFile f(page.filePath());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto s = ScenarioRegistry::instance().find(page.completeBaseName().toStdString());
            QVERIFY2(s, qPrintable(page.fileName()));
            for (const QString& link : markupLinks(QString::fromUtf8(f.readAll())))
                if (link.startsWith("evx:")) {
                    ++links;
                    QVERIFY2(!parseSetLink(link, s->schema()).empty(), qPrintable(link));
                }
        }
        QVERIFY2(links >= 5, qPrintable(QString::number(links)));
    }

    // The window: Page Down / Page Up step (whatever has focus), "Step k of n", a hand-moved
    // slider stays until Next, a caption link sets its value and redraws.
    void windowWalksALesson()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy shown(&w, &MainWindow::figureShown);
        const Lesson lesson = loadedOrFail(shippedLessonIds().front());
        QCOMPARE(w.openLessonFile(lesson.id), QString());
        QVERIFY(w.lessonPanel()->isVisible());
        QCOMPARE(w.lessonPanel()->stepText(), QString("Step 1 of %1").arg(lesson.steps.size()));
        QCOMPARE(w.currentScenarioId(), lesson.steps[0].scenarioId);
        QVERIFY(w.parameterPanel()->values() == lesson.steps[0].input.values);

        w.parameterPanel()->setFocus();
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &w, Qt::Key_PageDown);
        QCOMPARE(w.lessonStep(), 1);
        QCOMPARE(w.lessonPanel()->stepText(), QString("Step 2 of %1").arg(lesson.steps.size()));
        QCOMPARE(w.currentScenarioId(), lesson.steps[1].scenarioId);
        QVERIFY(w.parameterPanel()->values() == lesson.steps[1].input.values);

        // A value moved by hand stays while the step lasts; Back and Next bring the steps' own.
        ParameterValues moved = w.parameterPanel()->values();
        const ParameterSpec& first = w.parameterPanel()->schema().specs().front();
        moved[first.name] =
            first.kind == ParameterKind::Real ? (first.minimum + first.maximum) / 2 : first.minimum;
        w.parameterPanel()->setValues(moved);
        QVERIFY(settle(w, shown));
        QVERIFY(w.parameterPanel()->values() == moved);
        QTest::keyClick(&w, Qt::Key_PageUp);
        QCOMPARE(w.lessonStep(), 0);
        QVERIFY(w.parameterPanel()->values() == lesson.steps[0].input.values);
        QVERIFY(!w.lessonPanel()->backButton()->isEnabled());
        QTest::keyClick(&w, Qt::Key_PageUp); // nothing before step 1
        QCOMPARE(w.lessonStep(), 0);
        w.lessonPanel()->nextButton()->click();
        QCOMPARE(w.lessonStep(), 1);

        // A caption link sets exactly its values.
        const auto scenario = ScenarioRegistry::instance().find("ue-gaussian");
        QVERIFY(w.openScenario("ue-gaussian"));
        const ParameterValues before = w.parameterPanel()->values();
        QCOMPARE(w.activateLink(QUrl("evx:set?sigma_q=0.5")), QString());
        ParameterValues expected = before;
        expected["sigma_q"] = 0.5;
        QVERIFY(w.parameterPanel()->values() == expected);
        QVERIFY(settle(w, shown));
        QVERIFY(!w.activateLink(QUrl("evx:set?sigma_q=-3")).isEmpty());
        QVERIFY(w.parameterPanel()->values() == expected);

        // The page's Markdown keeps its links as links, and they are clicked as in a caption.
        QVERIFY2(w.explanationView()->toHtml().contains("href=\"evx:set?sigma_q=0.2\""),
                 qPrintable(w.explanationView()->toHtml().left(2000)));
        // The same links clicked in an explanation page (F1) and in a lesson caption.
        emit w.explanationView()->anchorClicked(QUrl("evx:set?zeta=3"));
        expected["zeta"] = 3;
        QVERIFY(w.parameterPanel()->values() == expected);
        emit w.lessonPanel()->captionView()->anchorClicked(QUrl("evx:set?sigma_q=0.75&zeta=-1"));
        expected["sigma_q"] = 0.75;
        expected["zeta"] = -1;
        QVERIFY(w.parameterPanel()->values() == expected);

        w.closeLesson();
        QVERIFY(!w.lessonPanel()->isVisible());
        QTest::keyClick(&w, Qt::Key_PageDown);
        QCOMPARE(w.lessonStep(), -1);
    }
};

QTEST_MAIN(TestLessons)
#include "test_lessons.moc"
