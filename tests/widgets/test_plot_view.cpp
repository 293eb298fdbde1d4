// Tests of PlotView: what a Figure turns into in QCustomPlot (series, bands, heat maps,
// markers), visibility and in-place updates. Layout and legends are in test_plot_layout.cpp,
// rendering and export in test_plot_export.cpp, the mouse in test_plot_interaction.cpp. Runs
// offscreen.

#include "plot/fast_graph.h"
#include "plot/palette.h"
#include "plot/plot_view.h"
#include "plot_view_test_support.h"

#include <qcustomplot.h>

#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

using namespace evx;
using namespace evx::plot_test;

class TestPlotView : public QObject {
    Q_OBJECT

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
            QVERIFY(std::abs(barList.front()->width() - 0.8 * 0.2) < 1e-9); // x spacing 0.2
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
        QVERIFY(x.lower < 0.6 && x.upper > 3.4); // outer bars whole
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

    void dashedAndColours()
    {
        Series plain = line("plain", 1);
        Series dashed = line("dashed", 2);
        dashed.dashed = true;
        Series fixed = line("fixed", 3);
        fixed.colour = 0; // the colour the first automatic series would otherwise take
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
        QCOMPARE(maps[0]->data()->cell(nx - 1, ny - 1), double(nx * ny - 1)); // row-major
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
        QVERIFY2(hover->text().contains(QStringLiteral("log density: %1").arg(nx * ny - 1)),
                 qPrintable(hover->text()));
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
        Series s = line("s", 1.0, 20, 2.0); // y in [1, 3]
        s.y[3] = 0.0;                       // not on a log axis; must not break the fit
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
        QVERIFY(item->textColor() != QColor(Qt::black)); // greyed in the legend

        f.plots[0].series[1].y[0] = 42; // a new figure with the same names (updated in place)
        view.setFigure(f);
        graphs = plottablesOf<QCPGraph>(view.axisRect(0));
        QVERIFY(!graphs[1]->visible());
        QVERIFY(graphs[0]->visible());

        f.plots[0].series.push_back(line("c", 3)); // another shape (rebuilt), same names
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

        view.setHiddenSeries({"Posterior/a"}); // session restore
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
        QMouseEvent move(QEvent::MouseMove, centreOf(view->axisRect(0)), QPointF(), Qt::NoButton,
                         Qt::NoButton, {});
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

        f.plots[0].series[1].name = "c"; // another shape: rebuilt
        view.setFigure(f);
        QVERIFY(rectBefore.isNull()); // the old rect is gone
        QCOMPARE(legendNames(legendOf(view.axisRect(0))), (QStringList{"a", "c"}));

        std::reverse(f.plots[0].series[0].x.begin(), f.plots[0].series[0].x.end()); // now parametric
        view.setFigure(f);
        QCOMPARE(plottablesOf<QCPCurve>(view.axisRect(0)).size(), 1);
        QCOMPARE(plottablesOf<QCPGraph>(view.axisRect(0)).size(), 1);
    }

    void fastGraphSimplifiesAndDashes()
    {
        const double nan = std::nan("");
        QVector<QPointF> line;
        for (int i = 0; i <= 100; ++i)
            line << QPointF(i, 0.001 * i); // straight
        line << QPointF(nan, nan) << QPointF(200, 0) << QPointF(201, 5) << QPointF(202, 0);
        const QVector<QPointF> simple = FastGraph::simplify(line, 0.25);
        QCOMPARE(simple.size(), 2 + 1 + 3); // ends of the straight run, the gap, the spike kept
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

    void markersSpreadAlongTheLine()
    {
        // 300 points on a 300 px line, 250 of them crowded into [140, 160] as a scenario's grid
        // is around a narrow peak. Every 37th point (the old scatter skip) put 7 of 8 markers
        // in that 20 px; spread by arc length they sit near 18.75 + 37.5 k px.
        QVector<QPointF> line;
        for (int i = 0; i < 25; ++i)
            line.push_back(QPointF(i * 140.0 / 25, 0));
        for (int i = 0; i < 250; ++i)
            line.push_back(QPointF(140 + i * 20.0 / 250, 0));
        for (int i = 0; i <= 25; ++i)
            line.push_back(QPointF(160 + i * 140.0 / 25, 0));
        const QVector<QPointF> spread = FastGraph::spacedAlong(line, 8);
        QCOMPARE(spread.size(), 8);
        for (int k = 0; k < 8; ++k) // the sparse parts' points are 5.6 px apart: nearest within 2.8 px
            QVERIFY2(std::abs(spread[k].x() - (18.75 + 37.5 * k)) <= 2.8 + 1e-9,
                     qPrintable(QString("marker %1 at %2").arg(k).arg(spread[k].x())));
        // A gap neither counts as length nor becomes a marker; few points are all kept.
        const QPointF gap(std::nan(""), std::nan(""));
        const QVector<QPointF> broken = {QPointF(0, 0), QPointF(10, 0), gap, QPointF(50, 0), QPointF(60, 0)};
        for (const QPointF& p : FastGraph::spacedAlong(broken, 3))
            QVERIFY(!std::isnan(p.x()));
        QCOMPARE(FastGraph::spacedAlong(broken, 8).size(), broken.size()); // (NaN ≠ NaN: compare sizes)
    }

    void stampedMarkersLookLikeDrawnOnes()
    {
        // On screen (the replot's buffer) every marker is a stamp; an export at scale 1 draws
        // true shapes. Each marker must carry the same ink at the same place, to within the
        // half pixel a stamp is snapped by.
        QCustomPlot plot;
        plot.setGeometry(0, 0, 400, 300);
        plot.setViewport(plot.rect());
        plot.setAntialiasedElements(QCP::aeScatters);
        auto* graph = new FastGraph(plot.xAxis, plot.yAxis);
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(20, 40, 120), 1),
                                               QColor(200, 80, 0, 200), 7));
        for (int k = 0; k < 10; ++k)
            graph->addData(k + 0.13 * k, 0.1 + 0.17 * k); // fractional pixel positions
        plot.xAxis->setRange(-1, 12);
        plot.yAxis->setRange(-0.5, 2.5);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const QImage stamped = plot.grab().toImage().convertToFormat(QImage::Format_RGB32);
        const QImage drawn = plot.toPixmap(400, 300, 1.0).toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(stamped.size(), drawn.size());
        for (int k = 0; k < 10; ++k) {
            const double px = plot.xAxis->coordToPixel(k + 0.13 * k);
            const double py = plot.yAxis->coordToPixel(0.1 + 0.17 * k);
            auto inkAround = [&](const QImage& image) {
                double ink = 0, sx = 0, sy = 0;
                for (int y = int(py) - 8; y <= int(py) + 8; ++y)
                    for (int x = int(px) - 8; x <= int(px) + 8; ++x) {
                        const QRgb c = image.pixel(x, y);
                        const double dark = 3 * 255 - qRed(c) - qGreen(c) - qBlue(c);
                        ink += dark;
                        sx += dark * x;
                        sy += dark * y;
                    }
                return std::array<double, 3>{ink, sx / ink, sy / ink};
            };
            const auto s = inkAround(stamped), d = inkAround(drawn);
            QVERIFY2(std::abs(s[0] - d[0]) < 0.1 * d[0],
                     qPrintable(QString("marker %1: ink %2 against %3").arg(k).arg(s[0]).arg(d[0])));
            QVERIFY2(std::hypot(s[1] - d[1], s[2] - d[2]) < 0.75,
                     qPrintable(QString("marker %1: centre (%2, %3) against (%4, %5)")
                                    .arg(k)
                                    .arg(s[1])
                                    .arg(s[2])
                                    .arg(d[1])
                                    .arg(d[2])));
        }
    }

    void hugeLinesAreNotCutIntoDashes()
    {
        // A point at 1e300 mapped to pixels once made the splitter allocate until memory ran
        // out; such a line is drawn solid, as its two ends.
        const QVector<QPointF> far{QPointF(0, 0), QPointF(1e300, -1e300)};
        QCOMPARE(FastGraph::dashPieces(far, 6, 6), far);
        // A line just within the limit of 1e5 dashes is still cut.
        const QVector<QPointF> long_{QPointF(0, 0), QPointF(1.1e6, 0)};
        QVERIFY(FastGraph::dashPieces(long_, 6, 6).size() > 100000);
    }
};

QTEST_MAIN(TestPlotView)
#include "test_plot_view.moc"
