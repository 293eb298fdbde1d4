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
//
// A line's markers (a second cue beside its colour) can be spread evenly along the curve as
// drawn, in pixel arc length: QCustomPlot's scatter skip takes every k-th data point, which
// piles them up where a scenario's grid is dense (around a narrow peak) and leaves the rest bare.

#include <qcustomplot.h>

namespace evx {

class FastGraph : public QCPGraph {
public:
    using QCPGraph::QCPGraph;

    // Exposed for tests: the polyline simplification and dash splitting used for raster.
    // NaN points separate runs, as in QCustomPlot's line data.
    static QVector<QPointF> simplify(const QVector<QPointF>& points, double tolerance);
    static QVector<QPointF> dashPieces(const QVector<QPointF>& points, double dash, double gap);
    // About `count` of the points, the nearest to evenly spaced arc lengths along the polyline
    // through them (NaN points break it); all of them when there are no more than `count`.
    static QVector<QPointF> spacedAlong(const QVector<QPointF>& points, int count);

    // Draw about `count` markers spread along the line instead of one per data point (0).
    void setMarkersAlongLine(int count) { m_markersAlongLine = count; }

protected:
    void drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const override;
    void drawScatterPlot(QCPPainter* painter, const QVector<QPointF>& scatters,
                         const QCPScatterStyle& style) const override;

private:
    const QPixmap& markerStamp(const QCPScatterStyle& style, bool antialiased, double pixelRatio) const;

    int m_markersAlongLine = 0;
    mutable QPixmap m_stamp;
    mutable QString m_stampKey;
};

} // namespace evx
