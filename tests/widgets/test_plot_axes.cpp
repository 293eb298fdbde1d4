// Tests of how PlotView sets its axes beyond fitting the data: ranges and legends held while
// a slider is dragged or Play runs (issue 14 item 3). Runs offscreen.

#include "plot/plot_view.h"
#include "plot_view_test_support.h"

#include "../common/compare_near.h"

#include <qcustomplot.h>

#include <QTest>

#include <cmath>

using namespace evx;
using namespace evx::plot_test;

namespace {

QCPRange xRange(PlotView& view)
{
    return view.axisRect(0)->axis(QCPAxis::atBottom)->range();
}
QCPRange yRange(PlotView& view)
{
    return view.axisRect(0)->axis(QCPAxis::atLeft)->range();
}

// The ranges a fresh view fits to `figure`: what a release of the hold must come back to.
std::pair<QCPRange, QCPRange> fittedRanges(const Figure& figure)
{
    auto view = shownView(figure);
    return {xRange(*view), yRange(*view)};
}

Qt::Alignment legendCorner(PlotView& view)
{
    QCPLayoutInset* inset = view.axisRect(0)->insetLayout();
    for (int i = 0; i < inset->elementCount(); ++i)
        if (qobject_cast<QCPLegend*>(inset->elementAt(i)))
            return inset->insetAlignment(i);
    return {};
}

// y = x⁴ on [0, 1] leaves the top-left corner free; mirrored, the top-right.
Figure fourthPower(bool mirrored)
{
    Series s;
    s.name = "x to the fourth";
    for (int i = 0; i <= 100; ++i) {
        const double x = i / 100.0;
        s.x.push_back(x);
        s.y.push_back(std::pow(mirrored ? 1 - x : x, 4));
    }
    return onePlot({s});
}

} // namespace

class TestPlotAxes : public QObject {
    Q_OBJECT

private slots:
    void heldRangesMoveOnlyWhenTheDataLeaveThem()
    {
        auto view = shownView(onePlot({line("a", 1)})); // y in [-1, 1]
        const QCPRange x0 = xRange(*view), y0 = yRange(*view);
        view->setHoldRanges(true);
        QVERIFY(view->holdsRanges());

        // 5 % steeper: inside the slack, the frame does not move.
        view->setFigure(onePlot({line("a", 1.05)}));
        QCOMPARE(yRange(*view).lower, y0.lower);
        QCOMPARE(yRange(*view).upper, y0.upper);
        QCOMPARE(xRange(*view).lower, x0.lower);
        QCOMPARE(xRange(*view).upper, x0.upper);

        // Three times steeper: the line would leave the frame, so the axis takes the data's extent.
        const Figure steep = onePlot({line("a", 3)});
        view->setFigure(steep);
        const auto [steepX, steepY] = fittedRanges(steep);
        EVX_COMPARE_NEAR(yRange(*view).lower, steepY.lower, 1e-12);
        EVX_COMPARE_NEAR(yRange(*view).upper, steepY.upper, 1e-12);
        QVERIFY2(steepY.upper > y0.upper * (1 + PlotView::kHoldSlack),
                 qPrintable(QString("fitted %1, held %2").arg(steepY.upper).arg(y0.upper)));

        // Only one side passes the frame: the other stays.
        Figure shifted = onePlot({line("a", 3, 50, 2)}); // y in [-1, 5]
        view->setFigure(shifted);
        const auto [shiftedX, shiftedY] = fittedRanges(shifted);
        EVX_COMPARE_NEAR(yRange(*view).lower, steepY.lower, 1e-12);
        EVX_COMPARE_NEAR(yRange(*view).upper, shiftedY.upper, 1e-12);

        // Far flatter: the line would be a sliver of the frame, so the axis refits.
        const Figure flat = onePlot({line("a", 0.1)});
        view->setFigure(flat);
        const auto [flatX, flatY] = fittedRanges(flat);
        EVX_COMPARE_NEAR(yRange(*view).lower, flatY.lower, 1e-12);
        EVX_COMPARE_NEAR(yRange(*view).upper, flatY.upper, 1e-12);

        // Back to y in [-1.05, 1.05] under a held [-0.105, 0.105]: widened, then the release
        // fits the data as a fresh view does.
        const Figure again = onePlot({line("a", 1.05)});
        view->setFigure(again);
        view->setHoldRanges(false);
        QVERIFY(!view->holdsRanges());
        const auto [againX, againY] = fittedRanges(again);
        EVX_COMPARE_NEAR(yRange(*view).lower, againY.lower, 1e-12);
        EVX_COMPARE_NEAR(yRange(*view).upper, againY.upper, 1e-12);
        EVX_COMPARE_NEAR(xRange(*view).upper, againX.upper, 1e-12);
    }

    void withoutHoldEveryFigureRefits()
    {
        auto view = shownView(onePlot({line("a", 1)}));
        const Figure next = onePlot({line("a", 1.05)});
        view->setFigure(next);
        const auto [x, y] = fittedRanges(next);
        EVX_COMPARE_NEAR(yRange(*view).upper, y.upper, 1e-12);
    }

    void heldLogAxisComparesDecades()
    {
        Figure f = onePlot({line("a", 1, 50, 10)}); // y in [9, 11]
        f.plots[0].logY = true;
        auto view = shownView(f);
        const QCPRange y0 = yRange(*view);
        view->setHoldRanges(true);
        Figure higher = f;
        for (double& y : higher.plots[0].series[0].y)
            y *= 1000; // three decades up: far off the frame
        view->setFigure(higher);
        QVERIFY2(
            yRange(*view).upper >= 10999,
            qPrintable(QString("held log axis upper %1 must show y up to 11000").arg(yRange(*view).upper)));
        QCOMPARE(yRange(*view).lower, y0.lower);
    }

    void userZoomWinsOverTheHold()
    {
        auto view = shownView(onePlot({line("a", 1)}));
        view->axisRect(0)->axis(QCPAxis::atLeft)->setRange(0, 0.5);
        view->markUserZoomed(0);
        view->setHoldRanges(true);
        view->setFigure(onePlot({line("a", 3)}));
        view->setHoldRanges(false);
        QCOMPARE(yRange(*view).lower, 0.0);
        QCOMPARE(yRange(*view).upper, 0.5);
    }

    void legendStaysInItsCornerWhileHeld()
    {
        auto view = shownView(fourthPower(false));
        QCOMPARE(legendCorner(*view), Qt::AlignTop | Qt::AlignLeft);
        // Unheld, the legend follows the free corner.
        view->setFigure(fourthPower(true));
        QCOMPARE(legendCorner(*view), Qt::AlignTop | Qt::AlignRight);
        view->setFigure(fourthPower(false));
        QCOMPARE(legendCorner(*view), Qt::AlignTop | Qt::AlignLeft);

        // Held (Play, a drag), it stays for every frame, then moves once on release.
        view->setHoldRanges(true);
        for (int frame = 0; frame < 3; ++frame) {
            view->setFigure(fourthPower(frame % 2 == 0));
            view->renderNow();
            QCOMPARE(legendCorner(*view), Qt::AlignTop | Qt::AlignLeft);
        }
        view->setHoldRanges(false);
        QCOMPARE(legendCorner(*view), Qt::AlignTop | Qt::AlignRight); // the last frame was mirrored
    }

    // A plot that means geometry keeps one unit as long along x as along y: a circle stays a
    // circle in a frame of any shape.
    void equalAspectKeepsCirclesRound_data()
    {
        QTest::addColumn<bool>("equal");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::newRow("wide, equal") << true << 1000 << 500;
        QTest::newRow("tall, equal") << true << 420 << 800;
        QTest::newRow("wide, free") << false << 1000 << 500;
    }

    void equalAspectKeepsCirclesRound()
    {
        QFETCH(bool, equal);
        QFETCH(int, width);
        QFETCH(int, height);
        Series circle;
        circle.name = "unit circle";
        for (int k = 0; k <= 72; ++k) {
            circle.x.push_back(2 + std::cos(k * M_PI / 36));
            circle.y.push_back(-1 + std::sin(k * M_PI / 36));
        }
        Figure f = onePlot({circle});
        f.plots[0].equalAspect = equal;
        PlotView view;
        view.resize(width, height);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setFigure(f);
        view.renderNow();
        QCoreApplication::processEvents(); // the queued replot that settles the layout
        view.renderNow();
        const QRect frame = view.axisRect(0)->rect();
        const double xPerPixel = xRange(view).size() / frame.width();
        const double yPerPixel = yRange(view).size() / frame.height();
        // The layout settles in one extra pass; 2 % is a pixel or two of a frame's margins.
        if (equal)
            EVX_COMPARE_NEAR(xPerPixel / yPerPixel, 1.0, 0.02);
        else
            QVERIFY2(
                std::abs(xPerPixel / yPerPixel - 1) > 0.2,
                qPrintable(QString("free aspect %1 should follow the frame").arg(xPerPixel / yPerPixel)));
        // The whole circle is in the frame.
        QVERIFY(xRange(view).lower <= 1 && xRange(view).upper >= 3);
        QVERIFY(yRange(view).lower <= -2 && yRange(view).upper >= 0);
    }

    // Counts tick at integers only, however few there are on the axis.
    void integerAxesTickAtIntegers_data()
    {
        QTest::addColumn<bool>("integer");
        QTest::addColumn<double>("last");
        QTest::newRow("three samples") << true << 3.0;
        QTest::newRow("5000 epochs") << true << 5000.0;
        QTest::newRow("not a count") << false << 3.0;
    }

    void integerAxesTickAtIntegers()
    {
        QFETCH(bool, integer);
        QFETCH(double, last);
        Series s;
        s.name = "estimate";
        for (int i = 0; i <= 20; ++i) {
            s.x.push_back(1 + (last - 1) * i / 20.0);
            s.y.push_back(i);
        }
        Figure f = onePlot({s});
        f.plots[0].xInteger = integer;
        auto view = shownView(f);
        view->renderNow();
        const QVector<double> ticks = view->axisRect(0)->axis(QCPAxis::atBottom)->tickVector();
        QVERIFY(ticks.size() >= 2);
        int fractional = 0;
        for (double t : ticks)
            fractional += t != std::round(t);
        if (integer)
            QVERIFY2(fractional == 0,
                     qPrintable(QString("%1 fractional ticks on a count axis").arg(fractional)));
        else
            QVERIFY2(fractional > 0, "the free axis of [1, 3] should tick at halves (the control)");
    }

    // A marker's name goes to the side of its line where no curve runs: here the curve is high
    // right of the line (where a name goes first) and low left of it.
    void markerNameAvoidsTheCurves()
    {
        Figure f = onePlot({curve(
            "step", [](double x) { return x > 0.02 ? 1.0 : 0.0; }, 201)});
        f.plots[0].markers.push_back({"true value", 0.0});
        // A short frame: the name's height is a tenth of the y span, so it would reach y = 1.
        auto view = shownView(f, QSize(500, 260));
        QCoreApplication::processEvents();
        view->renderNow();
        QCPItemText* label = figureText(view->customPlot(), "true value");
        QVERIFY(label);
        QVERIFY(label->visible());
        QVERIFY2(label->positionAlignment() & Qt::AlignRight,
                 "the name should sit left of its line, away from the curve at the top right");
    }

    // A marker at a peak: the curve runs under the top of the line on both sides, so the name
    // goes lower down the line, where it covers no point of the curve (bnn-identifiability's C*).
    void markerNameAtAPeakMovesDownTheLine()
    {
        const Series s = curve(
            "parabola", [](double x) { return 1 - x * x; }, 201);
        Figure f = onePlot({s});
        f.plots[0].markers.push_back({"C* = 0.497", 0.0});
        auto view = shownView(f, QSize(500, 300));
        QCoreApplication::processEvents();
        view->renderNow();
        QCPItemText* label = figureText(view->customPlot(), "C* = 0.497");
        QVERIFY(label);
        QVERIFY(label->visible());
        QVERIFY2(label->position->coords().y() > 0, "the name should leave the top of its line");
        const QCPAxisRect* rect = view->customPlot()->axisRect();
        const QRectF box(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition());
        for (std::size_t k = 0; k < s.x.size(); ++k) {
            const QPointF at(rect->axis(QCPAxis::atBottom)->coordToPixel(s.x[k]),
                             rect->axis(QCPAxis::atLeft)->coordToPixel(s.y[k]));
            QVERIFY2(!box.contains(at),
                     qPrintable(QString("the name covers the curve at x = %1").arg(s.x[k])));
        }
    }
};

QTEST_MAIN(TestPlotAxes)
#include "test_plot_axes.moc"
