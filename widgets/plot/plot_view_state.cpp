// PlotView state that outlives one figure: axis ranges (fit to data, or the user's zoom
// lock) and which series are hidden.

#include "plot/plot_view.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace evx {

namespace {

struct Extent {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double v)
    {
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    bool valid() const { return lo <= hi; }
};

// y values a log axis can show are positive; everything else is left out of the fit.
void addY(Extent& e, double v, bool logY)
{
    if (!logY || v > 0)
        e.add(v);
}

} // namespace

void PlotView::fitToData(int index)
{
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(index)];
    const PlotItems& items = m_plots[static_cast<std::size_t>(index)];
    Extent x, y, bandY; // bands apart: they may not swamp the lines (below)
    bool padX = false;  // points and bars would be cut in half at the edge
    bool hasBars = false;
    double barHalfWidth = 0; // of a bar, or of a group of bars side by side
    for (const Entry& e : items.entries) {
        if (m_hidden.contains(keyFor(index, e.name)))
            continue;
        if (e.isBand) {
            const Band& b = plot.bands[static_cast<std::size_t>(e.source)];
            const std::size_t n = std::min({b.x.size(), b.lower.size(), b.upper.size()});
            for (std::size_t k = 0; k < n; ++k) {
                if (std::isfinite(b.lower[k]) || std::isfinite(b.upper[k]))
                    x.add(b.x[k]);
                addY(bandY, b.lower[k], plot.logY);
                addY(bandY, b.upper[k], plot.logY);
            }
            continue;
        }
        const Series& s = plot.series[static_cast<std::size_t>(e.source)];
        const std::size_t n = std::min(s.x.size(), s.y.size());
        for (std::size_t k = 0; k < n; ++k) {
            if (std::isfinite(s.y[k]))
                x.add(s.x[k]);
            addY(y, s.y[k], plot.logY);
        }
        padX = padX || s.kind == SeriesKind::Scatter;
        if (auto* bars = e.plottables.empty() ? nullptr : qobject_cast<QCPBars*>(e.plottables.front())) {
            hasBars = true;
            const int grouped = bars->barsGroup() ? bars->barsGroup()->size() : 1;
            barHalfWidth = std::max(barHalfWidth, 0.5 * bars->width() * grouped);
        }
    }
    for (const HeatMap& m : plot.heatMaps) {
        // The bounds are cell centres: show the outer cells whole.
        const double hx = m.nx > 1 ? 0.5 * (m.xMax - m.xMin) / (m.nx - 1) : 0.0;
        const double hy = m.ny > 1 ? 0.5 * (m.yMax - m.yMin) / (m.ny - 1) : 0.0;
        x.add(m.xMin - hx);
        x.add(m.xMax + hx);
        addY(y, m.yMin - hy, plot.logY);
        addY(y, m.yMax + hy, plot.logY);
    }
    for (const Marker& m : plot.markers)
        x.add(m.x);
    // A band reaches at most one span of the lines beyond them: a model sd a hundred times
    // the integrand (log-GP BQ between far-apart samples) would otherwise flatten every line
    // to the axis. The band still runs on, visibly, to the frame; zooming out shows all of it.
    if (bandY.valid()) {
        if (y.valid() && y.hi > y.lo && !plot.logY) {
            const double span = y.hi - y.lo;
            y.add(std::max(bandY.lo, y.lo - span));
            y.add(std::min(bandY.hi, y.hi + span));
        } else {
            y.add(bandY.lo);
            y.add(bandY.hi);
        }
    }
    // An animation's union of its frames' data (setFitExtents): each frame fits as its widest does.
    const auto i = static_cast<std::size_t>(index);
    if (m_dataExtents.size() < m_plots.size())
        m_dataExtents.resize(m_plots.size());
    m_dataExtents[i] = {x.valid() && y.valid(), x.lo, x.hi, y.lo, y.hi};
    if (i < m_fitExtents.size() && m_fitExtents[i].valid) {
        x.add(m_fitExtents[i].xLo);
        x.add(m_fitExtents[i].xHi);
        addY(y, m_fitExtents[i].yLo, plot.logY);
        addY(y, m_fitExtents[i].yHi, plot.logY);
    }

    QCPAxis* xAxis = items.rect->axis(QCPAxis::atBottom);
    QCPAxis* yAxis = items.rect->axis(QCPAxis::atLeft);
    if (!x.valid()) {
        x.lo = 0;
        x.hi = 1;
    } else if (x.lo == x.hi) {
        const double half = x.lo == 0 ? 0.5 : 0.1 * std::abs(x.lo);
        x.lo -= half;
        x.hi += half;
    } else if (padX || hasBars) {
        const double pad = 0.04 * (x.hi - x.lo);
        x.lo -= std::max(padX ? pad : 0.0, 1.25 * barHalfWidth);
        x.hi += std::max(padX ? pad : 0.0, 1.25 * barHalfWidth);
    }
    xAxis->setRange(x.lo, x.hi);

    if (plot.logY) {
        if (!y.valid()) {
            y.lo = 0.1;
            y.hi = 10;
        } else if (y.lo == y.hi) {
            y.lo /= 2;
            y.hi *= 2;
        } else {
            const double factor = std::pow(y.hi / y.lo, 0.05);
            y.lo /= factor;
            y.hi *= factor;
        }
    } else {
        if (hasBars)
            y.add(0.0); // bars grow from zero
        if (!y.valid()) {
            y.lo = 0;
            y.hi = 1;
        } else if (y.lo == y.hi) {
            const double half = y.lo == 0 ? 0.5 : 0.1 * std::abs(y.lo);
            y.lo -= half;
            y.hi += half;
        } else if (items.entries.empty() && !plot.heatMaps.empty()) {
            // Only heat maps: their grid is the natural frame.
        } else {
            const double pad = 0.05 * (y.hi - y.lo);
            // Non-negative data near zero (densities, probabilities) start at exactly zero.
            const bool fromZero = y.lo >= 0 && y.lo <= 0.25 * y.hi && plot.heatMaps.empty();
            y.lo = fromZero ? 0.0 : y.lo - pad;
            y.hi += pad;
        }
    }
    yAxis->setRange(y.lo, y.hi);
    placeLegend(index);
    keepAspect(index);
}

void PlotView::setFitExtents(std::vector<DataExtent> extents)
{
    m_fitExtents = std::move(extents);
}

void PlotView::shareGridAxes()
{
    for (PlotItems& items : m_plots)
        items.xShared = items.yShared = items.bareDensity = false;
    if (!hasExplicitGrid())
        return;
    // A grid that names its cells is a corner plot when it is lower-triangular with its
    // diagonal: a column shows one parameter along x, a row one along y, and the diagonal a
    // density. Plots in a column share x, plots off the diagonal in a row share y (an empty
    // axis label means "as the others"); in another grid only equal labels share. A plot
    // the user zoomed keeps its own ranges. Tick labels a neighbour below or to the left
    // repeats are left out.
    const std::size_t n = m_plots.size();
    bool corner = true;
    std::set<int> diagonal;
    for (const Plot& p : m_figure.plots) {
        corner = corner && p.row >= p.column;
        if (p.row == p.column)
            diagonal.insert(p.row);
    }
    int size = 0;
    for (const Plot& p : m_figure.plots)
        size = std::max(size, p.row + 1);
    corner = corner && int(diagonal.size()) == size;
    auto compatible = [&](const std::string& a, const std::string& b) {
        return a == b || (corner && (a.empty() || b.empty()));
    };
    auto sameAxis = [&](std::size_t i, std::size_t j, bool x) {
        const Plot& a = m_figure.plots[i];
        const Plot& b = m_figure.plots[j];
        if (x)
            return a.column == b.column && compatible(a.xLabel, b.xLabel);
        const bool aDiagonal = corner && a.row == a.column, bDiagonal = corner && b.row == b.column;
        return a.row == b.row && aDiagonal == bDiagonal && !aDiagonal && compatible(a.yLabel, b.yLabel) &&
               a.logY == b.logY;
    };
    auto axisOf = [&](std::size_t i, bool x) {
        return m_plots[i].rect->axis(x ? QCPAxis::atBottom : QCPAxis::atLeft);
    };
    for (const bool x : {true, false}) {
        std::vector<QCPRange> joint(n);
        for (std::size_t i = 0; i < n; ++i) {
            joint[i] = axisOf(i, x)->range();
            if (isUserZoomed(static_cast<int>(i)))
                continue;
            for (std::size_t j = 0; j < n; ++j)
                if (j != i && !isUserZoomed(static_cast<int>(j)) && sameAxis(i, j, x))
                    joint[i].expand(axisOf(j, x)->range());
        }
        for (std::size_t i = 0; i < n; ++i)
            axisOf(i, x)->setRange(joint[i]);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const Plot& a = m_figure.plots[i];
        // Printed corner plots leave the densities on the diagonal unscaled, but for the one
        // whose axis the figure labels; the hover read-out still gives values.
        m_plots[i].bareDensity = corner && a.row == a.column && a.yLabel.empty() && a.row > 0;
        for (std::size_t j = 0; j < n; ++j) {
            const Plot& b = m_figure.plots[j];
            if (b.column == a.column && b.row == a.row + 1 && sameAxis(i, j, true) &&
                axisOf(i, true)->range() == axisOf(j, true)->range())
                m_plots[i].xShared = true;
            if (b.row == a.row && b.column == a.column - 1 && sameAxis(i, j, false) &&
                axisOf(i, false)->range() == axisOf(j, false)->range())
                m_plots[i].yShared = true;
        }
    }
}

void PlotView::captureLockedRanges()
{
    for (std::size_t i = 0; i < m_plots.size() && i < m_locks.size(); ++i) {
        ViewLock& lock = m_locks[i];
        if (!lock.locked || !m_plots[i].rect)
            continue;
        const QCPRange xr = m_plots[i].rect->axis(QCPAxis::atBottom)->range();
        const QCPRange yr = m_plots[i].rect->axis(QCPAxis::atLeft)->range();
        lock.xLower = xr.lower;
        lock.xUpper = xr.upper;
        lock.yLower = yr.lower;
        lock.yUpper = yr.upper;
    }
}

void PlotView::applyLocksOrFit()
{
    m_locks.resize(m_plots.size());
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        ViewLock& lock = m_locks[i];
        const Plot& plot = m_figure.plots[i];
        if (lock.locked &&
            (lock.xLabel != plot.xLabel || lock.yLabel != plot.yLabel || lock.logY != plot.logY))
            lock.locked = false; // a different plot now sits at this index
        if (lock.locked) {
            m_plots[i].rect->axis(QCPAxis::atBottom)->setRange(lock.xLower, lock.xUpper);
            m_plots[i].rect->axis(QCPAxis::atLeft)->setRange(lock.yLower, lock.yUpper);
        } else {
            fitToData(static_cast<int>(i));
            if (m_hold)
                holdRanges(static_cast<int>(i));
        }
    }
    shareGridAxes();
    for (std::size_t i = 0; i < m_plots.size(); ++i)
        if (!m_locks[i].locked)
            keepAspect(static_cast<int>(i));
}

bool PlotView::keepAspect(int index)
{
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(index)];
    if (!plot.equalAspect || plot.logY)
        return false;
    const QRect frame = m_plots[static_cast<std::size_t>(index)].rect->rect();
    if (frame.width() < 20 || frame.height() < 20)
        return false; // not laid out yet: the first layout calls again
    QCPAxis* xAxis = m_plots[static_cast<std::size_t>(index)].rect->axis(QCPAxis::atBottom);
    QCPAxis* yAxis = m_plots[static_cast<std::size_t>(index)].rect->axis(QCPAxis::atLeft);
    const double xPerPixel = xAxis->range().size() / frame.width();
    const double yPerPixel = yAxis->range().size() / frame.height();
    if (!(xPerPixel > 0 && yPerPixel > 0) || std::abs(xPerPixel / yPerPixel - 1) < kAspectTolerance)
        return false;
    // Widen the axis that has more pixels per unit, about its centre: the data stay whole.
    if (xPerPixel < yPerPixel)
        xAxis->setRange(xAxis->range().center(), yPerPixel * frame.width(), Qt::AlignCenter);
    else
        yAxis->setRange(yAxis->range().center(), xPerPixel * frame.height(), Qt::AlignCenter);
    return true;
}

void PlotView::markUserZoomed(int plotIndex)
{
    if (plotIndex < 0 || plotIndex >= static_cast<int>(m_plots.size()))
        return;
    m_locks.resize(m_plots.size());
    ViewLock& lock = m_locks[static_cast<std::size_t>(plotIndex)];
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(plotIndex)];
    lock.locked = true;
    lock.xLabel = plot.xLabel;
    lock.yLabel = plot.yLabel;
    lock.logY = plot.logY;
}

bool PlotView::isUserZoomed(int plotIndex) const
{
    return plotIndex >= 0 && plotIndex < static_cast<int>(m_locks.size()) &&
           m_locks[static_cast<std::size_t>(plotIndex)].locked;
}

void PlotView::resetPlotView(int plotIndex)
{
    if (plotIndex < 0 || plotIndex >= static_cast<int>(m_plots.size()))
        return;
    if (plotIndex < static_cast<int>(m_locks.size()))
        m_locks[static_cast<std::size_t>(plotIndex)].locked = false;
    fitToData(plotIndex);
    shareGridAxes();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::resetView()
{
    for (ViewLock& lock : m_locks)
        lock.locked = false;
    for (std::size_t i = 0; i < m_plots.size(); ++i)
        fitToData(static_cast<int>(i));
    shareGridAxes();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QStringList PlotView::hiddenSeries() const
{
    QStringList keys(m_hidden.begin(), m_hidden.end());
    keys.sort();
    return keys;
}

void PlotView::setHiddenSeries(const QStringList& keys)
{
    m_hidden = QSet<QString>(keys.begin(), keys.end());
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        for (Entry& e : m_plots[i].entries)
            applyVisibility(static_cast<int>(i), e);
        if (!isUserZoomed(static_cast<int>(i)))
            fitToData(static_cast<int>(i));
    }
    shareGridAxes();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::setSeriesVisible(int plotIndex, const QString& seriesName, bool visible)
{
    if (plotIndex < 0 || plotIndex >= static_cast<int>(m_plots.size()))
        return;
    const QString key = keyFor(plotIndex, seriesName);
    if (visible == !m_hidden.contains(key))
        return;
    if (visible)
        m_hidden.remove(key);
    else
        m_hidden.insert(key);
    // Plots sharing a legend share the key: the series goes in all of them.
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        const int index = static_cast<int>(i);
        bool touched = false;
        for (Entry& e : m_plots[i].entries) {
            if (e.name == seriesName && keyFor(index, e.name) == key) {
                applyVisibility(index, e);
                touched = true;
            }
        }
        // An unzoomed plot keeps fitting what is visible.
        if (touched && !isUserZoomed(index))
            fitToData(index);
    }
    shareGridAxes();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool PlotView::isSeriesVisible(int plotIndex, const QString& seriesName) const
{
    if (plotIndex < 0 || plotIndex >= static_cast<int>(m_plots.size()))
        return false;
    return !m_hidden.contains(keyFor(plotIndex, seriesName));
}

void PlotView::applyVisibility(int index, Entry& entry)
{
    const bool visible = !m_hidden.contains(keyFor(index, entry.name));
    static const QColor hiddenColour(175, 175, 175);
    for (std::size_t k = 0; k < entry.plottables.size(); ++k) {
        QCPAbstractPlottable* p = entry.plottables[k];
        p->setVisible(visible);
        // A hidden plottable is not drawn, but its legend icon is: draw that grey.
        QPen pen = entry.pens[k];
        QBrush brush = entry.brushes[k];
        if (!visible) {
            pen.setColor(hiddenColour);
            if (brush.style() != Qt::NoBrush)
                brush.setColor(QColor(hiddenColour.red(), hiddenColour.green(), hiddenColour.blue(), 90));
        }
        p->setPen(pen);
        p->setBrush(brush);
        auto* graph = qobject_cast<QCPGraph*>(p);
        if (graph && !entry.ghost && graph->scatterStyle().shape() != QCPScatterStyle::ssNone) {
            QCPScatterStyle style = graph->scatterStyle();
            // The look addSeries gave it (a point's fill, a line's outlined marker), grey when hidden.
            style.setPen(visible ? entry.scatterPen : QPen(hiddenColour, len(1)));
            style.setBrush(
                visible ? entry.scatterBrush
                        : QBrush(QColor(hiddenColour.red(), hiddenColour.green(), hiddenColour.blue(), 200)));
            graph->setScatterStyle(style);
        }
    }
    if (entry.legendItem)
        entry.legendItem->setTextColor(visible ? QColor(Qt::black) : hiddenColour);
}

} // namespace evx
