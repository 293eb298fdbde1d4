#pragma once
// FastGraph: a QCPGraph that draws on screen what it would draw anyway, with fewer vertices.
//
// Dense curves (hundreds of points across a plot) cost most of a replot in stroking 2 px
// antialiased lines, and dashed ones several times more, because Qt's dash stroker walks
// every tiny segment. For raster output this graph (1) drops vertices that lie within
// 0.25 px of the simplified line (Douglas-Peucker in pixel space, so it adapts to zoom)
// and (2) cuts dashes itself into solid pieces with the flat cap of Qt's dashed pen, so they
// look as Qt draws it (round caps added about 1 ms, an eighth, to ue-drop-ball's replot).
// Vector exports (PDF, SVG) get the full data and Qt's own dashes.
//
// Markers: on screen each one is stamped from a pixmap drawn once per style, not stroked and
// filled as an antialiased ellipse every time (300 markers of bq-2d-marginal at n = 150 were
// about a fifth of its replot). Exports draw every marker as a shape.

#include <qcustomplot.h>

namespace evx {

class FastGraph : public QCPGraph {
public:
    using QCPGraph::QCPGraph;

    // Exposed for tests: the polyline simplification and dash splitting used for raster.
    // NaN points separate runs, as in QCustomPlot's line data.
    static QVector<QPointF> simplify(const QVector<QPointF>& points, double tolerance);
    static QVector<QPointF> dashPieces(const QVector<QPointF>& points, double dash, double gap);

protected:
    void drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const override;
    void drawScatterPlot(QCPPainter* painter, const QVector<QPointF>& scatters,
                         const QCPScatterStyle& style) const override;

private:
    const QPixmap& markerStamp(const QCPScatterStyle& style, bool antialiased, double pixelRatio) const;

    mutable QPixmap m_stamp;
    mutable QString m_stampKey;
};

} // namespace evx
