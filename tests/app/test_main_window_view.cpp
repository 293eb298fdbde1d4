// How the main window looks on the offscreen platform: it fits the screen, presentation mode,
// the parameter dock, export sizes, axes held while sliders move or frames stream, and pins.
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

class TestMainWindowView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Settings go to a test location and start empty.
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // A window never opens larger than the screen: a saved geometry that does not fit (a
    // session on a larger monitor) gives way to 90 % of the available area, centred.
    void geometryFitsTheScreen()
    {
        const QRect screen(0, 0, 1280, 720);
        QCOMPARE(MainWindow::fittedGeometry(QRect(10, 20, 1000, 600), screen), QRect(10, 20, 1000, 600));
        QCOMPARE(MainWindow::fittedGeometry(QRect(0, 0, 1440, 900), screen), QRect(64, 36, 1152, 648));
        QCOMPARE(MainWindow::fittedGeometry(QRect(1200, 0, 400, 300), screen), QRect(64, 36, 1152, 648));
        QCOMPARE(MainWindow::fittedGeometry(QRect(), QRect(0, 0, 1024, 768)), QRect(51, 38, 921, 691));
    }

    // F11 and Ctrl+Plus / Minus / 0: the plot's text scale, the panels' font, both remembered.
    void presentationModeIsLargerAndRemembered()
    {
        QSettings().clear();
        {
            MainWindow w;
            const double normalFont = w.parameterPanel()->font().pointSizeF();
            QCOMPARE(w.plotView()->fontScale(), 1.0);
            w.setPresentationMode(true);
            QCOMPARE(w.plotView()->fontScale(), MainWindow::kDefaultPresentationScale);
            QVERIFY2(
                w.parameterPanel()->font().pointSizeF() > normalFont,
                qPrintable(QString("%1 vs %2").arg(w.parameterPanel()->font().pointSizeF()).arg(normalFont)));
            QVERIFY(w.bottomTabs()->isHidden()); // the plot gets the summary's room
            w.changeTextScale(1);
            QCOMPARE(w.plotView()->fontScale(), MainWindow::kDefaultPresentationScale * 1.15);
            w.changeTextScale(0);
            QCOMPARE(w.plotView()->fontScale(), MainWindow::kDefaultPresentationScale);
            w.changeTextScale(1);
            w.close();
        }
        MainWindow again;
        QVERIFY(again.isPresentationMode());
        QCOMPARE(again.plotView()->fontScale(), MainWindow::kDefaultPresentationScale * 1.15);
        again.setPresentationMode(false);
        QCOMPARE(again.plotView()->fontScale(), 1.0);
        QVERIFY(!again.bottomTabs()->isHidden());
        QSettings().clear();
    }

    // View → High-Contrast Theme: the plot's theme, black text on white in the panels, remembered.
    void highContrastThemeIsRemembered()
    {
        QSettings().clear();
        {
            MainWindow w;
            QVERIFY(!w.isHighContrast());
            QCOMPARE(w.plotView()->theme(), PlotView::Theme::Standard);
            QAction* action = nullptr;
            for (QAction* a : w.findChildren<QAction*>())
                if (a->text().remove('&') == "High-Contrast Theme")
                    action = a;
            QVERIFY2(action, "no View → High-Contrast Theme");
            QVERIFY(action->isCheckable());
            action->trigger();
            QCOMPARE(w.plotView()->theme(), PlotView::Theme::HighContrast);
            QCOMPARE(w.palette().color(QPalette::Text), QColor(Qt::black));
            QCOMPARE(w.palette().color(QPalette::Base), QColor(Qt::white));
            w.close();
        }
        {
            MainWindow again;
            QVERIFY(again.isHighContrast());
            QCOMPARE(again.plotView()->theme(), PlotView::Theme::HighContrast);
            again.setHighContrast(false);
            QCOMPARE(again.plotView()->theme(), PlotView::Theme::Standard);
            again.close();
        }
        MainWindow third;
        QVERIFY(!third.isHighContrast());
        QSettings().clear();
    }

    // Every label and editor of the parameter form lies inside the dock's visible width (the
    // tour found wvo-attainment's spin boxes scrolled out of sight and clipped labels), also
    // in presentation mode on a 1024 x 768 screen, where the labels go above their controls.
    void parameterDockShowsEveryEditor_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QSize>("window");
        QTest::addColumn<bool>("presentation");
        QTest::addColumn<QSize>("resizedTo"); // empty: the window keeps its first size
        for (const char* id : {"wvo-attainment", "ue-kepler", "wvo-rats", "gb-regression"})
            QTest::newRow(id) << QString(id) << QSize(1280, 720) << false << QSize();
        for (const char* id : {"wvo-attainment", "gb-regression", "bq-2d-marginal", "ue-kepler"})
            QTest::newRow(qPrintable(QString(id) + " 1024x768 F11"))
                << QString(id) << QSize(921, 691) << true << QSize();
        // Opened wide enough for labels beside their controls, then dragged narrower: the
        // labels must move above without the scenario being reopened.
        for (const char* id : {"wvo-attainment", "ue-kepler"})
            QTest::newRow(qPrintable(QString(id) + " F11 dragged narrower"))
                << QString(id) << QSize(1600, 900) << true << QSize(921, 691);
    }

    void parameterDockShowsEveryEditor()
    {
        QFETCH(QString, scenario);
        QFETCH(QSize, window);
        QFETCH(bool, presentation);
        QFETCH(QSize, resizedTo);
        QSettings().clear();
        MainWindow w;
        w.setGeometry(QRect(QPoint(0, 0), window)); // 921 x 691: what a 1024 x 768 screen gets
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setPresentationMode(presentation);
        QVERIFY(w.openScenario(scenario));
        if (!resizedTo.isEmpty()) {
            QTest::qWait(50);
            const bool aboveWhenWide = w.parameterPanel()->labelsAbove();
            w.resize(resizedTo);
            QTest::qWait(50);
            QVERIFY2(w.parameterPanel()->labelsAbove() != aboveWhenWide,
                     "the labels stayed where they were at the first width");
        }
        QTest::qWait(50);                         // the dock's new width is laid out
        w.parameterPanel()->layout()->activate(); // and the wrapped labels' heights for it
        QTest::qWait(50);
        QVERIFY2(w.plotView()->width() >= w.plotView()->minimumWidth(),
                 qPrintable(QString("plot %1 px wide, at least %2")
                                .arg(w.plotView()->width())
                                .arg(w.plotView()->minimumWidth())));
        auto* scroll = qobject_cast<QScrollArea*>(w.parameterDock()->widget());
        QVERIFY(scroll);
        const int visible = scroll->viewport()->width();
        for (const ParameterSpec& p : w.parameterPanel()->schema().specs()) {
            QWidget* editor = w.parameterPanel()->editor(QString::fromStdString(p.name));
            const int right = editor->mapTo(scroll->viewport(), QPoint(editor->width(), 0)).x();
            QVERIFY2(right <= visible, qPrintable(QString("%1 ends at %2 of %3 px")
                                                      .arg(QString::fromStdString(p.name))
                                                      .arg(right)
                                                      .arg(visible)));
        }
        for (QLabel* label : w.parameterPanel()->findChildren<QLabel*>()) {
            if (label->isHidden())
                continue;
            if (label->wordWrap()) { // all its lines show, and it ends inside the dock
                const int right = label->mapTo(scroll->viewport(), QPoint(label->width(), 0)).x();
                QVERIFY2(label->height() >= label->heightForWidth(label->width()) && right <= visible,
                         qPrintable(QString("'%1' is %2 x %3 px, needs %4 px high; ends at %5 of %6")
                                        .arg(label->text())
                                        .arg(label->width())
                                        .arg(label->height())
                                        .arg(label->heightForWidth(label->width()))
                                        .arg(right)
                                        .arg(visible)));
                continue;
            }
            QVERIFY2(label->width() >= label->sizeHint().width(),
                     qPrintable(QString("'%1' is %2 px of %3")
                                    .arg(label->text())
                                    .arg(label->width())
                                    .arg(label->sizeHint().width())));
        }
    }

    // The export dialog: presets fill the fields, the summary says what will be written, and
    // a size the command line refuses keeps Export disabled with the same reason.
    void exportDialogSizes()
    {
        const auto s = ScenarioRegistry::instance().find("ue-drop-ball");
        const Figure figure = s->run(s->schema().defaults(), {});
        ExportDialog dialog("ue-drop-ball", figure, QSize(900, 600), 9, nullptr);
        dialog.setPath(QDir::temp().filePath("f.png"));
        dialog.sizeChoice()->setCurrentIndex(dialog.sizeChoice()->findData("single-column"));
        QVERIFY(dialog.isValid());
        QCOMPARE(dialog.printSize().widthMm, 89.0);
        QCOMPARE(dialog.printSize().fontPt, 8.0);
        QCOMPARE(dialog.printSize().dpi, 300.0);
        QCOMPARE(dialog.printSize().heightMm, PlotView::naturalHeightMm(figure, 89, 8));
        dialog.dpiEdit()->setValue(600);
        QCOMPARE(dialog.printSize().pixels().width(), 2102);
        dialog.fontEdit()->setValue(40);
        QVERIFY(!dialog.isValid());
        QVERIFY2(dialog.problem().contains("does not fit"), qPrintable(dialog.problem()));
        QVERIFY(!dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
        dialog.sizeChoice()->setCurrentIndex(dialog.sizeChoice()->findData("screen"));
        QVERIFY(dialog.isValid());
        QCOMPARE(dialog.printSize().pixels(), QSize(900, 600));
        dialog.setPath(QDir::temp().filePath("f.gif"));
        QVERIFY(!dialog.isValid());
    }

    void axesHoldWhileASliderIsDraggedOrPlayRuns()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(w.openScenario("bq-1d"));
        QVERIFY(settle(w, shown));
        QSlider* slider = w.parameterPanel()->slider("n_samples");
        QVERIFY(slider);
        QVERIFY(!w.plotView()->holdsRanges());
        slider->setSliderDown(true); // what a press on the handle does
        QVERIFY(w.plotView()->holdsRanges());
        slider->setSliderDown(false);
        QVERIFY(!w.plotView()->holdsRanges());

        w.setPlaying(true);
        QVERIFY(w.plotView()->holdsRanges());
        w.setPlaying(false);
        QVERIFY(!w.plotView()->holdsRanges());

        // A slider held while the form is rebuilt for another scenario is never released.
        w.parameterPanel()->slider("n_samples")->setSliderDown(true);
        QVERIFY(w.plotView()->holdsRanges());
        QVERIFY(w.openScenario("ue-gaussian"));
        QVERIFY(!w.plotView()->holdsRanges());
    }

    // Partial figures of a long run hold the axes (PlotView::setStreamedFigure); its final
    // figure, or its failure, releases them. The runner's signals are emitted by hand, so the
    // frames arrive in a known order.
    void streamedFramesHoldUntilTheRunEnds()
    {
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        QVERIFY(w.openScenario("bq-1d"));
        QVERIFY(settle(w, shown));
        const Figure figure = w.currentFigure();
        QVERIFY(!w.plotView()->holdsRanges());
        const quint64 revision = w.runner()->latestRevision();
        emit w.runner()->progressed(revision, figure, 0.3);
        QVERIFY(w.plotView()->isStreaming());
        QVERIFY(w.plotView()->holdsRanges());
        emit w.runner()->progressed(revision, figure, 0.6);
        QVERIFY(w.plotView()->holdsRanges());
        emit w.runner()->finished(revision, figure, 1.0);
        QVERIFY(!w.plotView()->isStreaming());
        QVERIFY(!w.plotView()->holdsRanges());

        emit w.runner()->progressed(revision, figure, 0.3);
        QVERIFY(w.plotView()->holdsRanges());
        emit w.runner()->failed(revision, "made up");
        QVERIFY(!w.plotView()->holdsRanges());
    }

    // Ctrl+P keeps the curves as ghosts labelled with the values that differ from the current
    // ones; moving a parameter keeps them, a session keeps them, image exports show them and
    // the numbers exported do not; Ctrl+Shift+P and another scenario clear them.
    void pinsStayAsGhostsUntilUnpinned()
    {
        QTemporaryDir dir;
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        w.openScenario("ue-drop-ball");
        QVERIFY(w.parameterPanel()->setValue("sigma_obs", 0.025));
        QVERIFY(settle(w, shown));
        int curves = 0;
        for (const Series& s : w.currentFigure().plots.at(0).series)
            curves += s.kind != SeriesKind::Bar && !s.x.empty();
        QVERIFY(curves > 0);
        QCOMPARE(w.plotView()->ghostCount(0), 0);
        QAction* pin = nullptr;
        QAction* unpin = nullptr;
        for (QAction* a : w.findChildren<QAction*>()) {
            if (a->shortcut() == QKeySequence("Ctrl+P"))
                pin = a;
            if (a->shortcut() == QKeySequence("Ctrl+Shift+P"))
                unpin = a;
        }
        QVERIFY(pin && unpin);
        pin->trigger();
        QCOMPARE(w.pins().size(), std::size_t(1));
        QCOMPARE(w.plotView()->ghostCount(0), curves);
        QCOMPARE(w.pinLabel(w.pins()[0].values), QString("pinned")); // nothing differs yet

        QVERIFY(w.parameterPanel()->setValue("sigma_obs", 0.05));
        QVERIFY(settle(w, shown));
        QCOMPARE(w.plotView()->ghostCount(0), curves);
        const QString label = QString::fromUtf8("pinned: σ_obs = 0.025 s");
        QCOMPARE(w.pinLabel(w.pins()[0].values), label);
        // The ghosts are the curves at σ_obs = 0.025, computed here afresh, not the current ones.
        auto values = w.parameterPanel()->values();
        values["sigma_obs"] = 0.025;
        const Figure before = ScenarioRegistry::instance().find("ue-drop-ball")->run(values, {});
        auto ghostsOf = [](MainWindow& window, const QString& name) {
            std::vector<QCPGraph*> graphs;
            QCustomPlot* plot = window.plotView()->customPlot();
            for (int i = 0; i < plot->graphCount(); ++i)
                if (plot->graph(i)->name().remove('\n') == name && !plot->graph(i)->data()->isEmpty() &&
                    plot->graph(i)->keyAxis()->axisRect() ==
                        window.plotView()->axisRect(0)) // not the legend key
                    graphs.push_back(plot->graph(i));
            return graphs;
        };
        auto checkGhosts = [&](MainWindow& window) {
            const std::vector<QCPGraph*> ghosts = ghostsOf(window, label);
            QCOMPARE(int(ghosts.size()), curves);
            const Series& first = before.plots.at(0).series.at(0);
            const std::size_t mid = first.y.size() / 2;
            QCOMPARE(ghosts[0]->data()->size(), int(first.y.size()));
            QCOMPARE(ghosts[0]->data()->at(int(mid))->value, first.y[mid]);
            QVERIFY2(std::abs(first.y[mid] - window.currentFigure().plots.at(0).series.at(0).y[mid]) > 1e-6,
                     "the pinned and current curves should differ");
            QCOMPARE(ghosts[0]->pen().color().alpha(), PlotView::kGhostAlpha);
        };
        checkGhosts(w);

        // The numbers stay the current figure's; the images show the ghosts (their translucent
        // strokes, alpha 110/255, appear nowhere else).
        QCOMPARE(w.exportFigureFile(dir.filePath("w.csv")), QString());
        QCOMPARE(w.exportFigureFile(dir.filePath("w.json")), QString());
        for (const char* name : {"w.csv", "w.json"}) {
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(!file.readAll().contains("pinned"), name);
        }
        auto svgHasGhosts = [&](const QString& name) {
            if (!w.exportFigureFile(dir.filePath(name), QSize(900, 600)).isEmpty())
                return false;
            QFile file(dir.filePath(name));
            return file.open(QIODevice::ReadOnly) && file.readAll().contains("stroke-opacity=\"0.431373\"");
        };
        QVERIFY(svgHasGhosts("pinned.svg"));

        const QString session = dir.filePath("pins.evx.json");
        QCOMPARE(w.saveSessionFile(session), QString());
        MainWindow other;
        QSignalSpy otherShown(&other, &MainWindow::figureShown);
        QCOMPARE(other.openSessionFile(session), QString());
        QVERIFY(settle(other, otherShown));
        QCOMPARE(other.pins().size(), std::size_t(1));
        QCOMPARE(other.pinLabel(other.pins()[0].values), label);
        checkGhosts(other);

        unpin->trigger();
        QCOMPARE(w.pins().size(), std::size_t(0));
        QCOMPARE(w.plotView()->ghostCount(0), 0);
        QVERIFY(!svgHasGhosts("unpinned.svg"));

        for (int i = 0; i < Session::kMaxPins + 2; ++i)
            w.pinFigure();
        QCOMPARE(w.pins().size(), std::size_t(Session::kMaxPins));
        // Pins of one label are numbered: each keeps its own legend entry and hides alone.
        QSet<QString> labels;
        for (int i = 0; i < w.plotView()->customPlot()->graphCount(); ++i)
            if (w.plotView()->customPlot()->graph(i)->name().startsWith("pinned"))
                labels.insert(w.plotView()->customPlot()->graph(i)->name());
        QCOMPARE(labels, QSet<QString>({"pinned (1)", "pinned (2)", "pinned (3)", "pinned (4)"}));
        QCOMPARE(w.plotView()->ghostCount(0), Session::kMaxPins * curves);
        other.openScenario("ue-gaussian");
        QCOMPARE(other.pins().size(), std::size_t(0));
        QCOMPARE(other.plotView()->ghostCount(0), 0);
    }
};

QTEST_MAIN(TestMainWindowView)
#include "test_main_window_view.moc"
