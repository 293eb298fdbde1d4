// Streamed frames (issue 14): the partial figures of one long run hold the axes and legend
// corners as a slider drag does, and the final figure refits once. Runs offscreen.

#include "plot/plot_view.h"
#include "plot_view_test_support.h"

#include "../common/compare_near.h"

#include <qcustomplot.h>

#include <QTest>

#include <cmath>

using namespace evx;
using namespace evx::plot_test;

namespace {

QCPRange range(PlotView& view, int plot, QCPAxis::AxisType axis)
{
    return view.axisRect(plot)->axis(axis)->range();
}

Qt::Alignment legendCorner(PlotView& view, int plot)
{
    QCPLayoutInset* inset = view.axisRect(plot)->insetLayout();
    for (int i = 0; i < inset->elementCount(); ++i)
        if (qobject_cast<QCPLegend*>(inset->elementAt(i)))
            return inset->insetAlignment(i);
    return {};
}

// Frame `epoch` of a made-up training run: plot 0 a density whose peak walks from the left
// of a fixed x grid to its right (so the freest corner for the legend changes sides), plot 1
// the loss of each epoch so far (so x grows and y falls from frame to frame).
Figure frame(int epoch, int epochs)
{
    Figure f;
    Plot density;
    density.title = "Posterior";
    density.xLabel = "θ";
    density.yLabel = "density";
    Series d;
    d.name = "posterior";
    const double mean = -1.3 + 2.6 * epoch / epochs;
    for (int i = 0; i <= 120; ++i) {
        const double x = -1.5 + 3.0 * i / 120;
        d.x.push_back(x);
        d.y.push_back(std::exp(-0.5 * std::pow((x - mean) / 0.15, 2)));
    }
    density.series.push_back(d);
    Plot loss;
    loss.title = "Loss";
    loss.xLabel = "epoch";
    loss.yLabel = "loss";
    Series l;
    l.name = "training loss";
    for (int e = 1; e <= epoch; ++e) {
        l.x.push_back(e);
        l.y.push_back(1 + 4 * std::exp(-e / 6.0));
    }
    loss.series.push_back(l);
    f.plots = {density, loss};
    return f;
}

// What a fresh view fits to `figure`: the ranges of a refit.
QCPRange fitted(const Figure& figure, int plot, QCPAxis::AxisType axis)
{
    auto view = shownView(figure);
    return range(*view, plot, axis);
}

Qt::Alignment fittedCorner(const Figure& figure, int plot)
{
    auto view = shownView(figure);
    return legendCorner(*view, plot);
}

// The hold rule of PlotView (kHoldSlack, kHoldShrink) for a linear axis, written out here
// from its documentation: a side moves to the data's extent only when the data pass it by
// more than the slack of the span, and data shrunk below kHoldShrink of the span refit.
QCPRange heldRule(const QCPRange& held, const QCPRange& data)
{
    const double span = held.size();
    if (data.size() < PlotView::kHoldShrink * span)
        return data;
    return QCPRange(data.lower < held.lower - PlotView::kHoldSlack * span ? data.lower : held.lower,
                    data.upper > held.upper + PlotView::kHoldSlack * span ? data.upper : held.upper);
}

} // namespace

class TestPlotStream : public QObject {
    Q_OBJECT

private slots:
    void framesOfOneRunHoldThenTheFinalFigureRefits()
    {
        const int epochs = 24, first = 3;
        const quint64 run = 7;
        auto view = shownView(Figure{});
        view->setStreamedFigure(frame(first, epochs), run);
        view->renderNow();
        QVERIFY(view->isStreaming());
        QVERIFY(view->holdsRanges());

        // The first frame fits its own data, as any new figure does.
        for (auto axis : {QCPAxis::atBottom, QCPAxis::atLeft}) {
            const QCPRange want = fitted(frame(first, epochs), 1, axis);
            EVX_COMPARE_NEAR(range(*view, 1, axis).lower, want.lower, 1e-12);
            EVX_COMPARE_NEAR(range(*view, 1, axis).upper, want.upper, 1e-12);
        }
        const Qt::Alignment corner = legendCorner(*view, 0);
        QCOMPARE(corner, fittedCorner(frame(first, epochs), 0));

        // Later frames: every range follows the hold rule from the one shown before, and the
        // legend keeps its corner although a fresh fit would move it.
        int xChanges = 0, movedCorners = 0;
        for (int epoch = first + 1; epoch < epochs; ++epoch) {
            const Figure f = frame(epoch, epochs);
            const QCPRange xBefore = range(*view, 1, QCPAxis::atBottom);
            const QCPRange yBefore = range(*view, 1, QCPAxis::atLeft);
            view->setStreamedFigure(f, run);
            view->renderNow();
            const QCPRange xWant = heldRule(xBefore, fitted(f, 1, QCPAxis::atBottom));
            const QCPRange yWant = heldRule(yBefore, fitted(f, 1, QCPAxis::atLeft));
            EVX_COMPARE_NEAR(range(*view, 1, QCPAxis::atBottom).lower, xWant.lower, 1e-12);
            EVX_COMPARE_NEAR(range(*view, 1, QCPAxis::atBottom).upper, xWant.upper, 1e-12);
            EVX_COMPARE_NEAR(range(*view, 1, QCPAxis::atLeft).lower, yWant.lower, 1e-12);
            EVX_COMPARE_NEAR(range(*view, 1, QCPAxis::atLeft).upper, yWant.upper, 1e-12);
            xChanges += range(*view, 1, QCPAxis::atBottom) != xBefore;
            QCOMPARE(legendCorner(*view, 0), corner);
            movedCorners += fittedCorner(f, 0) != corner;
        }
        // The frame stood still on some frames, and a refit would have moved the legend.
        QVERIFY2(
            xChanges > 0 && xChanges < epochs - first - 1,
            qPrintable(QString("x range changed on %1 of %2 frames").arg(xChanges).arg(epochs - first - 1)));
        QVERIFY2(movedCorners > 0, "the test frames never move the legend when refitted");

        // The final figure ends the stream and refits once: ranges and corner as a fresh view.
        const Figure last = frame(epochs, epochs);
        view->setFigure(last);
        view->renderNow();
        QVERIFY(!view->isStreaming());
        QVERIFY(!view->holdsRanges());
        for (int plot : {0, 1})
            for (auto axis : {QCPAxis::atBottom, QCPAxis::atLeft}) {
                const QCPRange want = fitted(last, plot, axis);
                EVX_COMPARE_NEAR(range(*view, plot, axis).lower, want.lower, 1e-12);
                EVX_COMPARE_NEAR(range(*view, plot, axis).upper, want.upper, 1e-12);
            }
        QCOMPARE(legendCorner(*view, 0), fittedCorner(last, 0));
        QVERIFY(legendCorner(*view, 0) != corner);
    }

    void anotherRunsFirstFrameRefits()
    {
        auto view = shownView(Figure{});
        view->setStreamedFigure(frame(20, 24), 1);
        view->setStreamedFigure(frame(21, 24), 1);
        // A parameter changed: run 2 starts again at epoch 2; its frame is no continuation of
        // run 1's, so it fits its own data and holds from there.
        const Figure restart = frame(2, 24);
        view->setStreamedFigure(restart, 2);
        view->renderNow();
        QVERIFY(view->isStreaming());
        const QCPRange want = fitted(restart, 1, QCPAxis::atBottom);
        EVX_COMPARE_NEAR(range(*view, 1, QCPAxis::atBottom).upper, want.upper, 1e-12);
        QCOMPARE(legendCorner(*view, 0), fittedCorner(restart, 0));
    }

    void aFailedRunEndsTheStreamAndRefits()
    {
        auto view = shownView(Figure{});
        view->setStreamedFigure(frame(20, 24), 1);
        const QCPRange held = range(*view, 1, QCPAxis::atBottom);
        view->setStreamedFigure(frame(21, 24), 1); // one epoch more: within the slack, held
        QVERIFY(view->holdsRanges());
        QCOMPARE(range(*view, 1, QCPAxis::atBottom).upper, held.upper);
        view->endStream();
        QVERIFY(!view->holdsRanges());
        const QCPRange want = fitted(frame(21, 24), 1, QCPAxis::atBottom);
        EVX_COMPARE_NEAR(range(*view, 1, QCPAxis::atBottom).upper, want.upper, 1e-12);
        QVERIFY2(want.upper > held.upper,
                 qPrintable(QString("refit %1, held %2").arg(want.upper).arg(held.upper)));
    }

    void aDragHoldOutlivesTheStream()
    {
        auto view = shownView(frame(3, 24));
        view->setHoldRanges(true); // a slider is down
        view->setStreamedFigure(frame(4, 24), 1);
        view->setFigure(frame(5, 24));
        QVERIFY(!view->isStreaming());
        QVERIFY(view->holdsRanges());
        view->setHoldRanges(false);
        QVERIFY(!view->holdsRanges());
    }
};

QTEST_MAIN(TestPlotStream)
#include "test_plot_stream.moc"
