// The main window end to end on the offscreen platform: slider to plot through the runner,
// bursts, errors in the window, session files and exports from the window.
#include "export_dialog.h"
#include "main_window.h"
#include "params/parameter_panel.h"
#include "plot/plot_view.h"
#include "runner.h"
#include "scenarios/registry.h"
#include "summary/summary_table.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>
#include <qcustomplot.h>

#include "main_window_support.h"

using namespace evx;

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Settings go to a test location and start empty.
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void opensWithAFigure()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(settle(w, shown));
        QCOMPARE(w.currentScenarioId(), QString("ue-gaussian"));
        QCOMPARE(w.plotView()->figure().plots.size(), size_t(2));
        QVERIFY(!w.summaryTable()->valueText("jeffrey.mean").isEmpty());
        // The status bar says how fresh the figure is; the compute/render split is a tooltip.
        const auto freshness = [&w]() -> const QLabel* {
            for (const QLabel* label : w.statusBar()->findChildren<QLabel*>())
                if (label->text().startsWith("updated in "))
                    return label;
            return nullptr;
        };
        QTRY_VERIFY_WITH_TIMEOUT(freshness() != nullptr, 5000);
        QVERIFY2(freshness()->toolTip().contains("render"), qPrintable(freshness()->toolTip()));
    }

    void movingASliderProducesANewPlot()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(settle(w, shown));
        const double before = summaryOf(w, "distributional.mean");
        QSlider* slider = w.parameterPanel()->slider("zeta");
        QVERIFY(slider);
        shown.clear();
        slider->setValue(slider->maximum()); // ζ = 20
        QVERIFY(settle(w, shown));
        const double after = summaryOf(w, "distributional.mean");
        QVERIFY(after > before + 1);
        // Distributional evidence here is exact evidence at y = ζ = 20: precision 1/4 + 1.
        QVERIFY(std::abs(after - (-10.0 / 4 + 20) / 1.25) < 1e-9);
        QCOMPARE(w.plotView()->figure().summary.value("distributional.mean"), after);
    }

    void aBurstOfChangesEndsShowingTheLast()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(settle(w, shown));
        w.openScenario("ue-drop-ball");
        QSlider* slider = w.parameterPanel()->slider("t_obs");
        QVERIFY(slider);
        for (int i = 0; i < 100; ++i)
            slider->setValue(slider->minimum() + (slider->maximum() - slider->minimum()) * (i % 37) / 36);
        slider->setValue((slider->minimum() + slider->maximum()) / 2);
        QVERIFY(settle(w, shown));
        const auto scenario = ScenarioRegistry::instance().find("ue-drop-ball");
        const Figure expected = scenario->run(w.parameterPanel()->values(), {});
        QCOMPARE(summaryOf(w, "virtual.mean"), expected.summary.value("virtual.mean"));
        QCOMPARE(summaryOf(w, "jeffrey.sd"), expected.summary.value("jeffrey.sd"));
    }

    void runErrorsShowInTheWindowAndKeepTheLastFigure()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QSignalSpy failed(&w, &MainWindow::runFailed);
        w.openScenario("ue-drop-ball");
        QVERIFY(settle(w, shown));
        const double before = summaryOf(w, "virtual.mean");
        // Each value is in range, together they let the prior reach g ≤ 0.
        QVERIFY(w.parameterPanel()->setValue("g_prior_sd", 4));
        QVERIFY(failed.wait(10000));
        QVERIFY(w.errorText().contains("g positive"));
        QCOMPARE(summaryOf(w, "virtual.mean"), before);
        QVERIFY(w.parameterPanel()->setValue("g_prior_sd", 1));
        QVERIFY(settle(w, shown));
        QVERIFY(w.errorText().isEmpty());
    }

    void inconsistentJeffreyShowsAWarning()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(w.parameterPanel()->setValue("sigma_q", 10));
        QVERIFY(settle(w, shown));
        QCOMPARE(summaryOf(w, "jeffrey.consistent"), 0.0);
        QCOMPARE(w.currentFigure().warnings.size(), size_t(1));
    }

    void sessionRoundTripThroughTheWindow()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("demo.evx.json");
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        w.openScenario("ue-drop-ball");
        w.applyPreset("fig4");
        QVERIFY(w.parameterPanel()->setValue("sigma_obs", 0.01));
        QVERIFY(settle(w, shown));
        w.plotView()->setSeriesVisible(0, "Jeffrey's rule", false);
        QCOMPARE(w.saveSessionFile(file), QString());

        MainWindow other;
        QSignalSpy otherShown(&other, &MainWindow::figureShown);
        QCOMPARE(other.openSessionFile(file), QString());
        QVERIFY(settle(other, otherShown));
        QCOMPARE(other.currentScenarioId(), QString("ue-drop-ball"));
        QCOMPARE(other.parameterPanel()->values().at("sigma_obs"), 0.01);
        QVERIFY(!other.plotView()->isSeriesVisible(0, "Jeffrey's rule"));
        QCOMPARE(summaryOf(other, "virtual.mean"), summaryOf(w, "virtual.mean"));
    }

    void malformedSessionChangesNothing()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("bad.evx.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"({"format": "evidence-explorer-session", "version": 1, "scenario": "ue-drop-ball", "parameters": {"t_obs": 99}})");
        f.close();
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(settle(w, shown));
        const ParameterValues before = w.parameterPanel()->values();
        const QString error = w.openSessionFile(file);
        QVERIFY(error.contains("t_obs"));
        QCOMPARE(w.currentScenarioId(), QString("ue-gaussian"));
        QVERIFY(w.parameterPanel()->values() == before);
        // The old figure does not stay up as if it were the session's: it is cleared and the
        // banner says why.
        QVERIFY(w.plotView()->figure().plots.empty());
        QVERIFY(w.errorText().contains("Cannot open session bad.evx.json"));
        QVERIFY(w.openSessionFile(dir.filePath("missing.evx.json")).contains("does not exist"));
    }

    void figureTablesGetATabWhileThereAreAny()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        auto tabTitles = [&] {
            QStringList t;
            for (int i = 0; i < w.bottomTabs()->count(); ++i)
                t << w.bottomTabs()->tabText(i);
            return t;
        };
        w.openScenario("ue-discrete");
        QVERIFY(settle(w, shown));
        QVERIFY(!tabTitles().contains("Tables"));
        QVERIFY(w.parameterPanel()->setValue("show_equivalent_lambda", 1));
        QVERIFY(settle(w, shown));
        QVERIFY(tabTitles().contains("Tables"));
        const int index = int(tabTitles().indexOf("Tables"));
        const auto* view = qobject_cast<QTextBrowser*>(w.bottomTabs()->widget(index));
        QVERIFY(view);
        QVERIFY(view->toPlainText().contains(QString::fromStdString(w.currentFigure().tables.at(0).title)));
        // Column names with markup ("p(y_k)") are drawn with subscripts, as the plots draw them.
        QVERIFY2(!view->toPlainText().contains("y_k"), qPrintable(view->toPlainText()));
        QVERIFY(view->toPlainText().contains("p(yk)"));
        QVERIFY(view->toHtml().contains("vertical-align:sub"));
        w.openScenario("ue-gaussian");
        QVERIFY(settle(w, shown));
        QVERIFY(!tabTitles().contains("Tables"));
    }

    void inputsOnlyForScenariosThatDeclareThem()
    {
        // ue-gaussian takes no points, no data set and animates nothing.
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(settle(w, shown));
        w.setPlaying(true);
        QVERIFY(!w.isPlaying());
        QVERIFY(!w.openDataSetFile(EVX_SOURCE_DIR "/README.md").isEmpty());
        emit w.plotView()->pointClicked(0, 1.0, 0.1);
        QTest::qWait(QApplication::doubleClickInterval() + 100);
        QVERIFY(w.points().empty());
    }

    void readingGuideEmphasisesTheChosenReading()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(settle(w, shown));
        QVERIFY(w.emphasiseReading("virtual"));
        QVERIFY(settle(w, shown));
        for (const Series& s : w.currentFigure().plots.at(0).series) {
            if (s.name == "Virtual evidence")
                QCOMPARE(s.emphasis, 1);
            else if (s.name == "Jeffrey's rule" || s.name == "Distributional evidence")
                QCOMPARE(s.emphasis, -1);
        }
        QVERIFY(!w.emphasiseReading("telepathy"));
    }

    void clicksAddPointsAndPlayStepsTheAnimatedParameter()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(w.openScenario("bq-1d"));
        QVERIFY(settle(w, shown));
        const auto scatterPoints = [&] {
            size_t n = 0;
            for (const Series& s : w.currentFigure().plots.at(0).series)
                if (s.kind == SeriesKind::Scatter)
                    n += s.x.size();
            return n;
        };
        const size_t before = scatterPoints();

        emit w.plotView()->pointClicked(0, 0.3, 0.0);
        QTRY_COMPARE_WITH_TIMEOUT(w.points().size(), size_t(1), 5000);
        QCOMPARE(w.points().front()[0], 0.3);
        QVERIFY(settle(w, shown));
        QCOMPARE(scatterPoints(), before + 1);

        // A double-click (it resets the zoom) and a click on another plot add nothing.
        emit w.plotView()->pointClicked(0, 0.5, 0.0);
        emit w.plotView()->pointClicked(0, 0.5, 0.0);
        emit w.plotView()->pointClicked(1, 0.7, 0.0);
        QTest::qWait(QApplication::doubleClickInterval() + 200);
        QCOMPARE(w.points().size(), size_t(1));

        // A point outside the scenario's box (a runaway zoom) is refused, as on the command line.
        w.addPoint(1e300, -1e300);
        QCOMPARE(w.points().size(), size_t(1));
        QVERIFY2(w.statusBar()->currentMessage().contains("x must lie"),
                 qPrintable(w.statusBar()->currentMessage()));

        w.clearPoints();
        QVERIFY(w.points().empty());

        const double n0 = w.parameterPanel()->values().at("n_samples");
        w.setPlaying(true);
        QVERIFY(w.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(w.parameterPanel()->values().at("n_samples") >= n0 + 2, 5000);
        w.setPlaying(false);
        QVERIFY(!w.isPlaying());
    }

    void dataSetsMustBeRegularFiles()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(w.openScenario("wvo-attainment"));
        QVERIFY(w.openDataSetFile("/dev/zero").contains("not a regular file"));
        QVERIFY(w.openDataSetFile(EVX_SOURCE_DIR).contains("not a regular file"));
    }

    void exportFromTheWindow()
    {
        QTemporaryDir dir;
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(settle(w, shown));
        QCOMPARE(w.exportFigureFile(dir.filePath("w.png"), QSize(900, 600)), QString());
        QCOMPARE(QImage(dir.filePath("w.png")).size(), QSize(900, 600));
        QCOMPARE(w.exportFigureFile(dir.filePath("w.json")), QString());
        QVERIFY(QFile::exists(dir.filePath("w.json")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
