// Tests of PlotView: what a Figure turns into in QCustomPlot, visibility, zoom lock,
// mouse interaction and export. Runs on the offscreen platform.

#include "plot/fast_graph.h"
#include "plot/palette.h"
#include "plot/plot_view.h"

#include <qcustomplot.h>

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace evx;

namespace {

Series line(const std::string& name, double slope, int n = 50, double offset = 0.0)
{
    Series s;
    s.name = name;
    for (int i = 0; i < n; ++i) {
        const double x = -1.0 + 2.0 * i / (n - 1);
        s.x.push_back(x);
        s.y.push_back(offset + slope * x);
    }
    return s;
}

Figure onePlot(std::vector<Series> series, const std::string& title = "P")
{
    Figure f;
    Plot p;
    p.title = title;
    p.xLabel = "x";
    p.yLabel = "y";
    p.series = std::move(series);
    f.plots.push_back(std::move(p));
    return f;
}

QCPLegend* legendOf(QCPAxisRect* rect)
{
    for (int i = 0; rect && i < rect->insetLayout()->elementCount(); ++i) {
        if (auto* legend = qobject_cast<QCPLegend*>(rect->insetLayout()->elementAt(i)))
            return legend;
    }
    return nullptr;
}

QStringList legendNames(QCPLegend* legend)
{
    QStringList names;
    for (int i = 0; legend && i < legend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            names << item->plottable()->name();
    }
    return names;
}

template <class T>
QList<T*> plottablesOf(QCPAxisRect* rect)
{
    QList<T*> result;
    for (QCPAbstractPlottable* p : rect->plottables()) {
        if (auto* t = qobject_cast<T*>(p))
            result << t;
    }
    return result;
}

// Items drawn as part of the figure (the hover read-out lives on the overlay layer).
template <class T>
QList<T*> figureItems(QCustomPlot* plot)
{
    QList<T*> result;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto* t = qobject_cast<T*>(plot->item(i)); t && t->layer()->name() != QLatin1String("overlay"))
            result << t;
    }
    return result;
}

// The hover read-out.
QCPItemText* overlayText(QCustomPlot* plot)
{
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* t = qobject_cast<QCPItemText*>(plot->item(i));
        if (t && t->layer()->name() == QLatin1String("overlay"))
            return t;
    }
    return nullptr;
}

QPoint centreOf(QCPAxisRect* rect)
{
    return rect->rect().center();
}

int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    }
    return colours.size();
}

}  // namespace

class TestPlotView : public QObject {
    Q_OBJECT

private:
    // A shown 1000x700 view, laid out and drawn once.
    std::unique_ptr<PlotView> shownView(const Figure& figure)
    {
        auto view = std::make_unique<PlotView>();
        view->resize(1000, 700);
        view->show();
        if (!QTest::qWaitForWindowExposed(view.get()))
            qWarning("window not exposed");
        view->setFigure(figure);
        view->renderNow();
        return view;
    }

private slots:
    void emptyFigureShowsPlaceholder()
    {
        PlotView view;
        view.setFigure(Figure{});
        view.renderNow();
        QCOMPARE(view.customPlot()->axisRectCount(), 0);
        QCOMPARE(view.customPlot()->plottableCount(), 0);
        auto* text = qobject_cast<QCPTextElement*>(view.customPlot()->plotLayout()->elementAt(0));
        QVERIFY(text);
        QCOMPARE(text->text(), QStringLiteral("No figure yet"));
        QVERIFY(!view.toImage(200, 100).isNull());
    }

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
            QCOMPARE(second.top() == first.top(), twoColumns);   // side by side
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
        QCOMPARE(view->axisRect(1)->rect().left(), view->axisRect(0)->rect().left());  // column aligned
        QCOMPARE(view->axisRect(2)->rect().bottom(), view->axisRect(1)->rect().bottom());  // row aligned
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

    void seriesKinds_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("graphs");
        QTest::addColumn<int>("bars");
        QTest::addColumn<int>("lineStyle");
        QTest::newRow("line") << int(SeriesKind::Line) << 1 << 0 << int(QCPGraph::lsLine);
        QTest::newRow("step") << int(SeriesKind::Step) << 1 << 0 << int(QCPGraph::lsStepCenter);
        QTest::newRow("scatter") << int(SeriesKind::Scatter) << 1 << 0 << int(QCPGraph::lsNone);
        QTest::newRow("bar") << int(SeriesKind::Bar) << 0 << 1 << -1;
    }
    void seriesKinds()
    {
        QFETCH(int, kind);
        QFETCH(int, graphs);
        QFETCH(int, bars);
        QFETCH(int, lineStyle);
        Series s = line("s", 1.0, 11);
        s.kind = SeriesKind(kind);
        PlotView view;
        view.setFigure(onePlot({s}));
        QCPAxisRect* rect = view.axisRect(0);
        QVERIFY(rect);
        const auto graphList = plottablesOf<QCPGraph>(rect);
        const auto barList = plottablesOf<QCPBars>(rect);
        QCOMPARE(graphList.size(), graphs);
        QCOMPARE(barList.size(), bars);
        if (!graphList.isEmpty()) {
            QCOMPARE(int(graphList.front()->lineStyle()), lineStyle);
            QCOMPARE(graphList.front()->data()->size(), 11);
            const bool circles = graphList.front()->scatterStyle().shape() == QCPScatterStyle::ssCircle;
            QCOMPARE(circles, s.kind == SeriesKind::Scatter);
        }
        if (!barList.isEmpty())
            QVERIFY(std::abs(barList.front()->width() - 0.8 * 0.2) < 1e-9);  // x spacing 0.2
    }

    void barsOfSeveralSeriesSideBySide()
    {
        Series a{"prior", SeriesKind::Bar, {1, 2, 3}, {0.3, 0.3, 0.4}};
        Series b{"posterior", SeriesKind::Bar, {1, 2, 3}, {0.1, 0.6, 0.3}};
        PlotView view;
        view.setFigure(onePlot({a, b}));
        const auto bars = plottablesOf<QCPBars>(view.axisRect(0));
        QCOMPARE(bars.size(), 2);
        QVERIFY(bars[0]->barsGroup());
        QCOMPARE(bars[0]->barsGroup(), bars[1]->barsGroup());
        QCOMPARE(bars[0]->width(), 0.4);
        QCOMPARE(bars[1]->width(), 0.4);
        const QCPRange x = view.axisRect(0)->axis(QCPAxis::atBottom)->range();
        QVERIFY(x.lower < 0.6 && x.upper > 3.4);  // outer bars whole
        QVERIFY(x.lower > 0 && x.upper < 4);
    }

    void unsortedLineIsACurve()
    {
        Series orbit;
        orbit.name = "orbit";
        for (int i = 0; i <= 40; ++i) {
            orbit.x.push_back(std::cos(i * 0.157));
            orbit.y.push_back(std::sin(i * 0.157));
        }
        PlotView view;
        view.setFigure(onePlot({orbit}));
        QCOMPARE(plottablesOf<QCPCurve>(view.axisRect(0)).size(), 1);
        QCOMPARE(plottablesOf<QCPGraph>(view.axisRect(0)).size(), 0);
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

    void dashedAndColours()
    {
        Series plain = line("plain", 1);
        Series dashed = line("dashed", 2);
        dashed.dashed = true;
        Series fixed = line("fixed", 3);
        fixed.colour = 0;  // the colour the first automatic series would otherwise take
        PlotView view;
        view.setFigure(onePlot({plain, dashed, fixed}));
        const auto graphs = plottablesOf<QCPGraph>(view.axisRect(0));
        QCOMPARE(graphs.size(), 3);
        QCOMPARE(graphs[0]->pen().style(), Qt::SolidLine);
        QCOMPARE(graphs[1]->pen().style(), Qt::DashLine);
        QCOMPARE(graphs[0]->pen().widthF(), 2.0);
        QCOMPARE(graphs[2]->pen().color(), Palette::seriesColour(0));
        QVERIFY(graphs[0]->pen().color() != graphs[1]->pen().color());
        QVERIFY(graphs[0]->pen().color() != graphs[2]->pen().color());
        QVERIFY(graphs[1]->pen().color() != graphs[2]->pen().color());
    }

    void paletteIsOkabeIto()
    {
        const QSet<QRgb> okabeIto = {0xFFE69F00, 0xFF56B4E9, 0xFF009E73, 0xFFF0E442,
                                     0xFF0072B2, 0xFFD55E00, 0xFFCC79A7};
        QSet<QRgb> seen;
        for (int i = 0; i < Palette::seriesColourCount(); ++i)
            seen.insert(Palette::seriesColour(i).rgba());
        QCOMPARE(seen, okabeIto);
        // Yellow only once everything else is taken.
        std::vector<bool> used(7, true);
        used[6] = false;
        QCOMPARE(Palette::seriesColour(Palette::nextFreeColour(used)).rgb(), QColor(0xF0E442).rgb());
        QVERIFY(Palette::seriesColour(Palette::nextFreeColour({})).rgb() != QColor(0xF0E442).rgb());
    }

    void bandFillsBetweenEdges()
    {
        Figure f = onePlot({});
        Band b;
        b.name = "±2 sd";
        for (int i = 0; i < 20; ++i) {
            b.x.push_back(i);
            b.lower.push_back(-1.0 - i);
            b.upper.push_back(1.0 + i);
        }
        f.plots[0].bands.push_back(b);
        PlotView view;
        view.setFigure(f);
        const auto graphs = plottablesOf<QCPGraph>(view.axisRect(0));
        QCOMPARE(graphs.size(), 2);
        QCPGraph* filled = graphs[0]->channelFillGraph() ? graphs[0] : graphs[1];
        QCPGraph* other = filled == graphs[0] ? graphs[1] : graphs[0];
        QCOMPARE(filled->channelFillGraph(), other);
        QVERIFY(filled->brush().style() != Qt::NoBrush);
        QVERIFY(filled->brush().color().alpha() < 100);
        QVERIFY(filled->pen().widthF() < 2.0);
        QCOMPARE(filled->data()->size(), 20);
    }

    // A band a hundred times wider than its line is clipped by the frame at one span of the
    // lines beyond them; a band alone still sets the range.
    void hugeBandDoesNotFlattenTheLines()
    {
        Figure f = onePlot({line("mean", 0.5, 50, 0.5)});  // y from 0 to 1
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

    void heatMap_data()
    {
        QTest::addColumn<int>("nx");
        QTest::addColumn<int>("ny");
        QTest::addColumn<int>("values");
        QTest::addColumn<bool>("drawn");
        QTest::newRow("4x3") << 4 << 3 << 12 << true;
        QTest::newRow("1x7") << 1 << 7 << 7 << true;
        QTest::newRow("size mismatch") << 4 << 3 << 11 << false;
    }
    void heatMap()
    {
        QFETCH(int, nx);
        QFETCH(int, ny);
        QFETCH(int, values);
        QFETCH(bool, drawn);
        HeatMap map;
        map.name = "log density";
        map.nx = nx;
        map.ny = ny;
        for (int i = 0; i < values; ++i)
            map.values.push_back(i);
        Figure f = onePlot({});
        f.plots[0].heatMaps.push_back(map);
        PlotView view;
        if (!drawn)
            QTest::ignoreMessage(QtWarningMsg, QRegularExpression("heat map .* not drawn"));
        view.setFigure(f);
        const auto maps = plottablesOf<QCPColorMap>(view.axisRect(0));
        QCOMPARE(maps.size(), drawn ? 1 : 0);
        if (!drawn)
            return;
        QCOMPARE(maps[0]->data()->keySize(), nx);
        QCOMPARE(maps[0]->data()->valueSize(), ny);
        QCOMPARE(maps[0]->data()->cell(nx - 1, ny - 1), double(nx * ny - 1));  // row-major
        QVERIFY(maps[0]->colorScale());
        QCOMPARE(maps[0]->colorScale()->label(), QStringLiteral("log density"));

        // Hovering the top-right cell reads its value.
        view.resize(600, 400);
        view.renderNow();
        QCPAxisRect* rect = view.axisRect(0);
        const QPointF at(rect->axis(QCPAxis::atBottom)->coordToPixel(map.xMax) - 2,
                         rect->axis(QCPAxis::atLeft)->coordToPixel(map.yMax) + 2);
        QMouseEvent move(QEvent::MouseMove, at, at, Qt::NoButton, Qt::NoButton, {});
        QApplication::sendEvent(view.customPlot(), &move);
        QCPItemText* hover = overlayText(view.customPlot());
        QVERIFY(hover && hover->visible());
        QVERIFY2(hover->text().contains(QStringLiteral("log density: %1").arg(nx * ny - 1)), qPrintable(hover->text()));
    }

    void markerIsStraightLineWithLabel()
    {
        Figure f = onePlot({line("s", 1)});
        f.plots[0].markers.push_back({"g = 9.81", 0.25});
        f.plots[0].markers.push_back({"true", 0.3});
        PlotView view;
        view.setFigure(f);
        const auto lines = figureItems<QCPItemStraightLine>(view.customPlot());
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0]->point1->coords().x(), 0.25);
        QCOMPARE(lines[0]->point2->coords().x(), 0.25);
        QCOMPARE(lines[0]->pen().style(), Qt::DotLine);
        QStringList labels;
        for (QCPItemText* t : figureItems<QCPItemText>(view.customPlot()))
            labels << t->text();
        QCOMPARE(labels, (QStringList{"g = 9.81", "true"}));
    }

    void logY_data()
    {
        QTest::addColumn<bool>("logY");
        QTest::newRow("linear") << false;
        QTest::newRow("log") << true;
    }
    void logY()
    {
        QFETCH(bool, logY);
        Series s = line("s", 1.0, 20, 2.0);  // y in [1, 3]
        s.y[3] = 0.0;                         // not on a log axis; must not break the fit
        Figure f = onePlot({s});
        f.plots[0].logY = logY;
        PlotView view;
        view.setFigure(f);
        QCPAxis* y = view.axisRect(0)->axis(QCPAxis::atLeft);
        QCOMPARE(y->scaleType() == QCPAxis::stLogarithmic, logY);
        QCOMPARE(bool(y->ticker().dynamicCast<QCPAxisTickerLog>()), logY);
        if (logY)
            QVERIFY(y->range().lower > 0);
        view.renderNow();
    }

    void hiddenSeriesSurviveNewFigure()
    {
        Figure f = onePlot({line("a", 1), line("b", 2)}, "Posterior");
        PlotView view;
        view.setFigure(f);
        QVERIFY(view.isSeriesVisible(0, "b"));
        view.setSeriesVisible(0, "b", false);
        auto graphs = plottablesOf<QCPGraph>(view.axisRect(0));
        QVERIFY(graphs[0]->visible());
        QVERIFY(!graphs[1]->visible());
        QVERIFY(!view.isSeriesVisible(0, "b"));
        QCOMPARE(view.hiddenSeries(), QStringList{"Posterior/b"});
        auto* item = legendOf(view.axisRect(0))->itemWithPlottable(graphs[1]);
        QVERIFY(item);
        QVERIFY(item->textColor() != QColor(Qt::black));  // greyed in the legend

        f.plots[0].series[1].y[0] = 42;  // a new figure with the same names (updated in place)
        view.setFigure(f);
        graphs = plottablesOf<QCPGraph>(view.axisRect(0));
        QVERIFY(!graphs[1]->visible());
        QVERIFY(graphs[0]->visible());

        f.plots[0].series.push_back(line("c", 3));  // another shape (rebuilt), same names
        view.setFigure(f);
        graphs = plottablesOf<QCPGraph>(view.axisRect(0));
        QCOMPARE(graphs.size(), 3);
        QVERIFY(!graphs[1]->visible());
        QVERIFY(graphs[0]->visible());
        QVERIFY(graphs[2]->visible());
        f.plots[0].series.pop_back();
        view.setFigure(f);

        view.setSeriesVisible(0, "b", true);
        QVERIFY(plottablesOf<QCPGraph>(view.axisRect(0))[1]->visible());
        QVERIFY(view.hiddenSeries().isEmpty());

        view.setHiddenSeries({"Posterior/a"});  // session restore
        QVERIFY(!plottablesOf<QCPGraph>(view.axisRect(0))[0]->visible());
        QVERIFY(!view.isSeriesVisible(5, "a"));
    }

    void hidingABandHidesBothEdges()
    {
        Figure f = onePlot({});
        f.plots[0].bands.push_back({"±2 sd", {0, 1}, {0, 0}, {1, 1}, -1});
        PlotView view;
        view.setFigure(f);
        view.setSeriesVisible(0, "±2 sd", false);
        const auto graphs = plottablesOf<QCPGraph>(view.axisRect(0));
        QCOMPARE(graphs.size(), 2);
        QVERIFY(!graphs[0]->visible());
        QVERIFY(!graphs[1]->visible());
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
        QCOMPARE(clicks.count(), 0);  // a legend click is not a click in the plot
        view->renderNow();
        QTest::mouseClick(view->customPlot(), Qt::LeftButton, {}, onB);
        QVERIFY(view->isSeriesVisible(0, "b"));
    }

    void clickEmitsDataCoordinates()
    {
        auto view = shownView(onePlot({line("a", 1)}));
        QSignalSpy clicks(view.get(), &PlotView::pointClicked);
        QCPAxisRect* rect = view->axisRect(0);
        const QPoint at = rect->rect().topLeft() + QPoint(rect->width() / 4, rect->height() / 3);
        QTest::mouseClick(view->customPlot(), Qt::LeftButton, {}, at);
        QCOMPARE(clicks.count(), 1);
        QCOMPARE(clicks[0][0].toInt(), 0);
        QVERIFY(std::abs(clicks[0][1].toDouble() - rect->axis(QCPAxis::atBottom)->pixelToCoord(at.x())) < 1e-9);
        QVERIFY(std::abs(clicks[0][2].toDouble() - rect->axis(QCPAxis::atLeft)->pixelToCoord(at.y())) < 1e-9);
        QVERIFY(!view->isUserZoomed(0));  // a click is not a pan
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
        auto view = shownView(onePlot({line("a", 1)}));  // y in [-1, 1]
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
            QMouseEvent press(QEvent::MouseButtonPress, c, plot->mapToGlobal(c), Qt::LeftButton, Qt::LeftButton, {});
            QMouseEvent move(QEvent::MouseMove, to, plot->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, {});
            QMouseEvent release(QEvent::MouseButtonRelease, to, plot->mapToGlobal(to), Qt::LeftButton, Qt::NoButton,
                                {});
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

        view->setFigure(onePlot({line("a", 10, 50, 100)}));  // very different data, same axes
        xAxis = view->axisRect(0)->axis(QCPAxis::atBottom);
        QCOMPARE(xAxis->range().lower, zoomed.lower);
        QCOMPARE(xAxis->range().upper, zoomed.upper);

        view->resetView();
        QVERIFY(!view->isUserZoomed(0));
        QCOMPARE(xAxis->range().lower, -1.0);
        QCOMPARE(xAxis->range().upper, 1.0);
        QVERIFY(view->axisRect(0)->axis(QCPAxis::atLeft)->range().lower > 80);  // fits y = 100 ± 10
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

    void hoverShowsInterpolatedValues()
    {
        Series step = line("steps", 1, 5);
        step.kind = SeriesKind::Step;
        auto view = shownView(onePlot({line("twice", 2, 51), step}));
        QCustomPlot* plot = view->customPlot();
        QCPAxisRect* rect = view->axisRect(0);
        const QPoint at = centreOf(rect) + QPoint(37, 0);
        QTest::mouseMove(plot, at);
        QMouseEvent move(QEvent::MouseMove, at, plot->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::NoButton, {});
        QApplication::sendEvent(plot, &move);
        QCPItemText* text = overlayText(plot);
        QVERIFY(text);
        QVERIFY(text->visible());
        const double x = rect->axis(QCPAxis::atBottom)->pixelToCoord(at.x());
        const QString shown = text->text();
        QVERIFY2(shown.contains(QStringLiteral("twice: %1").arg(QString::number(2 * x, 'g', 4))), qPrintable(shown));
        // Steps at -1, -0.5, 0, 0.5, 1: the nearest one holds.
        const double nearest = std::round(x * 2) / 2;
        QVERIFY2(shown.contains(QStringLiteral("steps: %1").arg(QString::number(nearest, 'g', 4))), qPrintable(shown));

        view->setSeriesVisible(0, "twice", false);
        QApplication::sendEvent(plot, &move);
        QVERIFY(!text->text().contains("twice"));

        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(plot, &leave);
        QVERIFY(!text->visible());
    }

    void nanBreaksLineWithoutCrash()
    {
        Series s = line("gappy", 1, 100);
        for (int i = 40; i < 50; ++i)
            s.y[i] = std::numeric_limits<double>::quiet_NaN();
        s.y[0] = std::numeric_limits<double>::infinity();
        Series allNan;
        allNan.name = "nothing";
        allNan.x = {0, 1};
        allNan.y = {std::nan(""), std::nan("")};
        auto view = shownView(onePlot({s, allNan}));
        const QCPRange y = view->axisRect(0)->axis(QCPAxis::atLeft)->range();
        QVERIFY(std::isfinite(y.lower) && std::isfinite(y.upper));
        QVERIFY(y.upper < 2);
        QMouseEvent move(QEvent::MouseMove, centreOf(view->axisRect(0)), QPointF(), Qt::NoButton, Qt::NoButton, {});
        QApplication::sendEvent(view->customPlot(), &move);
        QVERIFY(!view->toImage(300, 200).isNull());
    }

    void sameShapeUpdatesInPlace()
    {
        Figure f = onePlot({line("a", 1), line("b", 2)});
        f.plots[0].markers.push_back({"g = 9.81", 0.5});
        PlotView view;
        view.setFigure(f);
        view.setSeriesVisible(0, "b", false);
        QCPGraph* before = plottablesOf<QCPGraph>(view.axisRect(0))[0];
        QPointer<QCPAxisRect> rectBefore = view.axisRect(0);

        f.plots[0].series[0].y[0] = 7.0;
        f.plots[0].markers[0] = {"g = 9.80", 0.25};
        view.setFigure(f);
        QCOMPARE(view.axisRect(0), rectBefore);
        QCOMPARE(plottablesOf<QCPGraph>(view.axisRect(0))[0], before);
        QCOMPARE(before->data()->at(0)->value, 7.0);
        QVERIFY(!plottablesOf<QCPGraph>(view.axisRect(0))[1]->visible());
        const auto labels = figureItems<QCPItemText>(view.customPlot());
        QCOMPARE(labels.size(), 1);
        QCOMPARE(labels[0]->text(), QStringLiteral("g = 9.80"));
        QCOMPARE(figureItems<QCPItemStraightLine>(view.customPlot())[0]->point1->coords().x(), 0.25);

        f.plots[0].series[1].name = "c";  // another shape: rebuilt
        view.setFigure(f);
        QVERIFY(rectBefore.isNull());  // the old rect is gone
        QCOMPARE(legendNames(legendOf(view.axisRect(0))), (QStringList{"a", "c"}));

        std::reverse(f.plots[0].series[0].x.begin(), f.plots[0].series[0].x.end());  // now parametric
        view.setFigure(f);
        QCOMPARE(plottablesOf<QCPCurve>(view.axisRect(0)).size(), 1);
        QCOMPARE(plottablesOf<QCPGraph>(view.axisRect(0)).size(), 1);
    }

    void figureArrivingMidDragKeepsPan()
    {
        auto view = shownView(onePlot({line("a", 1)}));
        QCustomPlot* plot = view->customPlot();
        QCPAxis* xAxis = view->axisRect(0)->axis(QCPAxis::atBottom);
        const QPointF c = centreOf(view->axisRect(0));
        auto send = [&](QEvent::Type type, QPointF at, Qt::MouseButton button, Qt::MouseButtons buttons) {
            QMouseEvent e(type, at, plot->mapToGlobal(at), button, buttons, {});
            QApplication::sendEvent(plot, &e);
        };
        send(QEvent::MouseButtonPress, c, Qt::LeftButton, Qt::LeftButton);
        send(QEvent::MouseMove, c + QPointF(60, 0), Qt::NoButton, Qt::LeftButton);
        QVERIFY(view->isUserZoomed(0));
        const QCPRange panned = xAxis->range();
        QVERIFY(panned.lower < -1.0);

        view->setFigure(onePlot({line("a", 3)}));  // a progress update mid-drag
        QCOMPARE(xAxis->range().lower, panned.lower);
        send(QEvent::MouseMove, c + QPointF(120, 0), Qt::NoButton, Qt::LeftButton);
        QVERIFY(xAxis->range().lower < panned.lower);  // the same drag goes on
        send(QEvent::MouseButtonRelease, c + QPointF(120, 0), Qt::LeftButton, Qt::NoButton);
        QVERIFY(view->isUserZoomed(0));
    }

    void fastGraphSimplifiesAndDashes()
    {
        const double nan = std::nan("");
        QVector<QPointF> line;
        for (int i = 0; i <= 100; ++i)
            line << QPointF(i, 0.001 * i);  // straight
        line << QPointF(nan, nan) << QPointF(200, 0) << QPointF(201, 5) << QPointF(202, 0);
        const QVector<QPointF> simple = FastGraph::simplify(line, 0.25);
        QCOMPARE(simple.size(), 2 + 1 + 3);  // ends of the straight run, the gap, the spike kept
        QCOMPARE(simple[0], QPointF(0, 0));
        QCOMPARE(simple[1], QPointF(100, 0.1));
        QVERIFY(std::isnan(simple[2].x()));
        QCOMPARE(simple[4], QPointF(201, 5));

        // 100 px with 6 px dashes and 6 px gaps: 9 whole dashes and a last one of 4 px.
        const QVector<QPointF> pieces = FastGraph::dashPieces({QPointF(0, 0), QPointF(100, 0)}, 6, 6);
        double drawn = 0;
        int dashes = 0;
        for (int i = 1; i < pieces.size(); ++i) {
            if (!std::isnan(pieces[i].x()) && !std::isnan(pieces[i - 1].x())) {
                drawn += pieces[i].x() - pieces[i - 1].x();
                ++dashes;
            }
        }
        QCOMPARE(dashes, 9);
        QVERIFY(std::abs(drawn - (8 * 6 + 4)) < 1e-9);
    }

    void renderedSignalFollowsQueuedReplot()
    {
        PlotView view;  // never shown, as in --export and --bench-sweep
        view.resize(800, 500);
        QSignalSpy spy(&view, &PlotView::rendered);
        view.setFigure(onePlot({line("a", 1)}));
        QCOMPARE(spy.count(), 0);  // queued
        QVERIFY(spy.wait(2000));
        QCOMPARE(spy.count(), 1);
        QVERIFY(view.lastRenderMs() > 0);
        QCOMPARE(view.customPlot()->viewport().size(), QSize(800, 500));  // laid out at the widget's size
    }

    void toImageDoesNotDisturbScreen()
    {
        Figure f = onePlot({line("a", 1), line("b", 2)});
        f.plots[0].bands.push_back({"band", {-1, 1}, {-1, -1}, {1, 1}, -1});
        auto view = shownView(f);
        view->setSeriesVisible(0, "b", false);
        view->renderNow();
        const QImage before = view->customPlot()->grab().toImage();
        const QRect rectBefore = view->axisRect(0)->rect();
        const int legendItems = legendOf(view->axisRect(0))->itemCount();

        const QImage image = view->toImage(640, 360);
        QCOMPARE(image.size(), QSize(640, 360));
        QVERIFY(distinctColours(image) > 3);

        QCOMPARE(legendOf(view->axisRect(0))->itemCount(), legendItems);  // hidden entry back
        view->renderNow();
        QCOMPARE(view->axisRect(0)->rect(), rectBefore);
        QCOMPARE(view->customPlot()->grab().toImage(), before);
    }

    void exportsFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Figure f = onePlot({line("a", 1), line("b", -1)});
        f.plots[0].markers.push_back({"m", 0.1});
        PlotView view;
        view.setFigure(f);

        const QString png = dir.filePath("f.png");
        QVERIFY(view.savePng(png, 800, 500));
        QImage loaded(png);
        QVERIFY(!loaded.isNull());
        QCOMPARE(loaded.size(), QSize(800, 500));
        QVERIFY(distinctColours(loaded) > 3);

        const QString svg = dir.filePath("f.svg");
        QVERIFY(view.saveSvg(svg, 800, 500));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBoxF(), QRectF(0, 0, 800, 500));

        const QString pdf = dir.filePath("f.pdf");
        QVERIFY(view.savePdf(pdf, 800, 500));
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY(bytes.contains("%%EOF"));

        QVERIFY(!view.savePng(dir.filePath("no/such/dir/f.png"), 800, 500));
        QVERIFY(view.toImage(0, 10).isNull());
    }

    void setFigureTiming()
    {
        Figure f;
        Plot p;
        p.title = "timing";
        p.xLabel = "x";
        p.yLabel = "density";
        for (int k = 0; k < 5; ++k) {
            Series s;
            s.name = "series " + std::to_string(k);
            s.dashed = k == 4;
            for (int i = 0; i < 800; ++i) {
                const double x = -5 + 10.0 * i / 799;
                s.x.push_back(x);
                s.y.push_back(std::exp(-0.5 * (x - k) * (x - k)) * (1 + 0.1 * std::sin(7 * x)));
            }
            p.series.push_back(s);
        }
        f.plots.push_back(p);
        auto view = shownView(f);
        QCOMPARE(view->customPlot()->size(), QSize(1000, 700));
        for (const bool sameShape : {true, false}) {
            std::vector<double> build, render;
            for (int i = 0; i < 40; ++i) {
                f.plots[0].series[0].y[i] += 1e-3;
                if (!sameShape)
                    f.plots[0].series[1].name = "series 1" + std::string(i % 2, '\'');  // forces a rebuild
                QElapsedTimer t;
                t.start();
                view->setFigure(f);
                build.push_back(t.nsecsElapsed() * 1e-6);
                view->renderNow();
                render.push_back(view->lastRenderMs());
            }
            std::sort(build.begin(), build.end());
            std::sort(render.begin(), render.end());
            qDebug("setFigure 5x800 at 1000x700 (%s): setFigure median %.2f ms, replot median %.2f ms; "
                   "p90 %.2f + %.2f ms",
                   sameShape ? "same shape, updated in place" : "new shape, rebuilt", build[20], render[20], build[36],
                   render[36]);
        }
        QCOMPARE(plottablesOf<QCPGraph>(view->axisRect(0)).size(), 5);

        // Hover read-out: an overlay-layer replot per mouse move, no full replot.
        QSignalSpy replots(view->customPlot(), &QCustomPlot::afterReplot);
        const QRect area = view->axisRect(0)->rect();
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < 50; ++i) {
            const QPointF at(area.left() + 10 + i * (area.width() - 20) / 50.0, area.center().y());
            QMouseEvent move(QEvent::MouseMove, at, view->customPlot()->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                             {});
            QApplication::sendEvent(view->customPlot(), &move);
        }
        qDebug("hover read-out: %.3f ms per mouse move", t.nsecsElapsed() * 1e-6 / 50);
        QCOMPARE(replots.count(), 0);
    }

    void sampleImage()
    {
        const QByteArray path = qgetenv("EVX_SAMPLE_PNG");
        if (path.isEmpty())
            QSKIP("set EVX_SAMPLE_PNG=/path.png to write a sample figure");
        Figure f;
        Plot post;
        post.title = "Posterior of g under three interpretations";
        post.xLabel = "g (m/s²)";
        post.yLabel = "density";
        const char* names[] = {"prior", "Jeffrey's rule", "virtual evidence", "distributional evidence"};
        const double means[] = {9.5, 9.78, 9.83, 9.8};
        const double sds[] = {0.3, 0.08, 0.05, 0.12};
        for (int k = 0; k < 4; ++k) {
            Series s;
            s.name = names[k];
            s.dashed = k == 0;
            for (int i = 0; i < 400; ++i) {
                const double x = 8.8 + 1.8 * i / 399;
                const double z = (x - means[k]) / sds[k];
                s.x.push_back(x);
                s.y.push_back(std::exp(-0.5 * z * z) / (sds[k] * std::sqrt(2 * M_PI)));
            }
            post.series.push_back(s);
        }
        Band band;
        band.name = "±2 sd";
        band.colour = 2;
        for (int i = 0; i < 400; ++i) {
            const double x = 8.8 + 1.8 * i / 399;
            const double z = (x - 9.83) / 0.05;
            const double y = std::exp(-0.5 * z * z) / (0.05 * std::sqrt(2 * M_PI));
            band.x.push_back(x);
            band.lower.push_back(0.8 * y);
            band.upper.push_back(1.2 * y);
        }
        post.bands.push_back(band);
        post.markers.push_back({"g = 9.81", 9.81});
        f.plots.push_back(post);

        Plot bars;
        bars.title = "Posterior probability of each hypothesis";
        bars.xLabel = "hypothesis";
        bars.yLabel = "probability";
        Series prior{"prior", SeriesKind::Bar, {1, 2, 3, 4}, {0.25, 0.25, 0.25, 0.25}};
        Series posterior{"posterior", SeriesKind::Bar, {1, 2, 3, 4}, {0.1, 0.6, 0.25, 0.05}};
        bars.series = {prior, posterior};
        f.plots.push_back(bars);

        PlotView view;
        view.resize(1000, 700);
        view.setFigure(f);
        QVERIFY(view.savePng(QString::fromLocal8Bit(path), 1000, 700));
        QCOMPARE(QImage(QString::fromLocal8Bit(path)).size(), QSize(1000, 700));
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
        for (const auto& [size, wraps] : {std::pair(QSize(1200, 260), true), std::pair(QSize(500, 900), false)}) {
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
};

QTEST_MAIN(TestPlotView)
#include "test_plot_view.moc"
