// Links that open a state (state_link.h): every scenario's defaults and presets round-trip to
// the same values, a link of a session computes the same summary as the session, and hostile
// links (unknown names, values out of range, 100 KB, bad escapes) are refused with one line.
#include "core/errors.h"
#include "lesson.h"
#include "main_window.h"
#include "main_window_support.h"
#include "params/parameter_panel.h"
#include "scenarios/registry.h"
#include "session.h"
#include "state_link.h"

#include <QApplication>
#include <QClipboard>
#include <QMenuBar>
#include <QSignalSpy>
#include <QtTest>

using namespace evx;

namespace {

Session parsedOrFail(const QString& link)
{
    auto parsed = parseStateLink(link);
    if (const auto* why = std::get_if<QString>(&parsed))
        qFatal("link %s refused: %s", qPrintable(link.left(200)), qPrintable(*why));
    return std::get<Session>(parsed);
}

QString refusal(const QString& link)
{
    auto parsed = parseStateLink(link);
    const auto* why = std::get_if<QString>(&parsed);
    return why ? *why : QString();
}

// Names every parameter whose value differs, with both values at full precision.
QString differences(const ParameterValues& a, const ParameterValues& b)
{
    QStringList out;
    for (const auto& [name, value] : a) {
        const auto it = b.find(name);
        if (it == b.end() || it->second != value)
            out << QString("%1: %2 vs %3")
                       .arg(QString::fromStdString(name))
                       .arg(value, 0, 'g', 17)
                       .arg(it == b.end() ? qQNaN() : it->second, 0, 'g', 17);
    }
    if (a.size() != b.size())
        out << QString("%1 vs %2 parameters").arg(a.size()).arg(b.size());
    return out.join("; ");
}

} // namespace

class TestStateLink : public QObject {
    Q_OBJECT

private slots:
    void everyPresetRoundTrips_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("preset");
        for (const auto& s : ScenarioRegistry::instance().all()) {
            const QString id = QString::fromStdString(s->info().id);
            QTest::newRow(qPrintable(id + " defaults")) << id << QString();
            for (const Preset& p : s->presets())
                QTest::newRow(qPrintable(id + " " + QString::fromStdString(p.name)))
                    << id << QString::fromStdString(p.name);
        }
    }

    void everyPresetRoundTrips()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, preset);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        RunInput input;
        input.values = preset.isEmpty() ? s->schema().defaults() : s->presetValues(preset.toStdString());
        const QString link = stateLinkFor(scenario, s->schema(), input);
        QVERIFY2(link.startsWith("evx://" + scenario + "?"), qPrintable(link));
        QVERIFY2(link.size() < kMaxLinkCharacters / 4, qPrintable(QString::number(link.size())));
        const Session back = parsedOrFail(link);
        QCOMPARE(back.scenarioId, scenario);
        QVERIFY2(back.input.values == input.values, qPrintable(differences(back.input.values, input.values)));
        QVERIFY(back.input.points.empty());
    }

    // Values that no slider step reaches come back as the same doubles: the link writes the
    // shortest text that reads back exactly, not the panel's rounded display.
    void awkwardNumbersRoundTripExactly()
    {
        const auto s = ScenarioRegistry::instance().find("ue-gaussian");
        RunInput input{s->schema().defaults(), {}, {}};
        for (const ParameterSpec& spec : s->schema().specs())
            if (spec.kind == ParameterKind::Real)
                input.values[spec.name] = spec.minimum + (spec.maximum - spec.minimum) / 3.0;
        const Session back = parsedOrFail(stateLinkFor("ue-gaussian", s->schema(), input));
        QVERIFY2(back.input.values == input.values, qPrintable(differences(back.input.values, input.values)));
    }

    void pointsRoundTripInOrder()
    {
        const auto s = ScenarioRegistry::instance().find("bq-1d");
        RunInput input{s->schema().defaults(), {{0.5, 0}, {-2.25, 0}, {1.0 / 3, 0}}, {}};
        const QString link = stateLinkFor("bq-1d", s->schema(), input);
        QVERIFY2(link.contains("&point=0.5,0&point=-2.25,0&point=0.3333333333333333,0"), qPrintable(link));
        QVERIFY(parsedOrFail(link).input.points == input.points);
    }

    void dataFileIsRefused()
    {
        const auto s = ScenarioRegistry::instance().find("wvo-attainment");
        RunInput input{s->schema().defaults(), {}, "/tmp/some.csv"};
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, stateLinkFor("wvo-attainment", s->schema(), input));
    }

    // "A copied link round-trips to the same summary as the session it came from": the session
    // through its file format, the link through its text, both run, summaries equal.
    void linkOfASessionComputesItsSummary_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("changed");
        QTest::newRow("ue-gaussian fig2-right") << "ue-gaussian"
                                                << "fig2-right"
                                                << "zeta";
        QTest::newRow("ue-drop-ball fig4") << "ue-drop-ball"
                                           << "fig4"
                                           << "sigma_obs";
        QTest::newRow("ue-discrete") << "ue-discrete"
                                     << ""
                                     << "";
        QTest::newRow("bq-1d with points") << "bq-1d"
                                           << ""
                                           << "";
        QTest::newRow("wvo-normal") << "wvo-normal"
                                    << ""
                                    << "";
        QTest::newRow("wvo-beta-bernoulli") << "wvo-beta-bernoulli"
                                            << ""
                                            << "";
    }

    void linkOfASessionComputesItsSummary()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, preset);
        QFETCH(QString, changed);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        Session session;
        session.scenarioId = scenario;
        session.input.values =
            preset.isEmpty() ? s->schema().defaults() : s->presetValues(preset.toStdString());
        if (!changed.isEmpty()) {
            const ParameterSpec* spec = s->schema().find(changed.toStdString());
            QVERIFY(spec);
            session.input.values[spec->name] = spec->minimum + (spec->maximum - spec->minimum) * 0.37;
        }
        if (s->inputs().userPoints)
            session.input.points = {{0.7, 0}, {-1.3, 0}};
        auto reopened = parseSession(sessionToJson(session, s->schema()));
        QVERIFY(std::holds_alternative<Session>(reopened));
        const Session fromFile = std::get<Session>(reopened);
        const Session fromLink = parsedOrFail(stateLinkFor(scenario, s->schema(), fromFile.input));
        QCOMPARE(fromLink.scenarioId, fromFile.scenarioId);
        QVERIFY(fromLink.input.points == fromFile.input.points);
        const Figure a = s->runChecked(fromFile.input, {});
        const Figure b = s->runChecked(fromLink.input, {});
        QVERIFY(!a.summary.empty());
        QCOMPARE(b.summary.entries().size(), a.summary.entries().size());
        for (std::size_t i = 0; i < a.summary.entries().size(); ++i) {
            QCOMPARE(QString::fromStdString(b.summary.entries()[i].first),
                     QString::fromStdString(a.summary.entries()[i].first));
            QCOMPARE(b.summary.entries()[i].second, a.summary.entries()[i].second);
        }
    }

    // What other programs do to a link on its way (upper-case scheme and host, a trailing
    // slash, a fragment) does not change the state; a preset then values over it applies both.
    void toleratedForms()
    {
        const auto s = ScenarioRegistry::instance().find("ue-gaussian");
        ParameterValues expected = s->presetValues("fig2-left");
        expected["zeta"] = 2.5;
        for (const QString& link : {QString("evx://ue-gaussian?preset=fig2-left&zeta=2.5"),
                                    QString("EVX://UE-Gaussian/?zeta=2.5&preset=fig2-left#top"),
                                    QString("evx://ue-gaussian?preset=fig2%2Dleft&%7Aeta=2.5&")}) {
            const Session back = parsedOrFail(link);
            QCOMPARE(back.scenarioId, QString("ue-gaussian"));
            QVERIFY2(back.input.values == expected,
                     qPrintable(link + ": " + differences(back.input.values, expected)));
        }
        const Session bare = parsedOrFail("evx://ue-discrete");
        QVERIFY(bare.input.values == ScenarioRegistry::instance().find("ue-discrete")->schema().defaults());
    }

    // A link may say which shipped lesson and step it belongs to; a lesson file never.
    void lessonStepsRoundTrip()
    {
        for (const QString& id : shippedLessonIds()) {
            const Lesson lesson = std::get<Lesson>(loadLesson(id));
            for (std::size_t k = 0; k < lesson.steps.size(); ++k) {
                const LessonStep& step = lesson.steps[k];
                const auto s = ScenarioRegistry::instance().find(step.scenarioId.toStdString());
                const QString link = stateLinkFor(step.scenarioId, s->schema(), step.input, {id, int(k)});
                QVERIFY2(link.endsWith(QString("&lesson=%1&step=%2").arg(id).arg(k + 1)), qPrintable(link));
                LessonPosition position;
                auto parsed = parseStateLink(link, &position);
                QVERIFY2(std::holds_alternative<Session>(parsed), qPrintable(refusal(link)));
                QCOMPARE(position.lesson, id);
                QCOMPARE(position.step, int(k));
                QVERIFY(std::get<Session>(parsed).input.values == step.input.values);
            }
        }
    }

    void hostileLinksAreRefusedWithOneLine_data()
    {
        QTest::addColumn<QString>("link");
        QTest::addColumn<QString>("expected"); // a fragment of the message
        QTest::newRow("unknown key") << "evx://ue-gaussian?zeta=2&colour=red"
                                     << "has no parameter 'colour'";
        QTest::newRow("out of range") << "evx://ue-gaussian?sigma_x=-1"
                                      << "sigma_x";
        QTest::newRow("not a number") << "evx://ue-gaussian?zeta=two"
                                      << "'two' is not a number";
        QTest::newRow("infinite") << "evx://ue-gaussian?zeta=inf"
                                  << "zeta";
        QTest::newRow("100 KB") << "evx://ue-gaussian?zeta=" + QString(100 * 1024, '1') << "at most 8192";
        QTest::newRow("bad escape") << "evx://ue-gaussian?zeta=%zz"
                                    << "bad escape '%zz'";
        QTest::newRow("cut escape") << "evx://ue-gaussian?zeta=1%2"
                                    << "bad escape '%2'";
        QTest::newRow("not UTF-8") << "evx://ue-gaussian?zeta=%ff%fe"
                                   << "not UTF-8";
        QTest::newRow("escaped control") << "evx://ue-gaussian?zeta=%1b%5b2J"
                                         << "\\x1b";
        QTest::newRow("twice") << "evx://ue-gaussian?zeta=1&zeta=2"
                               << "gives 'zeta' twice";
        QTest::newRow("no value") << "evx://ue-gaussian?zeta"
                                  << "is not name=value";
        QTest::newRow("no name") << "evx://ue-gaussian?=3"
                                 << "has no name";
        QTest::newRow("unknown scenario") << "evx://no-such-thing?x=1"
                                          << "unknown scenario 'no-such-thing'";
        QTest::newRow("unknown preset") << "evx://ue-gaussian?preset=fig9"
                                        << "fig9";
        QTest::newRow("other scheme") << "http://ue-gaussian?zeta=1"
                                      << "not a link of the form evx://";
        QTest::newRow("no slashes") << "evx:ue-gaussian"
                                    << "not a link of the form evx://";
        QTest::newRow("points to a scenario without") << "evx://ue-gaussian?point=1"
                                                      << "point";
        QTest::newRow("bad point") << "evx://bq-1d?point=1,x"
                                   << "is not x or x,y";
        QTest::newRow("point outside its box") << "evx://bq-1d?point=1e9"
                                               << "point";
        const QString lesson = shippedLessonIds().front();
        const QString scenario = std::get<Lesson>(loadLesson(lesson)).steps.front().scenarioId;
        QTest::newRow("unknown lesson") << "evx://ue-gaussian?lesson=nope&step=1"
                                        << "no shipped lesson 'nope'";
        QTest::newRow("lesson file") << "evx://ue-gaussian?lesson=%2Ftmp%2Fx.json&step=1"
                                     << "no shipped lesson";
        QTest::newRow("lesson without step")
            << QString("evx://%1?lesson=%2").arg(scenario, lesson) << "without a step";
        QTest::newRow("step past the end")
            << QString("evx://%1?lesson=%2&step=99").arg(scenario, lesson) << "has steps 1 to";
        QTest::newRow("step of another scenario")
            << QString("evx://%1?lesson=%2&step=1").arg(scenario == "bq-1d" ? "ue-gaussian" : "bq-1d", lesson)
            << "is not that of step 1";
        QString many = "evx://bq-1d?";
        for (int i = 0; i < 200; ++i)
            many += QString("point=%1&").arg(i * 0.01);
        QTest::newRow("too many points") << many << "points";
    }

    void hostileLinksAreRefusedWithOneLine()
    {
        QFETCH(QString, link);
        QFETCH(QString, expected);
        const QString why = refusal(link);
        QVERIFY2(!why.isEmpty(), "accepted");
        QVERIFY2(why.contains(expected), qPrintable(why));
        QVERIFY2(!why.contains('\n') && !why.contains(QChar(0x1b)), qPrintable(why));
        QVERIFY2(why.size() < 300,
                 qPrintable(QString("%1 characters: %2").arg(why.size()).arg(why.left(300))));
    }

    // Edit → Copy Link puts the state on the clipboard; opening it in another window shows the
    // same values; a refused link leaves the window as it was.
    void windowCopiesAndOpensLinks()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(w.openScenario("ue-drop-ball"));
        w.applyPreset("fig4");
        QVERIFY(settle(w, shown));
        QAction* copy = nullptr;
        for (QAction* menu : w.menuBar()->actions())
            if (menu->text() == "&Edit")
                for (QAction* a : menu->menu()->actions())
                    if (a->shortcut() == QKeySequence("Ctrl+Shift+L"))
                        copy = a;
        QVERIFY2(copy, "no Edit entry on Ctrl+Shift+L");
        QApplication::clipboard()->clear();
        copy->trigger();
        const QString link = QApplication::clipboard()->text();
        QVERIFY2(link.startsWith("evx://ue-drop-ball?"), qPrintable(link));
        QCOMPARE(link, w.currentLink());

        MainWindow other;
        QSignalSpy otherShown(&other, &MainWindow::figureShown);
        QCOMPARE(other.openLink(link), QString());
        QCOMPARE(other.currentScenarioId(), QString("ue-drop-ball"));
        QVERIFY(other.parameterPanel()->values() == w.parameterPanel()->values());
        QVERIFY(settle(other, otherShown));
        QVERIFY(other.currentFigure().summary.entries() == w.currentFigure().summary.entries());

        const ParameterValues before = other.parameterPanel()->values();
        QVERIFY(!other.openLink("evx://ue-gaussian?zeta=%zz").isEmpty());
        QCOMPARE(other.currentScenarioId(), QString("ue-drop-ball"));
        QVERIFY(other.parameterPanel()->values() == before);
        QVERIFY2(other.errorText().contains("bad escape"), qPrintable(other.errorText()));
    }
};

QTEST_MAIN(TestStateLink)
#include "test_state_link.moc"
