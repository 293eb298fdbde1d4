// SummaryTable (formatting, consistency flags, warnings, copy) and ScenarioBrowser
// (grouping by topic, silent setCurrent, activation by the user).

#include "browser/scenario_browser.h"
#include "summary/summary_table.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QSignalSpy>
#include <QTest>

#include <limits>

using evx::ScenarioBrowser;
using evx::ScenarioInfo;
using evx::Summary;
using evx::SummaryTable;

namespace {

Summary sampleSummary()
{
    Summary s;
    s.set("jeffrey.mean", 1.5);
    s.set("jeffrey.sd", 0.123456789);
    s.set("virtual.consistent", 1);
    s.set("distributional.consistent", 0);
    s.set("bq.evidence", 1234567.89);
    return s;
}

std::vector<ScenarioInfo> sampleScenarios()
{
    return {
        {"ue-gaussian", "Gaussian model", "Uncertain evidence", "Three interpretations"},
        {"bq-peaked", "Peaked likelihood", "Bayesian quadrature", "log-GP BQ"},
        {"ue-ball", "Drop of a ball", "Uncertain evidence", "Noisy timing"},
    };
}

void clickItem(ScenarioBrowser& browser, QTreeWidgetItem* item)
{
    const QPoint centre = browser.visualItemRect(item).center();
    QTest::mouseClick(browser.viewport(), Qt::LeftButton, {}, centre);
}

}  // namespace

class TestSummaryAndBrowser : public QObject {
    Q_OBJECT

private slots:
    void summaryFillsRowsInOrder();
    void formatsValues_data();
    void formatsValues();
    void consistencyKeysAreColoured_data();
    void consistencyKeysAreColoured();
    void warningsFollowAsRows();
    void newSummaryReplacesOld();
    void ctrlCCopiesSelectionAsTsv();
    void copyAllIncludesHeaderAndWarnings();

    void browserGroupsByTopic();
    void topicItemsAreNotSelectable();
    void setCurrentSelectsWithoutEmitting();
    void clickingScenarioEmitsId();
    void keyboardSelectionEmitsId();
    void clickingTopicEmitsNothing();
};

void TestSummaryAndBrowser::summaryFillsRowsInOrder()
{
    SummaryTable table;
    table.setSummary(sampleSummary());
    QCOMPARE(table.columnCount(), 2);
    QCOMPARE(table.horizontalHeaderItem(0)->text(), QString("Quantity"));
    QCOMPARE(table.horizontalHeaderItem(1)->text(), QString("Value"));
    const QStringList keys{"jeffrey.mean", "jeffrey.sd", "virtual.consistent",
                           "distributional.consistent", "bq.evidence"};
    QCOMPARE(table.rowCount(), keys.size());
    for (int r = 0; r < keys.size(); ++r)
        QCOMPARE(table.item(r, 0)->text(), keys[r]);
    QCOMPARE(table.item(1, 1)->text(), QString("0.123457"));
    QCOMPARE(table.valueText("no.such.key"), QString());
}

void TestSummaryAndBrowser::formatsValues_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("six significant digits") << 0.123456789 << "0.123457";
    QTest::newRow("short stays short") << -2.5 << "-2.5";
    QTest::newRow("zero") << 0.0 << "0";
    QTest::newRow("large") << 1234567.89 << "1.23457e+06";
    QTest::newRow("small") << 1.5e-7 << "1.5e-07";
    QTest::newRow("not a number") << std::numeric_limits<double>::quiet_NaN() << "NaN";
}

void TestSummaryAndBrowser::formatsValues()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    Summary s;
    s.set("x.value", value);
    SummaryTable table;
    table.setSummary(s);
    QCOMPARE(table.valueText("x.value"), expected);
}

void TestSummaryAndBrowser::consistencyKeysAreColoured_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("green");
    QTest::newRow("consistent") << "virtual.consistent" << "yes (1)" << true;
    QTest::newRow("inconsistent") << "distributional.consistent" << "no (0)" << false;
}

void TestSummaryAndBrowser::consistencyKeysAreColoured()
{
    QFETCH(QString, key);
    QFETCH(QString, expected);
    QFETCH(bool, green);
    SummaryTable table;
    table.setSummary(sampleSummary());
    QCOMPARE(table.valueText(key), expected);
    const auto found = table.findItems(expected, Qt::MatchExactly);
    QCOMPARE(found.size(), 1);
    const QColor colour = found.first()->foreground().color();
    if (green)
        QVERIFY(colour.green() > 2 * colour.red());
    else
        QVERIFY(colour.red() > 2 * colour.green());
    // An ordinary key with the same value is just a number.
    QCOMPARE(table.valueText("jeffrey.mean"), QString("1.5"));
}

void TestSummaryAndBrowser::warningsFollowAsRows()
{
    SummaryTable table;
    table.setSummary(sampleSummary(), {"KDE bandwidth clipped", "chain not converged"});
    QCOMPARE(table.rowCount(), 7);
    QCOMPARE(table.item(5, 0)->text(), QString("⚠ KDE bandwidth clipped"));
    QCOMPARE(table.item(6, 0)->text(), QString("⚠ chain not converged"));
    QCOMPARE(table.columnSpan(6, 0), 2);
    const QColor colour = table.item(5, 0)->foreground().color();
    QVERIFY(colour.red() > colour.green() && colour.green() > colour.blue());  // orange
}

void TestSummaryAndBrowser::newSummaryReplacesOld()
{
    SummaryTable table;
    table.setSummary(sampleSummary(), {"old warning"});
    Summary s;
    s.set("a.b", 2);
    table.setSummary(s);
    QCOMPARE(table.rowCount(), 1);
    QCOMPARE(table.valueText("a.b"), QString("2"));
    QCOMPARE(table.valueText("jeffrey.mean"), QString());
    QCOMPARE(table.columnSpan(0, 0), 1);
}

void TestSummaryAndBrowser::ctrlCCopiesSelectionAsTsv()
{
    SummaryTable table;
    table.setSummary(sampleSummary());
    table.show();
    QVERIFY(QTest::qWaitForWindowExposed(&table));
    QGuiApplication::clipboard()->setText("stale");
    table.setRangeSelected(QTableWidgetSelectionRange(0, 0, 1, 1), true);
    QTest::keySequence(&table, QKeySequence::Copy);
    QCOMPARE(QGuiApplication::clipboard()->text(),
             QString("jeffrey.mean\t1.5\njeffrey.sd\t0.123457"));

    table.clearSelection();
    table.setRangeSelected(QTableWidgetSelectionRange(2, 1, 3, 1), true);
    QTest::keySequence(&table, QKeySequence::Copy);
    QCOMPARE(QGuiApplication::clipboard()->text(), QString("yes (1)\nno (0)"));
}

void TestSummaryAndBrowser::copyAllIncludesHeaderAndWarnings()
{
    Summary s;
    s.set("a.mean", 1);
    s.set("a.sd", 0.5);
    SummaryTable table;
    table.setSummary(s, {"too few samples"});
    QAction* copyAll = nullptr;
    for (QAction* action : table.actions())
        if (action->text() == "Copy all")
            copyAll = action;
    QVERIFY2(copyAll, "no \"Copy all\" in the context menu");
    QCOMPARE(table.contextMenuPolicy(), Qt::ActionsContextMenu);
    QGuiApplication::clipboard()->setText("stale");
    copyAll->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(),
             QString("Quantity\tValue\na.mean\t1\na.sd\t0.5\n⚠ too few samples"));
}

void TestSummaryAndBrowser::browserGroupsByTopic()
{
    ScenarioBrowser browser;
    browser.setScenarios(sampleScenarios());
    QCOMPARE(browser.topLevelItemCount(), 2);
    QTreeWidgetItem* evidence = browser.topLevelItem(0);
    QTreeWidgetItem* quadrature = browser.topLevelItem(1);
    QCOMPARE(evidence->text(0), QString("Uncertain evidence"));
    QCOMPARE(quadrature->text(0), QString("Bayesian quadrature"));
    QVERIFY(evidence->font(0).bold());
    QCOMPARE(evidence->childCount(), 2);
    QCOMPARE(quadrature->childCount(), 1);
    QCOMPARE(evidence->child(0)->text(0), QString("Gaussian model"));
    QCOMPARE(evidence->child(0)->data(0, Qt::UserRole).toString(), QString("ue-gaussian"));
    QCOMPARE(evidence->child(1)->data(0, Qt::UserRole).toString(), QString("ue-ball"));
    QCOMPARE(evidence->child(1)->toolTip(0), QString("Noisy timing"));
    QCOMPARE(quadrature->child(0)->data(0, Qt::UserRole).toString(), QString("bq-peaked"));
    QVERIFY(evidence->isExpanded());

    browser.setScenarios({sampleScenarios()[1]});
    QCOMPARE(browser.topLevelItemCount(), 1);
}

void TestSummaryAndBrowser::topicItemsAreNotSelectable()
{
    ScenarioBrowser browser;
    browser.setScenarios(sampleScenarios());
    for (int t = 0; t < browser.topLevelItemCount(); ++t) {
        QVERIFY(!(browser.topLevelItem(t)->flags() & Qt::ItemIsSelectable));
        QVERIFY(browser.topLevelItem(t)->child(0)->flags() & Qt::ItemIsSelectable);
    }
}

void TestSummaryAndBrowser::setCurrentSelectsWithoutEmitting()
{
    ScenarioBrowser browser;
    browser.setScenarios(sampleScenarios());
    QSignalSpy activated(&browser, &ScenarioBrowser::scenarioActivated);
    browser.setCurrent("bq-peaked");
    QCOMPARE(activated.count(), 0);
    QCOMPARE(browser.current(), QString("bq-peaked"));
    QCOMPARE(browser.selectedItems().size(), 1);
    QCOMPARE(browser.selectedItems().first()->data(0, Qt::UserRole).toString(),
             QString("bq-peaked"));

    browser.setCurrent("no-such-scenario");
    QCOMPARE(activated.count(), 0);
    QCOMPARE(browser.current(), QString());
    QVERIFY(browser.selectedItems().isEmpty());
}

void TestSummaryAndBrowser::clickingScenarioEmitsId()
{
    ScenarioBrowser browser;
    browser.setScenarios(sampleScenarios());
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    QSignalSpy activated(&browser, &ScenarioBrowser::scenarioActivated);
    QTreeWidgetItem* ball = browser.itemFor("ue-ball");
    QVERIFY(ball);
    clickItem(browser, ball);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toString(), QString("ue-ball"));
    QCOMPARE(browser.current(), QString("ue-ball"));
    // Clicking the scenario already shown does not restart it.
    clickItem(browser, ball);
    QCOMPARE(activated.count(), 1);
}

void TestSummaryAndBrowser::keyboardSelectionEmitsId()
{
    ScenarioBrowser browser;
    browser.setScenarios(sampleScenarios());
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    browser.setCurrent("ue-gaussian");
    QSignalSpy activated(&browser, &ScenarioBrowser::scenarioActivated);
    QTest::keyClick(&browser, Qt::Key_Down);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toString(), QString("ue-ball"));
}

void TestSummaryAndBrowser::clickingTopicEmitsNothing()
{
    ScenarioBrowser browser;
    browser.setScenarios(sampleScenarios());
    browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&browser));
    browser.setCurrent("ue-gaussian");
    QSignalSpy activated(&browser, &ScenarioBrowser::scenarioActivated);
    QTreeWidgetItem* topic = browser.topLevelItem(1);
    clickItem(browser, topic);
    QCOMPARE(activated.count(), 0);
    QVERIFY(!topic->isSelected());
    QCOMPARE(browser.current(), QString("ue-gaussian"));
}

QTEST_MAIN(TestSummaryAndBrowser)
#include "test_summary_and_browser.moc"
