// PlotView's high-contrast theme (issue 40 §4): for a projector, lines thicker, bands hatched
// in their full colour rather than a faint fill, points and bars opaque, the legend opaque and
// framed in black. The colours themselves stay the palette's.

#include "plot/plot_view.h"

#include <qcustomplot.h>

#include <QtTest>

using namespace evx;

namespace {

Figure lineBandAndPoints()
{
    Plot p;
    p.title = "theme";
    Series line{"line", SeriesKind::Line, {0, 1, 2, 3}, {0, 1, 0, 1}, 0};
    Series other{"other", SeriesKind::Line, {0, 1, 2, 3}, {1, 0, 1, 0}, 3};
    Series points{"points", SeriesKind::Scatter, {0.5, 1.5}, {0.5, 0.5}, 4};
    p.series = {line, other, points};
    p.bands.push_back(Band{"band", {0, 1, 2, 3}, {-1, 0, -1, 0}, {1, 2, 1, 2}, 0});
    Figure f;
    f.plots.push_back(p);
    return f;
}

template <typename T> T* plottableNamed(QCustomPlot* plot, const QString& name)
{
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (plot->plottable(i)->name() == name)
            return qobject_cast<T*>(plot->plottable(i));
    return nullptr;
}

} // namespace

class TestPlotTheme : public QObject {
    Q_OBJECT
private slots:
    void highContrastIsThickerHatchedAndOpaque()
    {
        PlotView view;
        view.resize(800, 500);
        view.setFigure(lineBandAndPoints());
        QCustomPlot* plot = view.customPlot();
        auto* line = plottableNamed<QCPGraph>(plot, "line");
        auto* band = plottableNamed<QCPGraph>(plot, "band");
        auto* points = plottableNamed<QCPGraph>(plot, "points");
        QVERIFY(line && band && points);
        const double width = line->pen().widthF();
        const QColor lineColour = line->pen().color();
        QCOMPARE(band->brush().style(), Qt::SolidPattern);
        QVERIFY(band->brush().color().alpha() < 128); // the faint fill a projector loses

        view.setTheme(PlotView::Theme::HighContrast);
        line = plottableNamed<QCPGraph>(plot, "line");
        band = plottableNamed<QCPGraph>(plot, "band");
        points = plottableNamed<QCPGraph>(plot, "points");
        QVERIFY(line && band && points);
        QCOMPARE(line->pen().widthF(), 1.75 * width);
        QCOMPARE(line->pen().color(), lineColour); // the same palette
        QCOMPARE(band->brush().style(), Qt::BDiagPattern);
        QCOMPARE(band->brush().color().alpha(), 255);
        QCOMPARE(band->pen().color(), lineColour); // its edge in the full colour, not lightened
        QCOMPARE(points->scatterStyle().brush().color().alpha(), 255);
        // Back to the standard theme: as before.
        view.setTheme(PlotView::Theme::Standard);
        line = plottableNamed<QCPGraph>(plot, "line");
        QCOMPARE(line->pen().widthF(), width);
    }

    // Two readings in one plot carry a marker each besides their colour (series_style.h).
    void linesOfTwoColoursCarryMarkers()
    {
        PlotView view;
        view.resize(800, 500);
        view.setFigure(lineBandAndPoints());
        auto* line = plottableNamed<QCPGraph>(view.customPlot(), "line");
        auto* other = plottableNamed<QCPGraph>(view.customPlot(), "other");
        QVERIFY(line && other);
        QCOMPARE(line->scatterStyle().shape(), QCPScatterStyle::ssCircle);
        QCOMPARE(other->scatterStyle().shape(), QCPScatterStyle::ssDiamond);
    }
};

QTEST_MAIN(TestPlotTheme)
#include "test_plot_theme.moc"
