// Tests of PlotView's legends: what they name, clicks that toggle a series, and where they go
// (a free corner, wrapped, or below a frame too short for them). Runs on the offscreen platform.

#include "plot/plot_view.h"
#include "plot_view_test_support.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <utility>

using namespace evx;
using namespace evx::plot_test;

class TestPlotLegend : public QObject {
    Q_OBJECT

private slots:
    void legendNamesEverySeriesAndBand()
    {
        Figure f = onePlot({line("prior", 1), line("posterior", 2), line("likelihood", 3)});
        Band b;
        b.name = "±2 sd";
        b.x = {0, 1, 2};
        b.lower = {-1, -1, -1};
        b.upper = {1, 1, 1};
        f.plots[0].bands.push_back(b);
        PlotView view;
        view.setFigure(f);
        QCPLegend* legend = legendOf(view.axisRect(0));
        QVERIFY(legend);
        QCOMPARE(legend->itemCount(), 4);
        QCOMPARE(legendNames(legend), (QStringList{"prior", "posterior", "likelihood", "±2 sd"}));
        QVERIFY(legend->visible());
    }

    void legendClickToggles()
    {
        auto view = shownView(onePlot({line("a", 1), line("b", 2)}));
        QSignalSpy clicks(view.get(), &PlotView::pointClicked);
        QCPLegend* legend = legendOf(view->axisRect(0));
        const QPoint onB = legend->item(1)->rect().center();
        QTest::mouseClick(view->customPlot(), Qt::LeftButton, {}, onB);
        QVERIFY(!view->isSeriesVisible(0, "b"));
        QVERIFY(view->isSeriesVisible(0, "a"));
        QCOMPARE(clicks.count(), 0); // a legend click is not a click in the plot
        view->renderNow();
        QTest::mouseClick(view->customPlot(), Qt::LeftButton, {}, onB);
        QVERIFY(view->isSeriesVisible(0, "b"));
    }

    void legendMovesToTheFreeCorner()
    {
        // y = x⁴ fills the bottom-left and top-right; the top-left is empty.
        Figure f;
        Plot p;
        p.title = "curve";
        p.xLabel = "x";
        p.yLabel = "y";
        Series s;
        s.name = "x to the fourth";
        for (int i = 0; i <= 100; ++i) {
            s.x.push_back(i / 100.0);
            s.y.push_back(std::pow(i / 100.0, 4));
        }
        p.series = {s};
        f.plots = {p};
        PlotView view;
        view.resize(800, 500);
        view.setFigure(f);
        QCPLayoutInset* inset = view.axisRect(0)->insetLayout();
        QCPLegend* legend = nullptr;
        int at = -1;
        for (int i = 0; i < inset->elementCount(); ++i)
            if ((legend = qobject_cast<QCPLegend*>(inset->elementAt(i)))) {
                at = i;
                break;
            }
        QVERIFY(legend);
        QCOMPARE(inset->insetAlignment(at), Qt::AlignTop | Qt::AlignLeft);
        QVERIFY(view.axisRect(0)->axis(QCPAxis::atLeft)->range().upper < 1.2);

        // Data in every corner: the axis gains headroom above the data for the legend.
        Series noise;
        noise.name = "everywhere";
        noise.kind = SeriesKind::Scatter;
        for (int i = 0; i <= 20; ++i)
            for (int j = 0; j <= 20; ++j) {
                noise.x.push_back(i / 20.0);
                noise.y.push_back(j / 20.0);
            }
        f.plots[0].series = {noise};
        view.setFigure(f);
        QVERIFY2(view.axisRect(0)->axis(QCPAxis::atLeft)->range().upper > 1.1,
                 qPrintable(QString::number(view.axisRect(0)->axis(QCPAxis::atLeft)->range().upper)));
    }

    // Six entries in a wide, short plot: the legend spreads over columns rather than taking
    // most of the height; in a tall plot it stays one column.
    void tallLegendWrapsInShortPlot()
    {
        std::vector<Series> series;
        for (int i = 0; i < 6; ++i)
            series.push_back(line("entry number " + std::to_string(i), i + 1.0));
        const Figure f = onePlot(series);
        for (const auto& [size, wraps] :
             {std::pair(QSize(1200, 260), true), std::pair(QSize(500, 900), false)}) {
            PlotView view;
            view.resize(size);
            view.setFigure(f);
            view.renderNow();
            QCPLegend* legend = legendOf(view.axisRect(0));
            QVERIFY(legend);
            QCOMPARE(legend->itemCount(), 6);
            QCOMPARE(legend->columnCount() > 1, wraps);
            if (wraps)
                QVERIFY(legend->outerRect().height() <= view.axisRect(0)->rect().height() / 2);
        }
    }

    // Data in every corner of a short, wide plot and a legend of long names that stays one
    // column: the headroom could free only part of the legend's height, so it goes below.
    void legendTallerThanTheHeadroomGoesBelow()
    {
        Plot p;
        p.title = "everywhere";
        p.xLabel = "x";
        p.yLabel = "y";
        for (int k = 0; k < 6; ++k) {
            Series s;
            s.name = "a rather long series name number " + std::to_string(k);
            s.kind = SeriesKind::Scatter;
            for (int i = 0; i <= 20; ++i)
                for (int j = 0; j <= 20; ++j) {
                    s.x.push_back(i / 20.0);
                    s.y.push_back(j / 20.0);
                }
            p.series.push_back(s);
        }
        Figure f;
        f.plots = {p};
        PlotView view;
        view.resize(700, 200);
        view.setFigure(f);
        view.renderNow();
        // legendOf finds a legend inside the frame only.
        QVERIFY2(
            !legendOf(view.axisRect(0)),
            qPrintable(QString("legend inside a frame %1 px high").arg(view.axisRect(0)->rect().height())));
    }

    // A legend below its plot that took two columns for its names at one width keeps every
    // name inside its column as the view changes width (names wrap to a column's width, not
    // the plot's). Seen in presentation mode with wvo-rats' contour names.
    void legendBelowNamesFitTheirColumns()
    {
        std::vector<Series> series;
        for (const char* name : {"Original posterior p(theta | y) (50% and 90% regions)",
                                 "Unweighted virtual p(theta | y~) (50% and 90% regions)",
                                 "Weighted virtual p(theta | y~, w) (50% and 90% regions)"})
            series.push_back(line(name, 1.0));
        Figure f;
        for (int i = 0; i < 6; ++i)
            f.plots.push_back(onePlot(series, "plot " + std::to_string(i)).plots.front());
        PlotView view;
        view.setFontScale(1.6);
        int checked = 0, wide = 0;
        for (const int width : {300, 640, 900, 500, 1200, 640}) {
            view.resize(width, 2000);
            view.setFigure(f);
            view.renderNow();
            view.renderNow();
            for (QCPLayoutElement* element : view.customPlot()->plotLayout()->elements(true)) {
                auto* legend = qobject_cast<QCPLegend*>(element);
                if (!legend || legend->layout() == nullptr || qobject_cast<QCPLayoutInset*>(legend->layout()))
                    continue;
                wide += legend->columnCount() > 1;
                for (int k = 0; k < legend->itemCount(); ++k) {
                    QCPAbstractLegendItem* item = legend->item(k);
                    if (!item) // a cell left empty by the wrap
                        continue;
                    QCOMPARE_GE(item->outerRect().width(), item->minimumOuterSizeHint().width());
                    ++checked;
                }
            }
        }
        QCOMPARE_GT(checked, 0);
        qDebug() << "legend items checked" << checked << "in legends of several columns" << wide;
    }

    // A short, wide window: the plot whose legend goes below its frame must not get a flatter
    // frame than the plots beside it (QCustomPlot shares the height equally between rows, legend
    // and all; at 1280 x 720 bnn-identifiability's middle frame was 45 px, the others 70).
    void aLegendBelowDoesNotFlattenItsFrame()
    {
        Figure f;
        f.plots.push_back(onePlot({line("a", 1.0)}, "top").plots.front());
        std::vector<Series> many;
        for (int i = 0; i < 5; ++i)
            many.push_back(
                line("a long legend name that sends it below, number " + std::to_string(i), double(i) - 2.0));
        f.plots.push_back(onePlot(many, "middle").plots.front());
        f.plots.push_back(onePlot({line("b", -1.0)}, "bottom").plots.front());
        QScrollArea area;
        PlotView* view = scrolledView(area, f, QSize(900, 330));
        QVERIFY(view);
        QVERIFY(!legendOf(view->axisRect(1))); // not inside the frame: below it
        const int middle = view->axisRect(1)->rect().height();
        for (int i : {0, 2})
            QVERIFY2(middle >= view->axisRect(i)->rect().height() - 2,
                     qPrintable(QString("middle frame %1 px, plot %2 %3 px")
                                    .arg(middle)
                                    .arg(i)
                                    .arg(view->axisRect(i)->rect().height())));
        QCOMPARE_GE(middle, int(5 * screenEm(*view))); // not crushed
    }
};

QTEST_MAIN(TestPlotLegend)
#include "test_plot_legend.moc"
