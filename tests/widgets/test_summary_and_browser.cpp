// SummaryTable (formatting, consistency flags, warnings, copy) and ScenarioBrowser
// (grouping by topic, silent setCurrent, activation by the user).

#include "browser/scenario_browser.h"
#include "summary/summary_table.h"

#include <QAction>
#include <QBuffer>
#include <QClipboard>
#include <QGuiApplication>
#include <QPainter>
#include <QSignalSpy>
#include <QSvgGenerator>
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

} // namespace

class TestSummaryAndBrowser : public QObject {
    Q_OBJECT

private slots:
    void summaryFillsRowsInOrder();
    void formatsValues_data();
    void formatsValues();
    void consistencyKeysAreColoured_data();
    void consistencyKeysAreColoured();
    void warningsFollowAsRows();
    void quantityNamesDrawScripts();
    void newSummaryReplacesOld();
    void ctrlCCopiesSelectionAsTsv();
    void copyAllIncludesHeaderAndWarnings();
    void unitsFromParametersAndHints();
    void timesShareOneUnit_data();
    void timesShareOneUnit();
    void roundingNoiseShowsAsZero();

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
    const QStringList keys{"jeffrey.mean", "jeffrey.sd", "virtual.consistent", "distributional.consistent",
                           "bq.evidence"};
    const QStringList names{"Jeffrey's rule: mean", "Jeffrey's rule: sd", "Virtual evidence: consistent",
                            "Distributional evidence: consistent", "BQ: evidence"};
    QCOMPARE(table.rowCount(), keys.size());
    for (int r = 0; r < keys.size(); ++r) {
        QCOMPARE(table.item(r, 0)->text(), names[r]);
        QCOMPARE(table.item(r, 0)->toolTip(), keys[r]); // the stable key stays at hand
        QCOMPARE(table.nameText(keys[r]), names[r]);
    }
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
    QTest::newRow("large") << 1234567.89 << "1.23457×10⁶";
    QTest::newRow("small") << 1.5e-7 << "1.5×10⁻⁷";
    QTest::newRow("a power of ten") << 1e-9 << "10⁻⁹";
    QTest::newRow("fixed down to 1e-4") << 1.5e-4 << "0.00015";
    QTest::newRow("1e-4 itself") << 1e-4 << "0.0001";
    QTest::newRow("fixed up to 1e6") << 123456.789 << "123457";
    QTest::newRow("a count in full") << 641280.0 << "641280";
    QTest::newRow("a large count in full") << 12345678.0 << "12345678";
    QTest::newRow("not a number") << std::numeric_limits<double>::quiet_NaN() << "–";
    QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << "∞";
    QTest::newRow("minus infinity") << -std::numeric_limits<double>::infinity() << "-∞";
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
    QTest::newRow("consistent") << "virtual.consistent"
                                << "yes (1)" << true;
    QTest::newRow("inconsistent") << "distributional.consistent"
                                  << "no (0)" << false;
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
    QVERIFY(colour.red() > colour.green() && colour.green() > colour.blue()); // orange
}

// "mi_x_z" reads "MI(x; μ_z)": drawn with a subscript z, not the markup; a warning naming a
// parameter (sigma_obs) is drawn as written. Copies keep the markup.
void TestSummaryAndBrowser::quantityNamesDrawScripts()
{
    SummaryTable table;
    Summary summary;
    summary.set("mi_x_z", 0.25);
    table.setSummary(summary, {"sigma_obs is below its floor"});
    table.resize(420, 160);
    table.show();
    QVERIFY(QTest::qWaitForWindowExposed(&table));
    QCOMPARE(table.nameText("mi_x_z"), QString::fromUtf8("MI(x; μ_z)"));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(table.size());
    QPainter painter;
    QVERIFY(painter.begin(&svg));
    table.render(&painter);
    painter.end();
    const QString drawn = QString::fromUtf8(bytes);
    QVERIFY2(!drawn.contains(QString::fromUtf8("μ_z")), "raw markup in the Quantity column");
    QVERIFY2(drawn.contains(QStringLiteral("MI(x; ")), "the name is not drawn");
    QVERIFY2(drawn.contains(QStringLiteral(">z</text>")), "no subscript z of its own");
    QVERIFY2(drawn.contains(QStringLiteral("sigma_obs is below its floor")),
             "the warning is not drawn as written");
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
             QString("Jeffrey's rule: mean\t1.5\nJeffrey's rule: sd\t0.123457"));

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
             QString("Quantity\tValue\nA: mean\t1\nA: sd\t0.5\n⚠ too few samples"));
}

void TestSummaryAndBrowser::unitsFromParametersAndHints()
{
    const evx::ParameterSchema schema({
        evx::realParameter("true_omega", "True ω", "deg", 0, 359, 100, "tip"),
        evx::realParameter("true_e", "True e", "", 0, 0.9, 0.1, "tip"),
    });
    Summary s;
    s.set("jeffrey.omega.mean", 81.84);
    s.set("jeffrey.e.mean", 0.075);
    s.set("jeffrey.P.sd", 0.0028);
    s.set("jeffrey.ess", 50);
    SummaryTable table;
    table.setUnits(schema, {{"*.P.sd", "d"}});
    table.setSummary(s);
    QCOMPARE(table.nameText("jeffrey.omega.mean"), QString("Jeffrey's rule: mean of ω (deg)")); // parameter
    QCOMPARE(table.nameText("jeffrey.e.mean"), QString("Jeffrey's rule: mean of e")); // dimensionless
    QCOMPARE(table.nameText("jeffrey.P.sd"), QString("Jeffrey's rule: sd of P (d)")); // hint
    QCOMPARE(table.nameText("jeffrey.ess"), QString("Jeffrey's rule: ESS"));
    // The value column stays a bare number, ready to paste into a spreadsheet.
    QCOMPARE(table.valueText("jeffrey.omega.mean"), QString("81.84"));
}

void TestSummaryAndBrowser::timesShareOneUnit_data()
{
    QTest::addColumn<double>("fullMs");
    QTest::addColumn<double>("incrementalMs");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<QString>("full");
    QTest::addColumn<QString>("incremental");
    // The largest decides: below 1000 ms all are in ms, from 1000 ms on all are in s.
    QTest::newRow("all short") << 999.0 << 12.5 << "ms"
                               << "999"
                               << "12.5";
    QTest::newRow("one long") << 2500.0 << 12.5 << "s"
                              << "2.5"
                              << "0.0125";
    QTest::newRow("exactly 1000 ms") << 1000.0 << 3.0 << "s"
                                     << "1"
                                     << "0.003";
}

void TestSummaryAndBrowser::timesShareOneUnit()
{
    QFETCH(double, fullMs);
    QFETCH(double, incrementalMs);
    QFETCH(QString, unit);
    QFETCH(QString, full);
    QFETCH(QString, incremental);
    Summary s;
    s.set("time.full_ms", fullMs);
    s.set("time.incremental_ms", incrementalMs);
    s.set("time.speedup", fullMs / incrementalMs);
    SummaryTable table;
    table.setSummary(s);
    QCOMPARE(table.nameText("time.full_ms"), "Time: full (" + unit + ')');
    QCOMPARE(table.nameText("time.incremental_ms"), "Time: incremental (" + unit + ')');
    QCOMPARE(table.valueText("time.full_ms"), full);
    QCOMPARE(table.valueText("time.incremental_ms"), incremental);
    QCOMPARE(table.nameText("time.speedup"), QString("Speed-up")); // a ratio, not a time
}

void TestSummaryAndBrowser::roundingNoiseShowsAsZero()
{
    // ue-gaussian-hetero's prior mean is 0 up to quadrature rounding; its peers are O(1).
    Summary s;
    s.set("prior.mean", 6.97390247e-17);
    s.set("jeffrey.mean", 1.72159591);
    s.set("prior.sd", 2);
    s.set("kl.reconstruction", 2.35e-14); // alone in its statistic: below 1e-12 absolute
    s.set("z.sd", 9.89e-8);               // small but real: a BQ sd
    s.set("big.mean_abs", 3e6);
    s.set("small.mean_abs", 2e-6); // 1e-12 × 3e6 = 3e-6 > 2e-6: noise beside 3e6
    s.set("other.mean_abs", 4e-6); // above it: kept
    SummaryTable table;
    table.setSummary(s);
    QCOMPARE(table.valueText("prior.mean"), QString("0"));
    QCOMPARE(table.valueText("jeffrey.mean"), QString("1.7216"));
    QCOMPARE(table.valueText("kl.reconstruction"), QString("0"));
    QCOMPARE(table.valueText("z.sd"), QString("9.89×10⁻⁸"));
    QCOMPARE(table.valueText("small.mean_abs"), QString("0"));
    QCOMPARE(table.valueText("other.mean_abs"), QString("4×10⁻⁶"));
    // The tooltip keeps the number as computed.
    QCOMPARE(table.item(0, 1)->toolTip(), QString::number(6.97390247e-17, 'g', 17));
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
    QCOMPARE(browser.selectedItems().first()->data(0, Qt::UserRole).toString(), QString("bq-peaked"));

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
