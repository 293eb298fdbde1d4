// Tests of PlotView's layout: plots in one or two columns or in the cells they name, frames
// that scroll rather than crush, remembered text sizes, and axis ranges (fit, headroom, zoom
// lock). Legends have their own suite (test_plot_legend). Runs on the offscreen platform.

#include "plot/plot_view.h"
#include "plot/rich_text.h"
#include "plot_view_test_support.h"

#include <qcustomplot.h>

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace evx;
using namespace evx::plot_test;

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
