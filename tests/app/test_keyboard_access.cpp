// Everything reachable by keyboard, with names a screen reader can speak (issue 40 §4): a walk
// through the window with Tab alone reaches every control that takes focus (scenario list,
// every parameter, the lesson's steps, the summary), each with an accessible name, and the
// summary's rows are read out as "quantity, value".

#include "animation_dialog.h"
#include "export_dialog.h"
#include "main_window.h"
#include "scenarios/registry.h"
#include "summary/summary_table.h"

#include <QAbstractItemView>
#include <QAccessible>
#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace evx;

namespace {

// Controls of the window a user can move focus to with Tab: visible, enabled, TabFocus.
QList<QWidget*> tabbableControls(QWidget* window)
{
    QList<QWidget*> out;
    for (QWidget* w : window->findChildren<QWidget*>()) {
        if (!w->isVisible() || !w->isEnabled() || !(w->focusPolicy() & Qt::TabFocus))
            continue;
        if (w->focusProxy())
            continue; // focus goes to the proxy, which is listed itself
        out << w;
    }
    return out;
}

QString describe(QWidget* w)
{
    return QStringLiteral("%1 \"%2\"").arg(w->metaObject()->className(), w->objectName());
}

QString accessibleName(QWidget* w)
{
    QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(w);
    return iface ? iface->text(QAccessible::Name) : QString();
}

// Tabs from the window's first focus until focus comes back around; the widgets it visited.
QList<QWidget*> walkWithTab(QWidget* window)
{
    QList<QWidget*> seen;
    QWidget* start = QApplication::focusWidget();
    for (int i = 0; i < 500; ++i) {
        QWidget* now = QApplication::focusWidget();
        if (!now)
            break;
        if (!seen.contains(now))
            seen << now;
        else if (i > 0 && now == start)
            break;
        QTest::keyClick(now, Qt::Key_Tab);
    }
    Q_UNUSED(window);
    return seen;
}

// Tab reaches every field of the dialog, each with an accessible name, and the main window's
// action whose text starts with actionText opens it with the given shortcut. QVERIFY returns
// from here only: callers need nothing after it.
void checkDialogByKeyboard(QDialog& dialog, const QString& actionText, const QKeySequence& shortcut)
{
    dialog.show();
    QApplication::setActiveWindow(&dialog);
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    if (!QApplication::focusWidget())
        QTest::keyClick(&dialog, Qt::Key_Tab);
    const QList<QWidget*> reached = walkWithTab(&dialog);
    QStringList missed, unnamed;
    for (QWidget* c : tabbableControls(&dialog))
        if (!reached.contains(c))
            missed << describe(c);
    for (QWidget* c : reached)
        if (accessibleName(c).trimmed().isEmpty())
            unnamed << describe(c);
    QVERIFY2(missed.isEmpty(), qPrintable("Tab never reaches: " + missed.join(", ")));
    QVERIFY2(unnamed.isEmpty(), qPrintable("no accessible name: " + unnamed.join(", ")));

    MainWindow w;
    QAction* action = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text().startsWith(actionText))
            action = a;
    QVERIFY(action);
    QCOMPARE(action->shortcut(), shortcut);
}

} // namespace

class TestKeyboardAccess : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void tabAloneReachesEveryControl_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<bool>("lesson");
        QTest::newRow("ue-gaussian") << "ue-gaussian" << false;
        QTest::newRow("bq-1d") << "bq-1d" << false;
        QTest::newRow("a lesson") << "ue-gaussian" << true;
    }
    void tabAloneReachesEveryControl()
    {
        QFETCH(QString, scenario);
        QFETCH(bool, lesson);
        MainWindow w;
        w.resize(1400, 900);
        QVERIFY(w.openScenario(scenario));
        if (lesson)
            QCOMPARE(w.openLessonFile("uncertain-evidence"), QString());
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        if (!QApplication::focusWidget())
            QTest::keyClick(&w, Qt::Key_Tab);
        QVERIFY2(QApplication::focusWidget(), "nothing has the focus");

        const QList<QWidget*> reached = walkWithTab(&w);
        QStringList missed, unnamed;
        for (QWidget* c : tabbableControls(&w))
            if (!reached.contains(c))
                missed << describe(c);
        for (QWidget* c : reached)
            if (accessibleName(c).trimmed().isEmpty())
                unnamed << describe(c);
        QStringList walk;
        for (QWidget* c : reached)
            walk << describe(c);
        QVERIFY2(missed.isEmpty(),
                 qPrintable("Tab never reaches: " + missed.join(", ") + "\nTab walks: " + walk.join(" → ")));
        QVERIFY2(unnamed.isEmpty(), qPrintable("no accessible name: " + unnamed.join(", ")));
    }

    // The export dialog (Ctrl+E, or File → Export with Alt+F): Tab reaches every field, each named.
    void exportDialogByKeyboard()
    {
        const auto s = ScenarioRegistry::instance().find("ue-drop-ball");
        ExportDialog dialog("ue-drop-ball", s->run(s->schema().defaults(), {}), QSize(900, 600), 9, nullptr);
        checkDialogByKeyboard(dialog, "&Export", QKeySequence(QStringLiteral("Ctrl+E")));
    }

    // File → Export Animation… (Ctrl+Shift+E): Tab reaches every field, each named.
    void animationDialogByKeyboard()
    {
        const auto s = ScenarioRegistry::instance().find("ue-drop-ball");
        AnimationDialog dialog(s, {s->schema().defaults(), {}, {}}, QSize(1280, 720), 9, nullptr);
        checkDialogByKeyboard(dialog, "Export A&nimation", QKeySequence(QStringLiteral("Ctrl+Shift+E")));
    }

    // The summary as a screen reader gets it: a table named "Summary" whose cells are the
    // quantity in words and its value, as on screen.
    void summaryIsReadable()
    {
        MainWindow w;
        QVERIFY(w.openScenario("ue-gaussian"));
        QTRY_VERIFY(w.summaryTable()->rowCount() > 0);
        QAccessibleInterface* table = QAccessible::queryAccessibleInterface(w.summaryTable());
        QVERIFY(table && table->tableInterface());
        QCOMPARE(table->text(QAccessible::Name), QString("Summary"));
        QAccessibleTableInterface* t = table->tableInterface();
        QCOMPARE(t->rowCount(), w.summaryTable()->rowCount());
        for (int r = 0; r < t->rowCount(); ++r) {
            const QString name = t->cellAt(r, 0)->text(QAccessible::Name);
            const QString value = t->cellAt(r, 1)->text(QAccessible::Name);
            QVERIFY2(!name.isEmpty() && !value.isEmpty(),
                     qPrintable(QString("row %1: '%2', '%3'").arg(r).arg(name, value)));
            QCOMPARE(value, w.summaryTable()->item(r, 1)->text());
            QVERIFY2(!name.contains('<'),
                     qPrintable(QString("row %1 read out as markup: %2").arg(r).arg(name)));
        }
    }
};

QTEST_MAIN(TestKeyboardAccess)
#include "test_keyboard_access.moc"
