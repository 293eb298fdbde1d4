// Legend placement: each plot's legend goes to the corner of its axis rect that covers the
// fewest data points; when every corner holds data, the y axis gains headroom so that the
// top corners are free (on a linear axis), as a careful hand-made figure would. A legend
// that would still cover data (over a heat map, beside markers' names, taller than headroom
// can free) goes below the frame, in as many columns as the width holds.
#include "plot/plot_view.h"

#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace evx {
namespace {

struct Corner {
    Qt::Alignment alignment;
    bool right, top;
};

constexpr std::array<Corner, 4> kCorners{{{Qt::AlignTop | Qt::AlignRight, true, true},
                                          {Qt::AlignTop | Qt::AlignLeft, false, true},
                                          {Qt::AlignBottom | Qt::AlignRight, true, false},
                                          {Qt::AlignBottom | Qt::AlignLeft, false, false}}};

} // namespace

void PlotView::setLegendBelow(int index, bool below)
{
    PlotItems& items = m_plots[static_cast<std::size_t>(index)];
    QCPLegend* legend = items.legend;
    const bool isBelow = legend->layout() == items.cell;
    if (below == isBelow)
        return;
    if (below) {
        items.rect->insetLayout()->take(legend);
        items.cell->addElement(items.rectRow + 1, 0, legend);
        items.cell->setRowStretchFactor(items.rectRow + 1, 0.01); // as low as its entries need
        legend->setBorderPen(Qt::NoPen);
        legend->setBrush(Qt::NoBrush);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        legend->setMargins(QMargins(0, ilen(2), 0, 0));
    } else {
        items.cell->take(legend);
        items.cell->simplify();
        items.rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
        legend->setBorderPen(QPen(QColor(0, 0, 0, 70), len(1)));
        legend->setBrush(QColor(255, 255, 255, 210));
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
        legend->setMargins(QMargins(ilen(6), ilen(3), ilen(6), ilen(3)));
    }
}

QCPAxisRect* PlotView::cornerLegendHost() const
{
    QCPLegend* legend = m_sharedLegend;
    auto* host = legend && legend->visible() && legend->layout()
                     ? qobject_cast<QCPAxisRect*>(legend->layout()->parentLayerable())
                     : nullptr;
    const bool inAPlot =
        std::any_of(m_plots.begin(), m_plots.end(), [&](const PlotItems& p) { return p.rect == host; });
    return inAPlot ? nullptr : host;
}

bool PlotView::fitCornerLegend()
{
    // The legend of a corner plot sits in the empty top-right cell and may reach over the
    // empty cells to its left and below it, but not over a plot: at 89 mm a one-column legend
    // is wider than two cells and ran over the second row's density. The first of these that
    // keeps it off every plot: full-size text in one column, then in more (wide and short,
    // over the empty top row); then text at 90 % and 80 % (6.4 pt at 8 pt) the same way.
    QCPLegend* legend = m_sharedLegend;
    const QCPAxisRect* host = cornerLegendHost();
    if (!host)
        return false;
    std::vector<QRectF> frames;
    for (const PlotItems& p : m_plots)
        if (p.rect)
            frames.push_back(p.cell ? p.cell->outerRect() : p.rect->outerRect());
    const QRectF area = host->rect();
    auto covered = [&] {
        const QSize size = legend->minimumOuterSizeHint();
        const QRectF box(area.right() - size.width(), area.top(), size.width(), size.height());
        double sum = box.left() < 0 ? box.width() * box.height() : 0.0; // off the page
        for (const QRectF& frame : frames) {
            const QRectF overlap = frame.intersected(box);
            if (!overlap.isEmpty())
                sum += overlap.width() * overlap.height();
        }
        return sum;
    };
    auto arrange = [&](double textSize, int columns) {
        legend->setFont(textFont(textSize));
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    };
    const QFont before = legend->font();
    const int wrapBefore = legend->wrap(), entries = legend->itemCount();
    double best = std::numeric_limits<double>::infinity(), bestSize = 1;
    int bestColumns = 1;
    for (const double textSize : {1.0, 0.9, 0.8}) {
        for (int columns = 1; columns <= entries && best > 0; ++columns) {
            arrange(textSize, columns);
            const double c = covered();
            if (c < best)
                best = c, bestSize = textSize, bestColumns = columns;
        }
    }
    arrange(bestSize, bestColumns);
    return legend->font() != before || legend->wrap() != wrapBefore;
}

void PlotView::fitLegendBelow(int index, double width)
{
    QCPLegend* legend = m_plots[static_cast<std::size_t>(index)].legend;
    for (int columns = legend->itemCount(); columns >= 1; --columns) {
        if (legend->wrap() != columns || legend->fillOrder() != QCPLayoutGrid::foColumnsFirst) {
            legend->setWrap(columns);
            legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        }
        if (columns == 1 || legend->minimumOuterSizeHint().width() <= width)
            break;
    }
}

void PlotView::placeLegend(int index)
{
    // While ranges are held the legend stays where it was; it is placed afresh for each
    // layout, each rescale and each size.
    if (m_hold && reapplyLegend(index))
        return;
    const PlotItems& items = m_plots[static_cast<std::size_t>(index)];
    if (!items.legend || !items.legend->visible())
        return;
    recordLegend(index, chooseLegendPlace(index));
}

double PlotView::chooseLegendPlace(int index)
{
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(index)];
    const PlotItems& items = m_plots[static_cast<std::size_t>(index)];
    QCPAxis* xAxis = items.rect->axis(QCPAxis::atBottom);
    QCPAxis* yAxis = items.rect->axis(QCPAxis::atLeft);

    // The legend's share of the plot; before the first layout nothing has a size yet, so
    // estimate it from the viewport and the number of plots.
    const QCPLayoutGrid* grid = m_plot->plotLayout();
    const QSize viewport = m_plot->viewport().size();
    QSizeF cellSize = items.cell->outerRect().size();
    if (cellSize.width() >= 50)
        cellSize.setWidth(std::max(50.0, columnRoom(items))); // not what a wide legend forced
    if (cellSize.width() < 50 || cellSize.height() < 50)
        cellSize = QSizeF(double(viewport.width()) / std::max(grid->columnCount(), 1),
                          double(viewport.height()) / std::max(grid->rowCount(), 1));
    QSizeF rectSize = items.rect->rect().size();
    if (rectSize.width() < 50 || rectSize.height() < 50)
        rectSize = QSizeF(0.85 * cellSize.width(), 0.75 * cellSize.height());
    else if (items.legend->layout() == items.cell) // the frame's height with the legend inside
        rectSize.rheight() += items.legend->outerRect().height();

    // A legend taller than a third of a wide, short plot spreads over up to three columns
    // (read down each), so that it needs less room above the data.
    const int entries = items.legend->itemCount();
    for (int columns = 1; columns <= 3; ++columns) {
        const int rows = (entries + columns - 1) / columns;
        if (items.legend->wrap() != rows || items.legend->fillOrder() != QCPLayoutGrid::foRowsFirst) {
            items.legend->setWrap(rows); // placeLegend runs on every update: re-lay only on change
            items.legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
        }
        const QSize size = items.legend->minimumOuterSizeHint();
        if (size.height() <= rectSize.height() / 3 || columns == 3 || entries <= columns)
            break;
        // Would the next layout still leave most of the width to the data?
        if (size.width() * (columns + 1) / columns > 0.6 * rectSize.width())
            break;
    }
    // A legend that would still cover much of a small plot goes below it, in as many columns
    // as the width holds (a column figure, a narrow window, presentation mode).
    const QSize inside = items.legend->minimumOuterSizeHint();
    // Not in a short, wide cell (a screen with many plots): there the height below costs more
    // than the data the legend covers.
    const bool shortCell = cellSize.height() < 0.5 * cellSize.width();
    const bool below =
        inside.width() > 0.6 * cellSize.width() || (inside.height() > 0.35 * cellSize.height() && !shortCell);
    setLegendBelow(index, below);
    if (below) {
        fitLegendBelow(index, cellSize.width());
        return 1;
    }
    const QSize legendSize = items.legend->minimumOuterSizeHint();
    const double wf = std::min(0.9, (legendSize.width() + len(24)) / std::max(rectSize.width(), 1.0));
    const double hf = std::min(0.9, (legendSize.height() + len(20)) / std::max(rectSize.height(), 1.0));

    const QCPRange xr = xAxis->range();
    const QCPRange yr = yAxis->range();
    auto fx = [&](double x) { return (x - xr.lower) / (xr.upper - xr.lower); };
    auto fy = [&](double y) {
        return plot.logY ? std::log(y / yr.lower) / std::log(yr.upper / yr.lower)
                         : (y - yr.lower) / (yr.upper - yr.lower);
    };
    std::array<int, 4> count{};
    auto add = [&](double x, double y) {
        const double u = fx(x), v = fy(y);
        if (!std::isfinite(u) || !std::isfinite(v) || u < 0 || u > 1 || v < 0 || v > 1)
            return;
        for (std::size_t c = 0; c < kCorners.size(); ++c) {
            const bool inX = kCorners[c].right ? u > 1 - wf : u < wf;
            const bool inY = kCorners[c].top ? v > 1 - hf : v < hf;
            count[c] += inX && inY;
        }
    };
    for (const Entry& e : items.entries) {
        if (m_hidden.contains(keyFor(index, e.name)))
            continue;
        if (e.isBand) {
            const Band& b = plot.bands[static_cast<std::size_t>(e.source)];
            const std::size_t n = std::min({b.x.size(), b.lower.size(), b.upper.size()});
            for (std::size_t k = 0; k < n; k += std::max<std::size_t>(1, n / 200)) {
                add(b.x[k], b.lower[k]);
                add(b.x[k], b.upper[k]);
            }
            continue;
        }
        const Series& s = plot.series[static_cast<std::size_t>(e.source)];
        const std::size_t n = std::min(s.x.size(), s.y.size());
        for (std::size_t k = 0; k < n; k += std::max<std::size_t>(1, n / 400)) {
            add(s.x[k], s.y[k]);
            if (s.kind == SeriesKind::Bar) // a bar covers everything below its top
                for (double t : {0.25, 0.5, 0.75})
                    add(s.x[k], t * s.y[k]);
        }
    }
    for (const Marker& m : plot.markers) // a marker's label sits at the top, right of its line
        for (int k = 0; k < 5; ++k)
            for (double along : {0.0, 0.05, 0.1})
                add(m.x + along * (xr.upper - xr.lower), yr.upper - (k + 1) * 0.02 * (yr.upper - yr.lower));

    std::size_t best = 0;
    for (std::size_t c = 1; c < kCorners.size(); ++c)
        if (count[c] < count[best])
            best = c;
    // A heat map fills its frame, so only the points and curves drawn over it count; headroom
    // would leave a blank band above the map, so a legend on them goes below the frame.
    if (!plot.heatMaps.empty() && count[best] > 0) {
        setLegendBelow(index, true);
        fitLegendBelow(index, cellSize.width());
        return 1;
    }
    // Headroom frees at most the top 60% of the frame (below), so a taller legend would still
    // sit on the data, even in a short cell.
    const double tallest = (legendSize.height() + len(20)) / std::max(rectSize.height(), 1.0);
    if (count[best] > 0 && ((!plot.markers.empty() && !shortCell) || tallest > 0.6)) {
        // Nowhere is free, and headroom would still leave the legend on the data or on the
        // markers' names.
        setLegendBelow(index, true);
        fitLegendBelow(index, cellSize.width());
        return 1;
    }
    double keep = 1;
    if (count[best] > 0) {
        // Nowhere is free: make room above the data and use the freer top corner.
        best = count[1] < count[0] ? 1 : 0;
        keep = 1 - std::min(hf, 0.6);
        if (plot.logY)
            yAxis->setRangeUpper(yr.lower * std::pow(yr.upper / yr.lower, 1 / keep));
        else
            yAxis->setRangeUpper(yr.lower + (yr.upper - yr.lower) / keep);
    }
    QCPLayoutInset* inset = items.rect->insetLayout();
    for (int i = 0; i < inset->elementCount(); ++i)
        if (inset->elementAt(i) == items.legend)
            inset->setInsetAlignment(i, kCorners[best].alignment);
    return keep;
}

} // namespace evx
