// Tests of PlotView's layout: plots in one or two columns or in the cells they name, legends
// (placement, shared legends, toggles) and axis ranges (fit, headroom, zoom lock).
// Runs on the offscreen platform.

#include "plot/plot_view.h"
#include "plot/rich_text.h"
#include "plot_view_test_support.h"

#include <qcustomplot.h>

#include <QScrollArea>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace evx;
using namespace evx::plot_test;

namespace {

// A view in a scroll area as MainWindow holds it (the view as high as its least height or the
// area), shown at `size` and drawn; null if the window never appeared.
PlotView* scrolledView(QScrollArea& area, const Figure& figure, QSize size)
{
    area.setWidgetResizable(true);
    auto* view = new PlotView;
    area.setWidget(view);
    area.resize(size);
    view->setFigure(figure);
    area.show();
    if (!QTest::qWaitForWindowExposed(&area))
        return nullptr;
    view->renderNow();
    return view;
}

double screenEm(const PlotView& view)
{
    return PlotView::kScreenFontPt * view.logicalDpiY() / 72.0;
}

} // namespace

class TestPlotLayout : public QObject {
    Q_OBJECT

private slots:
    void axisRectPerPlot_data()
    {
        QTest::addColumn<int>("plots");
        QTest::addColumn<bool>("twoColumns");
        QTest::newRow("1") << 1 << false;
        QTest::newRow("3") << 3 << false;
        QTest::newRow("4") << 4 << true;
        QTest::newRow("5") << 5 << true;
    }

    void axisRectPerPlot()
    {
        QFETCH(int, plots);
        QFETCH(bool, twoColumns);
        Figure f;
        for (int i = 0; i < plots; ++i) {
            Plot p;
            p.title = "plot " + std::to_string(i);
            p.series = {line("s", i + 1.0)};
            f.plots.push_back(p);
        }
        auto view = shownView(f);
        QCOMPARE(view->customPlot()->axisRectCount(), plots);
        for (int i = 0; i < plots; ++i)
            QCOMPARE(plottablesOf<QCPGraph>(view->axisRect(i)).size(), 1);
        const QRect first = view->axisRect(0)->outerRect();
        const QRect last = view->axisRect(plots - 1)->outerRect();
        if (plots > 1) {
            const QRect second = view->axisRect(1)->outerRect();
            QCOMPARE(second.top() == first.top(), twoColumns); // side by side
            QCOMPARE(second.left() > first.left(), twoColumns);
        }
        QVERIFY(last.bottom() <= view->customPlot()->height());
        QVERIFY(!view->axisRect(plots));
    }

    // A corner layout: plots in the cells they name, one legend for all in the empty top-right
    // cell, and hiding a name there hides it in every plot.
    void explicitGridWithSharedLegend()
    {
        Figure f;
        const std::pair<int, int> cells[3] = {{0, 0}, {1, 0}, {1, 1}};
        for (int i = 0; i < 3; ++i) {
            Plot p;
            p.title = "cell " + std::to_string(i);
            p.row = cells[i].first;
            p.column = cells[i].second;
            p.legend = LegendPlace::Shared;
            p.showTitle = false;
            p.series = {line("a", i + 1.0), line("b", -1.0 - i)};
            if (i == 2)
                p.series.push_back(line("only here", 0.5));
            f.plots.push_back(p);
        }
        auto view = shownView(f);
        const QRect r00 = view->axisRect(0)->outerRect(), r10 = view->axisRect(1)->outerRect(),
                    r11 = view->axisRect(2)->outerRect();
        QVERIFY(r10.top() > r00.bottom() - 1 && r10.left() == r00.left());
        QCOMPARE(r11.top(), r10.top());
        QVERIFY(r11.left() > r10.right() - 1);
        QCOMPARE(view->axisRect(1)->rect().left(), view->axisRect(0)->rect().left());     // column aligned
        QCOMPARE(view->axisRect(2)->rect().bottom(), view->axisRect(1)->rect().bottom()); // row aligned
        for (int i = 0; i < 3; ++i)
            QVERIFY(!legendOf(view->axisRect(i)));

        // The legend sits in the empty cell (0, 1), right of the first plot, each name once.
        QCPLegend* legend = nullptr;
        for (int i = 0; i < view->customPlot()->axisRectCount() && !legend; ++i) {
            QCPAxisRect* rect = view->customPlot()->axisRect(i);
            if (rect->axes().isEmpty())
                legend = legendOf(rect);
        }
        QVERIFY(legend);
        QCOMPARE(legendNames(legend), QStringList({"a", "b", "only here"}));
        QVERIFY(legend->outerRect().left() > r00.right() && legend->outerRect().bottom() < r11.top());

        QTest::mouseClick(view->customPlot(), Qt::LeftButton, {}, legend->item(1)->rect().center());
        for (int i = 0; i < 3; ++i) {
            QVERIFY(!view->isSeriesVisible(i, "b"));
            QVERIFY(view->isSeriesVisible(i, "a"));
        }
        QCOMPARE(plottablesOf<QCPGraph>(view->axisRect(2)).size(), 3);
        const auto graphs = plottablesOf<QCPGraph>(view->axisRect(1));
        QCOMPARE(std::count_if(graphs.begin(), graphs.end(), [](QCPGraph* g) { return g->visible(); }), 1);

        // Exporting takes the hidden entry out of the shared legend and puts it back after.
        QVERIFY(!view->toImage(400, 300).isNull());
        QCOMPARE(legendNames(legend), QStringList({"a", "b", "only here"}));
    }

    // Two plots naming one cell: the figure flows as if it named none, and nothing is lost.
    void clashingCellsFlow()
    {
        Figure f;
        for (int i = 0; i < 2; ++i) {
            Plot p;
            p.title = "plot " + std::to_string(i);
            p.row = 0;
            p.column = 0;
            p.series = {line("s", i + 1.0)};
            f.plots.push_back(p);
        }
        auto view = shownView(f);
        QCOMPARE(view->customPlot()->axisRectCount(), 2);
        QVERIFY(view->axisRect(1)->outerRect().top() > view->axisRect(0)->outerRect().top());
    }

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

    // A band a hundred times wider than its line is clipped by the frame at one span of the
    // lines beyond them; a band alone still sets the range.
    void hugeBandDoesNotFlattenTheLines()
    {
        Figure f = onePlot({line("mean", 0.5, 50, 0.5)}); // y from 0 to 1
        f.plots[0].bands.push_back({"±2 sd", {-1, 1}, {-100, -100}, {100, 100}, -1});
        auto view = shownView(f);
        const QCPRange r = view->axisRect(0)->axis(QCPAxis::atLeft)->range();
        QVERIFY2(r.lower >= -1.2 && r.lower <= -0.9 && r.upper >= 1.9 && r.upper <= 3.5,
                 qPrintable(QString("%1 .. %2").arg(r.lower).arg(r.upper)));

        f.plots[0].series.clear();
        view->setFigure(f);
        const QCPRange alone = view->axisRect(0)->axis(QCPAxis::atLeft)->range();
        QVERIFY(alone.lower <= -100 && alone.upper >= 100);
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

    void zoomLock_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("wheel") << "wheel";
        QTest::newRow("drag") << "drag";
        QTest::newRow("helper") << "helper";
    }

    void zoomLock()
    {
        QFETCH(QString, how);
        auto view = shownView(onePlot({line("a", 1)})); // y in [-1, 1]
        QCustomPlot* plot = view->customPlot();
        QCPAxis* xAxis = view->axisRect(0)->axis(QCPAxis::atBottom);
        const QCPRange fitted = xAxis->range();
        const QPointF c = centreOf(view->axisRect(0));
        if (how == "wheel") {
            QWheelEvent wheel(c, plot->mapToGlobal(c), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(plot, &wheel);
        } else if (how == "drag") {
            const QPointF to = c + QPointF(80, 30);
            QMouseEvent press(QEvent::MouseButtonPress, c, plot->mapToGlobal(c), Qt::LeftButton,
                              Qt::LeftButton, {});
            QMouseEvent move(QEvent::MouseMove, to, plot->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, {});
            QMouseEvent release(QEvent::MouseButtonRelease, to, plot->mapToGlobal(to), Qt::LeftButton,
                                Qt::NoButton, {});
            QApplication::sendEvent(plot, &press);
            QApplication::sendEvent(plot, &move);
            QApplication::sendEvent(plot, &release);
        } else {
            xAxis->setRange(-0.5, 0.25);
            view->markUserZoomed(0);
        }
        QVERIFY(view->isUserZoomed(0));
        const QCPRange zoomed = xAxis->range();
        QVERIFY(std::abs(zoomed.lower - fitted.lower) > 1e-6 || std::abs(zoomed.upper - fitted.upper) > 1e-6);

        view->setFigure(onePlot({line("a", 10, 50, 100)})); // very different data, same axes
        xAxis = view->axisRect(0)->axis(QCPAxis::atBottom);
        QCOMPARE(xAxis->range().lower, zoomed.lower);
        QCOMPARE(xAxis->range().upper, zoomed.upper);

        view->resetView();
        QVERIFY(!view->isUserZoomed(0));
        QCOMPARE(xAxis->range().lower, -1.0);
        QCOMPARE(xAxis->range().upper, 1.0);
        QVERIFY(view->axisRect(0)->axis(QCPAxis::atLeft)->range().lower > 80); // fits y = 100 ± 10
    }

    void zoomLockDroppedForDifferentAxes()
    {
        PlotView view;
        view.setFigure(onePlot({line("a", 1)}));
        view.axisRect(0)->axis(QCPAxis::atBottom)->setRange(0, 0.1);
        view.markUserZoomed(0);
        Figure other = onePlot({line("a", 1)});
        other.plots[0].xLabel = "time";
        view.setFigure(other);
        QVERIFY(!view.isUserZoomed(0));
        QCOMPARE(view.axisRect(0)->axis(QCPAxis::atBottom)->range().lower, -1.0);
    }

    void doubleClickResetsZoom()
    {
        auto view = shownView(onePlot({line("a", 1)}));
        QCPAxis* xAxis = view->axisRect(0)->axis(QCPAxis::atBottom);
        xAxis->setRange(0, 0.5);
        view->markUserZoomed(0);
        QTest::mouseDClick(view->customPlot(), Qt::LeftButton, {}, centreOf(view->axisRect(0)));
        QVERIFY(!view->isUserZoomed(0));
        QCOMPARE(xAxis->range().lower, -1.0);
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

    // Six plots in a scroll area 300 px high (a 1280 x 720 window) get rows of at least
    // PlotView::kLeastFrameEms ems of frame: the view scrolls instead of crushing every frame.
    // Titles and legend names remember the sizes QCustomPlot measures for them: the sizes
    // must follow every change of text, font or margins, as the plain elements' do.
    void rememberedSizesFollowTextFontAndMargins()
    {
        QCustomPlot plot;
        RichTextElement rich(&plot, QStringLiteral("a title"), QFont(QStringLiteral("DejaVu Sans"), 10));
        QCPTextElement plain(&plot, QStringLiteral("a title"), QFont(QStringLiteral("DejaVu Sans"), 10));
        auto same = [&] {
            const QCPLayoutElement& r = rich;
            const QCPLayoutElement& p = plain;
            QCOMPARE(r.minimumOuterSizeHint(), p.minimumOuterSizeHint());
            QCOMPARE(r.maximumOuterSizeHint(), p.maximumOuterSizeHint());
        };
        same();
        const QSize before = static_cast<const QCPLayoutElement&>(rich).minimumOuterSizeHint();
        for (QCPTextElement* e : {static_cast<QCPTextElement*>(&rich), &plain})
            e->setText(QStringLiteral("a much longer title\nover two lines"));
        same();
        QVERIFY(static_cast<const QCPLayoutElement&>(rich).minimumOuterSizeHint().height() > before.height());
        for (QCPTextElement* e : {static_cast<QCPTextElement*>(&rich), &plain})
            e->setFont(QFont(QStringLiteral("DejaVu Sans"), 16));
        same();
        for (QCPTextElement* e : {static_cast<QCPTextElement*>(&rich), &plain})
            e->setMargins(QMargins(3, 9, 5, 11));
        same();

        QCPGraph* graph = plot.addGraph();
        graph->setName(QStringLiteral("σ_ε² estimate"));
        RichLegendItem item(plot.legend, graph);
        QCPPlottableLegendItem plainItem(plot.legend, graph);
        auto sameItem = [&] {
            QCOMPARE(static_cast<const QCPLayoutElement&>(item).minimumOuterSizeHint(),
                     static_cast<const QCPLayoutElement&>(plainItem).minimumOuterSizeHint());
        };
        sameItem();
        graph->setName(QStringLiteral("a longer name for the same graph"));
        sameItem();
        plot.legend->setIconSize(40, 25);
        sameItem();
        item.setFont(QFont(QStringLiteral("DejaVu Sans"), 15));
        plainItem.setFont(item.font());
        sameItem();
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

    void manyRowsScrollRatherThanCrush()
    {
        std::vector<Series> one{line("a", 1.0)};
        Figure f;
        for (int i = 0; i < 6; ++i)
            f.plots.push_back(onePlot(one, "plot " + std::to_string(i)).plots.front());
        QScrollArea area;
        PlotView* view = scrolledView(area, f, QSize(700, 300));
        QVERIFY(view);
        const double em = screenEm(*view);
        for (int i = 0; i < 6; ++i)
            QCOMPARE_GE(view->axisRect(i)->rect().height(), int(5 * em));
        QCOMPARE_GE(view->height(), int(3 * (PlotView::kLeastFrameEms + 3.5) * em));
    }
};

QTEST_MAIN(TestPlotLayout)
#include "test_plot_layout.moc"
