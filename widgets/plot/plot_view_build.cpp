// PlotView building: one evx::Plot -> axis rect, plottables, legend and marker items, and
// the data setters that later figures of the same shape reuse.

#include "plot/plot_view.h"

#include "plot/fast_graph.h"
#include "plot/palette.h"
#include "plot/plot_view_style.h"
#include "plot/rich_text.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace evx {

namespace {

constexpr double kLineWidth = 2.0;
constexpr int kBandFillAlpha = 60;
constexpr double kBandEdgeLighten = 0.35;   // towards white
constexpr double kHighContrastWidth = 1.75; // line widths in the high-contrast theme

QVector<double> toQVector(const std::vector<double>& v, std::size_t n)
{
    return QVector<double>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
}

// Smallest positive gap between consecutive sorted x; 1 if there is none.
double barSpacing(QVector<double> keys)
{
    std::sort(keys.begin(), keys.end());
    double gap = std::numeric_limits<double>::infinity();
    for (int i = 1; i < keys.size(); ++i) {
        const double d = keys[i] - keys[i - 1];
        if (d > 0 && d < gap)
            gap = d;
    }
    return std::isfinite(gap) ? gap : 1.0;
}

QCPScatterStyle::ScatterShape scatterShape(MarkerShape marker)
{
    switch (marker) {
    case MarkerShape::None:
        return QCPScatterStyle::ssNone;
    case MarkerShape::Circle:
        return QCPScatterStyle::ssCircle;
    case MarkerShape::Square:
        return QCPScatterStyle::ssSquare;
    case MarkerShape::Triangle:
        return QCPScatterStyle::ssTriangle;
    case MarkerShape::Diamond:
        return QCPScatterStyle::ssDiamond;
    case MarkerShape::Cross:
        return QCPScatterStyle::ssCross;
    case MarkerShape::TriangleDown:
        return QCPScatterStyle::ssTriangleInverted;
    case MarkerShape::Plus:
        return QCPScatterStyle::ssPlus;
    }
    return QCPScatterStyle::ssNone;
}

// Markers along a line: about this many per curve, so they name the curve without hiding it.
constexpr int kMarkersPerLine = 8;

} // namespace

void PlotView::buildPlot(int index, QCPLayoutGrid* cell, int rectRow)
{
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(index)];
    PlotItems& items = m_plots[static_cast<std::size_t>(index)];
    items.rectRow = rectRow;
    QCPAxisRect* rect = items.rect;
    QCPAxis* xAxis = rect->axis(QCPAxis::atBottom);
    QCPAxis* yAxis = rect->axis(QCPAxis::atLeft);
    xAxis->setLabel(QString::fromStdString(plot.xLabel));
    yAxis->setLabel(QString::fromStdString(plot.yLabel));
    if (plot.logY) {
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        yAxis->setScaleType(QCPAxis::stLogarithmic);
        yAxis->setTicker(ticker);
        yAxis->setNumberFormat(QStringLiteral("eb")); // 10^n in superscript
        yAxis->setNumberPrecision(0);
    }
    // Counts tick at integers: steps of 1, 2, 5, 10, … (a multiple of one), no sub-ticks.
    const bool integerX = hasIntegerBars(plot) || plot.xInteger;
    const bool integerY = plot.yInteger && !plot.logY;
    auto tickIntegers = [](QCPAxis* axis) {
        QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
        ticker->setTickStep(1.0);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        axis->setTicker(ticker);
        axis->setSubTicks(false);
    };
    if (integerX)
        tickIntegers(xAxis);
    if (integerY)
        tickIntegers(yAxis);
    rect->setupFullAxesBox(true); // a closed frame; top and right follow bottom and left
    // Shared tickers: the frame's ticks stay opposite the labelled ones when the count of
    // ticks adapts to the room (fitToRoom).
    rect->axis(QCPAxis::atTop)->setTicker(xAxis->ticker());
    rect->axis(QCPAxis::atRight)->setTicker(yAxis->ticker());
    if (integerX)
        rect->axis(QCPAxis::atTop)->setSubTicks(false);
    if (integerY)
        rect->axis(QCPAxis::atRight)->setSubTicks(false);
    for (QCPAxis* axis : rect->axes())
        styleAxis(axis);
    rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    rect->setRangeDragAxes(xAxis, yAxis);
    rect->setRangeZoomAxes(xAxis, yAxis);
    rect->insetLayout()->setMargins(QMargins(ilen(8), ilen(8), ilen(8), ilen(8)));
    // Room for the halves of the outermost tick labels, which reach past the frame's corners.
    rect->setMinimumMargins(QMargins(0, ilen(7), ilen(14), 0));
    rect->setMinimumSize(ilen(60), ilen(45)); // a frame never shrinks below its labels' length

    // Colours, dashes and markers come from one place (series_style.h), shared with the JSON export.
    std::vector<bool> ghosts(plot.series.size(), false);
    for (std::size_t j = 0; j < plot.series.size(); ++j)
        ghosts[j] = isGhost(index, int(j)); // a ghost's colour is its own, not one taken from the current
    const PlotLook look = plotLook(plot, ghosts);
    // Entries are in legend order: series, then bands.
    items.entries.clear();
    auto addEntry = [&](const std::string& name, bool isBand, std::size_t source) {
        Entry e;
        e.name = QString::fromStdString(name);
        e.isBand = isBand;
        e.source = static_cast<int>(source);
        e.ghost = !isBand && isGhost(index, int(source));
        e.colour = isBand ? look.bands[source] : look.series[source].colour;
        if (!isBand)
            e.marker = look.series[source].marker;
        items.entries.push_back(std::move(e));
    };
    for (std::size_t j = 0; j < plot.series.size(); ++j)
        addEntry(plot.series[j].name, false, j);
    for (std::size_t j = 0; j < plot.bands.size(); ++j)
        addEntry(plot.bands[j].name, true, j);

    // Draw order: heat maps, bands, bars, then lines and points on top.
    int scaleColumn = 1;
    items.maps.clear();
    for (const HeatMap& map : plot.heatMaps) {
        items.maps.push_back(addHeatMap(index, map, cell, rectRow, scaleColumn));
        if (items.maps.back())
            ++scaleColumn;
    }
    for (Entry& e : items.entries) {
        if (e.isBand)
            addBand(index, e);
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (Entry& e : items.entries) {
            const bool isBar =
                !e.isBand && plot.series[static_cast<std::size_t>(e.source)].kind == SeriesKind::Bar;
            if (!e.isBand && isBar == (pass == 0))
                addSeries(index, e);
        }
    }
    addMarkers(index);

    if (plot.legend != LegendPlace::Inside)
        return; // buildSharedLegend lists it
    QCPLegend* legend = newLegend(rect->insetLayout(), Qt::AlignTop | Qt::AlignRight);
    items.legend = legend;
    // One entry per name: a pin's curves share one, as do the levels of a reading's contours
    // (hidden and shown together, by name).
    QSet<QString> listed;
    for (Entry& e : items.entries) {
        if (!listed.contains(e.name)) {
            listed.insert(e.name);
            addLegendItem(legend, e);
        }
        applyVisibility(index, e);
    }
    legend->setVisible(legend->itemCount() > 0);
}

QCPLegend* PlotView::newLegend(QCPLayoutInset* inset, Qt::Alignment alignment)
{
    auto* legend = new QCPLegend;
    inset->addElement(legend, alignment); // gives it its QCustomPlot, which setLayer needs
    legend->setLayer(QStringLiteral("legend"));
    const bool high = m_theme == Theme::HighContrast;
    legend->setBrush(QColor(255, 255, 255, high ? 255 : 210));
    legend->setBorderPen(QPen(QColor(0, 0, 0, high ? 255 : 70), len(1)));
    legend->setFont(textFont(1.0));
    legend->setIconSize(ilen(22), ilen(12));
    legend->setIconTextPadding(ilen(7));
    legend->setRowSpacing(0);
    legend->setColumnSpacing(ilen(8));
    legend->setMargins(QMargins(ilen(6), ilen(3), ilen(6), ilen(3)));
    legend->setSelectableParts(QCPLegend::spNone);
    return legend;
}

void PlotView::addLegendItem(QCPLegend* legend, Entry& entry)
{
    if (!legend->hasItemWithPlottable(entry.plottables.front())) // a plottable's names may have scripts
        legend->addItem(new RichLegendItem(legend, entry.plottables.front()));
    entry.legendItem = legend->itemWithPlottable(entry.plottables.front());
    entry.legendItem->setMargins(
        QMargins(0, ilen(1), 0, ilen(2))); // items clip to their rect: room for descenders
}

void PlotView::buildSharedLegend(bool explicitGrid)
{
    std::vector<int> shared;
    for (std::size_t i = 0; i < m_figure.plots.size(); ++i)
        if (m_figure.plots[i].legend == LegendPlace::Shared)
            shared.push_back(static_cast<int>(i));
    if (shared.empty())
        return;
    // A corner plot leaves the top row's right-hand cells empty: the legend gets one to itself,
    // framed by an axis rect without axes (the only layout element with an inset layout).
    QCPLayoutGrid* layout = m_plot->plotLayout();
    QCPLegend* legend = nullptr;
    for (int c = layout->columnCount() - 1; explicitGrid && c >= 0 && !legend; --c) {
        if (layout->hasElement(0, c))
            continue;
        auto* host = new QCPAxisRect(m_plot, false);
        layout->addElement(0, c, host);
        // Top right: a legend wider than its cell reaches left over the empty cells beside it.
        legend = newLegend(host->insetLayout(), Qt::AlignTop | Qt::AlignRight);
    }
    if (!legend) {
        PlotItems& first = m_plots[static_cast<std::size_t>(shared.front())];
        legend = newLegend(first.rect->insetLayout(), Qt::AlignTop | Qt::AlignRight);
        first.legend = legend; // placeLegend moves it to the freest corner of this plot
    }
    m_sharedLegend = legend;
    QSet<QString> listed;
    for (int index : shared) {
        for (Entry& e : m_plots[static_cast<std::size_t>(index)].entries) {
            if (!listed.contains(e.name)) {
                listed.insert(e.name);
                addLegendItem(legend, e);
            }
            applyVisibility(index, e);
        }
    }
    legend->setVisible(legend->itemCount() > 0);
}

void PlotView::addSeries(int index, Entry& entry)
{
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(index)];
    const Series& s = plot.series[static_cast<std::size_t>(entry.source)];
    QCPAxisRect* rect = m_plots[static_cast<std::size_t>(index)].rect;
    QCPAxis* xAxis = rect->axis(QCPAxis::atBottom);
    QCPAxis* yAxis = rect->axis(QCPAxis::atLeft);
    // Emphasis: the reading in focus is drawn bold, the others faded but still legible.
    const bool high = m_theme == Theme::HighContrast;
    QColor colour = entry.colour;
    if (s.emphasis < 0)
        colour.setAlpha(high ? 170 : 90);
    const double width = len((s.emphasis > 0 ? 2 * kLineWidth : kLineWidth) * (s.thin ? 0.5 : 1.0) *
                             (high ? kHighContrastWidth : 1.0));
    const int fillAlpha = high ? 255 : 200; // of bars and points
    QPen pen(colour, width, s.dashed ? Qt::DashLine : Qt::SolidLine);
    if (s.dashed)
        pen.setCapStyle(Qt::FlatCap); // 8 px dashes, 4 px gaps; FastGraph matches this on screen
    QCPAbstractPlottable* plottable = nullptr;

    if (s.kind == SeriesKind::Bar) {
        auto* bars = new QCPBars(xAxis, yAxis);
        const auto barSeries = std::count_if(plot.series.begin(), plot.series.end(),
                                             [](const Series& o) { return o.kind == SeriesKind::Bar; });
        if (barSeries > 1) {
            if (m_barsGroups.empty() || m_barsGroups.back()->property("evxPlot").toInt() != index) {
                m_barsGroups.push_back(new QCPBarsGroup(m_plot));
                m_barsGroups.back()->setProperty("evxPlot", index);
                m_barsGroups.back()->setSpacing(0);
            }
            bars->setBarsGroup(m_barsGroups.back());
        }
        pen.setWidthF(len(high ? 1.5 : 1.0));
        bars->setPen(high ? QPen(Qt::black, pen.widthF()) : pen);
        QColor fill = entry.colour;
        fill.setAlpha(fillAlpha);
        bars->setBrush(fill);
        plottable = bars;
    } else if (s.kind == SeriesKind::Line && !std::is_sorted(s.x.begin(), s.x.end())) {
        // x not increasing: a parametric curve (e.g. an orbit), drawn in the given order.
        auto* curve = new QCPCurve(xAxis, yAxis);
        curve->setPen(pen);
        if (entry.marker != MarkerShape::None) {
            curve->setScatterStyle(lineMarker(pen, entry.marker));
            curve->setScatterSkip(std::max<int>(0, int(s.x.size()) / kMarkersPerLine - 1));
        }
        plottable = curve;
    } else {
        auto* graph = new FastGraph(xAxis, yAxis);
        graph->setPen(pen);
        if (s.kind == SeriesKind::Step) {
            graph->setLineStyle(QCPGraph::lsStepCenter);
        } else if (s.kind == SeriesKind::Scatter) {
            graph->setLineStyle(QCPGraph::lsNone);
            QColor fill = entry.colour;
            fill.setAlpha(fillAlpha);
            graph->setScatterStyle(QCPScatterStyle(
                scatterShape(entry.marker), QPen(entry.colour.darker(high ? 160 : 115), len(high ? 1.5 : 1)),
                fill, len(high ? 9 : 7)));
        }
        if (s.kind != SeriesKind::Scatter && entry.marker != MarkerShape::None) {
            graph->setScatterStyle(lineMarker(pen, entry.marker));
            graph->setMarkersAlongLine(kMarkersPerLine);
        }
        plottable = graph;
    }
    plottable->setName(entry.name);
    entry.plottables = {plottable};
    entry.pens = {plottable->pen()};
    entry.brushes = {plottable->brush()};
    if (auto* graph = qobject_cast<QCPGraph*>(plottable)) {
        entry.scatterPen = graph->scatterStyle().pen();
        entry.scatterBrush = graph->scatterStyle().brush();
    }
    setSeriesData(index, entry);
    if (entry.ghost)
        styleGhost(entry); // after the data: a pin's legend key is the ghost without any
}

QCPScatterStyle PlotView::lineMarker(const QPen& linePen, MarkerShape marker) const
{
    // Outlined on white: the line passes through the marker's centre without filling it, so
    // shapes stay apart where curves cross; the outline as thick as the line.
    return QCPScatterStyle(scatterShape(marker), QPen(linePen.color(), std::max(linePen.widthF(), len(1.5))),
                           QBrush(Qt::white), len(m_theme == Theme::HighContrast ? 10 : 7));
}

bool PlotView::setSeriesData(int index, Entry& entry)
{
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(index)];
    const Series& s = plot.series[static_cast<std::size_t>(entry.source)];
    const std::size_t n = std::min(s.x.size(), s.y.size());
    const QVector<double> keys = toQVector(s.x, n);
    const QVector<double> values = toQVector(s.y, n);
    entry.sortedX = std::is_sorted(keys.begin(), keys.end());
    QCPAbstractPlottable* p = entry.plottables.front();
    if (auto* bars = qobject_cast<QCPBars*>(p)) {
        bars->setData(keys, values, entry.sortedX);
        // Bars of several series stand side by side (a QCPBarsGroup), sharing 80 % of the spacing.
        const auto barSeries = std::count_if(plot.series.begin(), plot.series.end(),
                                             [](const Series& o) { return o.kind == SeriesKind::Bar; });
        bars->setWidth(0.8 * barSpacing(keys) / static_cast<double>(std::max<std::ptrdiff_t>(1, barSeries)));
    } else if (auto* curve = qobject_cast<QCPCurve*>(p)) {
        if (entry.sortedX)
            return false; // now a function of x: wants a graph
        curve->setData(keys, values);
    } else if (auto* graph = qobject_cast<QCPGraph*>(p)) {
        if (!entry.sortedX && s.kind == SeriesKind::Line)
            return false; // now parametric: wants a curve
        graph->setData(keys, values, entry.sortedX);
    }
    return true;
}

void PlotView::addBand(int index, Entry& entry)
{
    QCPAxisRect* rect = m_plots[static_cast<std::size_t>(index)].rect;
    // Opaque, lightened edge: a translucent one darkens where segment caps overlap.
    const bool high = m_theme == Theme::HighContrast;
    const double t = kBandEdgeLighten;
    const QColor edge =
        high ? entry.colour
             : QColor::fromRgbF(entry.colour.redF() * (1 - t) + t, entry.colour.greenF() * (1 - t) + t,
                                entry.colour.blueF() * (1 - t) + t);
    QColor fill = entry.colour;
    fill.setAlpha(kBandFillAlpha);
    // A projector washes a faint fill into the white; a hatch in the full colour survives it.
    const QBrush brush = high ? QBrush(entry.colour, Qt::BDiagPattern) : QBrush(fill);

    auto* upper = new FastGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    auto* lower = new FastGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    upper->setPen(QPen(edge, len(high ? 1.5 : 1.0)));
    lower->setPen(QPen(edge, len(high ? 1.5 : 1.0)));
    upper->setBrush(brush);
    upper->setChannelFillGraph(lower);
    upper->setName(entry.name);
    lower->setName(entry.name + QStringLiteral(" (lower)"));
    entry.plottables = {upper, lower};
    entry.pens = {upper->pen(), lower->pen()};
    entry.brushes = {upper->brush(), lower->brush()};
    setBandData(index, entry);
}

bool PlotView::setBandData(int index, Entry& entry)
{
    const Band& b =
        m_figure.plots[static_cast<std::size_t>(index)].bands[static_cast<std::size_t>(entry.source)];
    const std::size_t n = std::min({b.x.size(), b.lower.size(), b.upper.size()});
    const QVector<double> keys = toQVector(b.x, n);
    entry.sortedX = std::is_sorted(keys.begin(), keys.end());
    static_cast<QCPGraph*>(entry.plottables[0])->setData(keys, toQVector(b.upper, n), entry.sortedX);
    static_cast<QCPGraph*>(entry.plottables[1])->setData(keys, toQVector(b.lower, n), entry.sortedX);
    return true;
}

QCPColorMap* PlotView::addHeatMap(int index, const HeatMap& map, QCPLayoutGrid* cell, int row, int column)
{
    if (map.nx <= 0 || map.ny <= 0 ||
        map.values.size() != static_cast<std::size_t>(map.nx) * static_cast<std::size_t>(map.ny)) {
        qWarning("PlotView: heat map \"%s\" has %zu values for a %d x %d grid; not drawn", map.name.c_str(),
                 map.values.size(), map.nx, map.ny);
        return nullptr;
    }
    QCPAxisRect* rect = m_plots[static_cast<std::size_t>(index)].rect;
    auto* colourMap = new QCPColorMap(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    colourMap->setName(QString::fromStdString(map.name));
    colourMap->setInterpolate(false); // show the grid the values were computed on

    auto* scale = new QCPColorScale(m_plot);
    cell->addElement(row, column, scale);
    scale->setType(QCPAxis::atRight);
    scale->setBarWidth(ilen(12));
    scale->setRangeDrag(false);
    scale->setRangeZoom(false);
    // QCPColorScale draws its own axis, which cannot be a RichAxis: its label shows the markup's text
    // without the markup (σ_e → σe) rather than raw underscores and carets.
    scale->setLabel(richLabelPlainText(QString::fromStdString(map.name)));
    styleAxis(scale->axis());
    colourMap->setColorScale(scale);
    colourMap->setGradient(Palette::viridis());
    auto* group = new QCPMarginGroup(m_plot); // colour bar as tall as the axis rect
    rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    m_marginGroups.push_back(group);
    setHeatMapData(colourMap, map);
    return colourMap;
}

void PlotView::setHeatMapData(QCPColorMap* colourMap, const HeatMap& map)
{
    // xMin/xMax and yMin/yMax are the centres of the outer cells (QCustomPlot's convention).
    QCPColorMapData* data = colourMap->data();
    data->setSize(map.nx, map.ny);
    data->setRange(QCPRange(map.xMin, map.xMax), QCPRange(map.yMin, map.yMax));
    for (int iy = 0; iy < map.ny; ++iy) {
        for (int ix = 0; ix < map.nx; ++ix)
            data->setCell(ix, iy, map.values[static_cast<std::size_t>(iy) * map.nx + ix]);
    }
    colourMap->rescaleDataRange(true);
}

void PlotView::addMarkers(int index)
{
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(index)];
    PlotItems& items = m_plots[static_cast<std::size_t>(index)];
    if (plot.markers.empty())
        return;
    QCPAxisRect* rect = items.rect;
    QCPAxis* xAxis = rect->axis(QCPAxis::atBottom);
    QCPAxis* yAxis = rect->axis(QCPAxis::atLeft);

    // Labels go right of their line, but left of it when the next marker is close, so that
    // two neighbouring labels do not overlap.
    std::vector<double> xs;
    for (const Marker& m : plot.markers)
        xs.push_back(m.x);
    std::sort(xs.begin(), xs.end());
    double dataSpan = xs.back() - xs.front();
    for (const Series& s : plot.series) {
        if (!s.x.empty()) {
            const auto [lo, hi] = std::minmax_element(s.x.begin(), s.x.end());
            dataSpan = std::max(dataSpan, *hi - *lo);
        }
    }
    const double close = 0.15 * dataSpan;

    for (const Marker& m : plot.markers) {
        auto* line = new QCPItemStraightLine(m_plot);
        line->setClipAxisRect(rect);
        for (QCPItemPosition* p : {line->point1, line->point2}) {
            p->setAxes(xAxis, yAxis);
            p->setAxisRect(rect);
            p->setTypeX(QCPItemPosition::ptPlotCoords);
            p->setTypeY(QCPItemPosition::ptAxisRectRatio); // also right on a log axis
        }
        line->point1->setCoords(m.x, 0.0);
        line->point2->setCoords(m.x, 1.0);
        line->setPen(QPen(Palette::referenceColour(), len(1.5), Qt::DotLine));
        line->setSelectable(false);

        const auto next = std::upper_bound(xs.begin(), xs.end(), m.x);
        const bool labelLeft = next != xs.end() && *next - m.x < close;
        auto* label = new RichItemText(m_plot);
        label->setClipAxisRect(rect);
        label->position->setAxes(xAxis, yAxis);
        label->position->setAxisRect(rect);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(m.x, 0.0);
        label->setPositionAlignment(Qt::AlignTop | (labelLeft ? Qt::AlignRight : Qt::AlignLeft));
        label->setProperty("evxPreferLeft", labelLeft);
        label->setText(QString::fromStdString(m.name));
        label->setFont(textFont(1.0));
        label->setColor(Palette::referenceColour());
        label->setBrush(QColor(255, 255, 255, 200));
        label->setPadding(QMargins(ilen(4), ilen(2), ilen(4), ilen(2)));
        label->setSelectable(false);
        items.markerItems.push_back(line);
        items.markerItems.push_back(label);
    }
}

} // namespace evx
