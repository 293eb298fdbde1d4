// Tests of PlotView pins: earlier figures' curves drawn as ghosts under the current figure
// (colours, style, layer, legend entry, fitted range, least height). Runs offscreen.

#include "plot/plot_view.h"
#include "plot_view_test_support.h"

#include <qcustomplot.h>

#include <QTest>

using namespace evx;
using namespace evx::plot_test;

class TestPlotPins : public QObject {
    Q_OBJECT

private slots:
    // A pin's curves are faint copies in the colours they were drawn in, under one legend
    // entry, under the current curves, inside the fitted range, and not in figure().
    void pinsAreGhostsOfTheirCurves()
    {
        PlotView view;
        view.resize(600, 400);
        const Figure before = onePlot({line("a", 1.0, 11), line("b", -1.0, 11)});
        view.setFigure(before);
        const QColor colourA = view.customPlot()->graph(0)->pen().color();
        const QColor colourB = view.customPlot()->graph(1)->pen().color();
        view.setPins({{"pinned: k = 1", PlotView::pinnedCurves(before)}});
        // Now the current figure has "b" only, much lower: the ghosts keep their own colours
        // (not the next free ones beside "b") and the range reaches the ghost of "a" at y = 1.
        Figure after = onePlot({line("b", -1.0, 11, -5.0)});
        view.setFigure(after);
        view.renderNow();
        QCOMPARE(view.ghostCount(0), 2);
        QCOMPARE(view.figure().plots.at(0).series.size(), std::size_t(1));
        std::vector<QCPGraph*> ghosts;
        QCPGraph* key = nullptr;
        for (int i = 0; i < view.customPlot()->graphCount(); ++i) {
            QCPGraph* g = view.customPlot()->graph(i);
            if (g->name() != "pinned: k = 1")
                continue;
            (g->data()->isEmpty() ? key : ghosts.emplace_back()) = g;
        }
        QVERIFY(key);
        QCOMPARE(int(ghosts.size()), 2);
        QCOMPARE(ghosts[0]->pen().color().rgb(), colourA.rgb());
        QCOMPARE(ghosts[1]->pen().color().rgb(), colourB.rgb());
        QCOMPARE(ghosts[0]->pen().color().alpha(), PlotView::kGhostAlpha);
        QCOMPARE(ghosts[0]->pen().style(), Qt::DashLine);
        QCOMPARE(ghosts[0]->data()->at(10)->value, 1.0);
        QCOMPARE(ghosts[0]->layer()->name(), QString("ghosts"));
        QVERIFY(ghosts[0]->layer()->index() < view.customPlot()->graph(0)->layer()->index());
        QCOMPARE(ghosts[0]->pen().widthF(),
                 PlotView::kGhostWidth * view.customPlot()->graph(0)->pen().widthF());
        const QStringList names = legendNames(legendOf(view.axisRect(0)));
        QCOMPARE(names, QStringList({"b", "pinned: k = 1"}));
        const QCPRange y = view.axisRect(0)->axis(QCPAxis::atLeft)->range();
        QVERIFY2(y.lower <= -6 && y.upper >= 1,
                 qPrintable(QString("y from %1 to %2").arg(y.lower).arg(y.upper)));

        view.setSeriesVisible(0, "pinned: k = 1", false); // the legend entry hides the whole pin
        QVERIFY(!ghosts[0]->visible() && !ghosts[1]->visible());
        view.setSeriesVisible(0, "pinned: k = 1", true);
        view.setPinLabels({"pinned: k = 2"});
        QCOMPARE(legendNames(legendOf(view.axisRect(0))), QStringList({"b", "pinned: k = 2"}));
        view.setPins({});
        QCOMPARE(view.ghostCount(0), 0);
        QCOMPARE(view.customPlot()->graphCount(), 1);
    }

    // The height a figure asks for counts a pin as one legend entry, however many curves it has.
    void aPinIsOneLegendEntryInTheLeastHeight()
    {
        const std::string longName = "a name long enough to send the legend below the plot";
        const Figure current = onePlot({line(longName + " 1", 1.0, 11), line(longName + " 2", -1.0, 11),
                                        line(longName + " 3", 2.0, 11)});
        PlotView pinned;
        pinned.resize(400, 300);
        pinned.setFigure(current);
        pinned.setPins({{QString::fromStdString(longName + " pin"), PlotView::pinnedCurves(current)}});
        Figure oneMore = current;
        oneMore.plots[0].series.push_back(line(longName + " pin", 0.5, 11));
        PlotView plain;
        plain.resize(400, 300);
        plain.setFigure(oneMore);
        PlotView fewer;
        fewer.resize(400, 300);
        fewer.setFigure(current);
        QVERIFY2(plain.minimumSizeHint().height() > fewer.minimumSizeHint().height(),
                 qPrintable(QString("%1 vs %2")
                                .arg(plain.minimumSizeHint().height())
                                .arg(fewer.minimumSizeHint().height())));
        QCOMPARE(pinned.minimumSizeHint().height(), plain.minimumSizeHint().height());
    }

    // Corner plots share one legend: a pin is one entry there too, and its ghosts (scatter
    // points hollow and translucent) go in every plot they match.
    void pinsInASharedLegend()
    {
        Figure f;
        for (int i = 0; i < 2; ++i) {
            Plot p;
            p.title = i == 0 ? "P0" : "P1";
            p.xLabel = "x";
            p.yLabel = i == 0 ? "y0" : "y1";
            p.row = i;
            p.column = 0;
            p.legend = LegendPlace::Shared;
            p.series = {line("a", 1.0 + i, 11)};
            p.series[0].kind = SeriesKind::Scatter;
            f.plots.push_back(p);
        }
        PlotView view;
        view.resize(500, 500);
        view.setFigure(f);
        view.setPins({{"pinned", PlotView::pinnedCurves(f)}});
        view.renderNow();
        QCOMPARE(view.ghostCount(0), 1);
        QCOMPARE(view.ghostCount(1), 1);
        QCPLegend* shared = nullptr;
        for (int i = 0; i < view.customPlot()->axisRectCount() && !shared; ++i)
            shared = legendOf(view.customPlot()->axisRect(i));
        QVERIFY(shared);
        QCOMPARE(legendNames(shared), QStringList({"a", "pinned"}));
        for (int i = 0; i < view.customPlot()->graphCount(); ++i) {
            const QCPGraph* g = view.customPlot()->graph(i);
            if (g->name() == "pinned" && !g->data()->isEmpty()) {
                QCOMPARE(g->scatterStyle().brush().style(), Qt::NoBrush);
                QCOMPARE(g->scatterStyle().pen().color().alpha(), PlotView::kGhostAlpha);
            }
        }
    }
};

QTEST_MAIN(TestPlotPins)
#include "test_plot_pins.moc"
