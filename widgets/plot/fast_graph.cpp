#include "plot/fast_graph.h"

#include <QPixmap>
#include <cmath>
#include <utility>
#include <vector>

namespace evx {

namespace {

constexpr double kTolerance = 0.25; // pixels; invisible with antialiasing
constexpr double kMaxDashes = 1e5;  // a 4K screen's diagonal holds about 400 dashes

bool isGap(const QPointF& p)
{
    return std::isnan(p.x()) || std::isnan(p.y());
}

const QPointF kGap(std::nan(""), std::nan(""));

} // namespace

QVector<QPointF> FastGraph::simplify(const QVector<QPointF>& points, double tolerance)
{
    QVector<QPointF> out;
    out.reserve(points.size());
    const int n = static_cast<int>(points.size());
    const double tol2 = tolerance * tolerance;
    std::vector<char> keep;
    std::vector<std::pair<int, int>> stack;
    int i = 0;
    while (i < n) {
        if (isGap(points[i])) {
            out.push_back(points[i++]);
            continue;
        }
        int j = i;
        while (j + 1 < n && !isGap(points[j + 1]))
            ++j;
        // Douglas-Peucker on the run [i, j], iteratively.
        keep.assign(static_cast<std::size_t>(j - i + 1), 0);
        keep.front() = keep.back() = 1;
        stack.assign(1, {i, j});
        while (!stack.empty()) {
            const auto [a, b] = stack.back();
            stack.pop_back();
            if (b - a < 2)
                continue;
            const QPointF d = points[b] - points[a];
            const double len2 = d.x() * d.x() + d.y() * d.y();
            double worst = -1;
            int worstAt = -1;
            for (int k = a + 1; k < b; ++k) {
                const QPointF v = points[k] - points[a];
                const double cross = v.x() * d.y() - v.y() * d.x();
                const double dist2 = len2 > 0 ? cross * cross / len2 : v.x() * v.x() + v.y() * v.y();
                if (dist2 > worst) {
                    worst = dist2;
                    worstAt = k;
                }
            }
            if (worst > tol2) {
                keep[static_cast<std::size_t>(worstAt - i)] = 1;
                stack.push_back({a, worstAt});
                stack.push_back({worstAt, b});
            }
        }
        for (int k = i; k <= j; ++k) {
            if (keep[static_cast<std::size_t>(k - i)])
                out.push_back(points[k]);
        }
        i = j + 1;
    }
    return out;
}

QVector<QPointF> FastGraph::dashPieces(const QVector<QPointF>& points, double dash, double gap)
{
    QVector<QPointF> out;
    if (dash <= 0 || gap <= 0)
        return points;
    // A line far outside the view (a point at 1e300 mapped to pixels) would be cut into
    // more dashes than memory holds; past a few per pixel of a large screen, draw it solid.
    double total = 0;
    for (int k = 1; k < points.size(); ++k)
        if (!isGap(points[k]) && !isGap(points[k - 1]))
            total += std::hypot(points[k].x() - points[k - 1].x(), points[k].y() - points[k - 1].y());
    if (!(total / (dash + gap) <= kMaxDashes))
        return points;
    bool drawing = true;
    double remaining = dash;
    bool runStart = true;
    for (int k = 0; k < points.size(); ++k) {
        const QPointF& p = points[k];
        if (isGap(p)) {
            if (!out.isEmpty() && !isGap(out.back()))
                out.push_back(kGap);
            runStart = true;
            continue;
        }
        if (runStart) {
            // Like Qt, every run (subpath) starts the pattern afresh with a dash.
            drawing = true;
            remaining = dash;
            out.push_back(p);
            runStart = false;
            continue;
        }
        const QPointF from = points[k - 1];
        const QPointF d = p - from;
        const double length = std::hypot(d.x(), d.y());
        double t = 0;
        while (length - t > remaining) {
            t += remaining;
            const QPointF q = from + d * (t / length);
            out.push_back(q);
            if (drawing)
                out.push_back(kGap);
            drawing = !drawing;
            remaining = drawing ? dash : gap;
        }
        remaining -= length - t;
        if (drawing)
            out.push_back(p);
    }
    return out;
}

void FastGraph::drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const
{
    const QPen pen = painter->pen();
    if (painter->modes().testFlag(QCPPainter::pmVectorized) || pen.style() == Qt::NoPen) {
        QCPGraph::drawLinePlot(painter, lines);
        return;
    }
    const QVector<QPointF> simple = simplify(lines, kTolerance);
    if (pen.style() == Qt::SolidLine) {
        QCPGraph::drawLinePlot(painter, simple);
        return;
    }
    // Dashes of Qt's pattern (in pen widths) as a flat-capped pen draws them, each piece
    // drawn solid with the same flat cap.
    const QVector<qreal> pattern = pen.dashPattern();
    const double w = std::max(1.0, pen.widthF());
    const double dash = pattern.size() >= 2 ? pattern[0] * w : 4 * w;
    const double gap = pattern.size() >= 2 ? pattern[1] * w : 2 * w;
    QPen solid = pen;
    solid.setStyle(Qt::SolidLine);
    solid.setCapStyle(Qt::FlatCap);
    painter->setPen(solid);
    QCPGraph::drawLinePlot(painter, dashPieces(simple, dash, gap));
    painter->setPen(pen);
}

const QPixmap& FastGraph::markerStamp(const QCPScatterStyle& style, bool antialiased, double pixelRatio) const
{
    const QPen pen = style.isPenDefined() ? style.pen() : mPen;
    const QString key = QString("%1 %2 %3 %4 %5 %6 %7 %8 %9")
                            .arg(int(style.shape()))
                            .arg(style.size())
                            .arg(pen.color().rgba())
                            .arg(pen.widthF())
                            .arg(int(pen.style()))
                            .arg(style.brush().color().rgba())
                            .arg(int(style.brush().style()))
                            .arg(antialiased)
                            .arg(pixelRatio);
    if (key != m_stampKey) {
        // Room for the shape, its pen and the antialiased fringe. The centre falls on a pixel
        // corner, as a stamp is placed on whole pixels; QCPPainter's half-pixel shift for
        // antialiasing is undone here, as the screen's painter applies it when stamping.
        const int side = static_cast<int>(std::ceil(style.size() + pen.widthF() + 2));
        const int even = side + side % 2;
        m_stamp = QPixmap(static_cast<int>(std::ceil(even * pixelRatio)),
                          static_cast<int>(std::ceil(even * pixelRatio)));
        m_stamp.setDevicePixelRatio(pixelRatio);
        m_stamp.fill(Qt::transparent);
        QCPPainter painter(&m_stamp);
        painter.setAntialiasing(antialiased);
        style.applyTo(&painter, mPen);
        const QPointF shift(painter.transform().dx(), painter.transform().dy());
        style.drawShape(&painter, even / 2.0 - shift.x(), even / 2.0 - shift.y());
        m_stampKey = key;
    }
    return m_stamp;
}

QVector<QPointF> FastGraph::spacedAlong(const QVector<QPointF>& points, int count)
{
    if (count <= 0 || points.size() <= count)
        return points;
    // Cumulative arc length at each point; a gap adds nothing, so runs join end to end.
    std::vector<double> at(static_cast<std::size_t>(points.size()), 0);
    double length = 0;
    for (qsizetype i = 1; i < points.size(); ++i) {
        if (!isGap(points[i]) && !isGap(points[i - 1]))
            length += std::hypot(points[i].x() - points[i - 1].x(), points[i].y() - points[i - 1].y());
        at[static_cast<std::size_t>(i)] = length;
    }
    QVector<QPointF> out;
    out.reserve(count);
    qsizetype i = 0, last = -1;
    for (int k = 0; k < count; ++k) {
        const double target = (k + 0.5) * length / count;
        while (i + 1 < points.size() && at[static_cast<std::size_t>(i + 1)] <= target)
            ++i;
        qsizetype pick = i;
        if (i + 1 < points.size() &&
            at[static_cast<std::size_t>(i + 1)] - target < target - at[static_cast<std::size_t>(i)])
            pick = i + 1;
        // Step off a gap to its nearest real neighbour.
        while (pick < points.size() && isGap(points[pick]))
            ++pick;
        if (pick < points.size() && pick != last) {
            out.push_back(points[pick]);
            last = pick;
        }
    }
    return out;
}

void FastGraph::drawScatterPlot(QCPPainter* painter, const QVector<QPointF>& allScatters,
                                const QCPScatterStyle& style) const
{
    const QVector<QPointF> scatters =
        m_markersAlongLine > 0 ? spacedAlong(allScatters, m_markersAlongLine) : allScatters;
    // Exports (vector files, and rasters at a print scale, which QCustomPlot draws uncached)
    // and transformed painters draw true shapes.
    const QCPPainter::PainterModes exact = QCPPainter::pmVectorized | QCPPainter::pmNoCaching;
    if ((painter->modes() & exact) || painter->transform().type() > QTransform::TxTranslate ||
        style.shape() == QCPScatterStyle::ssPixmap || style.shape() == QCPScatterStyle::ssCustom) {
        QCPGraph::drawScatterPlot(painter, scatters, style);
        return;
    }
    applyScattersAntialiasingHint(painter);
    const QPixmap& stamp =
        markerStamp(style, painter->antialiasing(), painter->device()->devicePixelRatioF());
    const QPointF centre(stamp.width() / stamp.devicePixelRatio() / 2,
                         stamp.height() / stamp.devicePixelRatio() / 2);
    for (const QPointF& p : scatters)
        painter->drawPixmap(p - centre, stamp);
}

} // namespace evx
