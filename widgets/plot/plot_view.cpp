#include "plot/plot_view.h"

#include "plot/plot_view_style.h"
#include "plot/rich_text.h"

#include <qcustomplot.h>

#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace evx {

namespace {

bool drawable(const HeatMap& m)
{
    return m.nx > 0 && m.ny > 0 &&
           m.values.size() == static_cast<std::size_t>(m.nx) * static_cast<std::size_t>(m.ny);
}

// Whether `b` can be drawn by updating the plottables built for `a` in place. Names, kinds,
// styles, titles and axes must match; the data may differ.
bool sameStructure(const Figure& a, const Figure& b)
{
    if (a.plots.size() != b.plots.size())
        return false;
    for (std::size_t i = 0; i < a.plots.size(); ++i) {
        const Plot& p = a.plots[i];
        const Plot& q = b.plots[i];
        if (p.title != q.title || p.xLabel != q.xLabel || p.yLabel != q.yLabel || p.logY != q.logY ||
            p.row != q.row || p.column != q.column || p.legend != q.legend || p.showTitle != q.showTitle ||
            p.xInteger != q.xInteger || p.yInteger != q.yInteger || p.equalAspect != q.equalAspect ||
            p.series.size() != q.series.size() || p.bands.size() != q.bands.size() ||
            p.heatMaps.size() != q.heatMaps.size() || hasIntegerBars(p) != hasIntegerBars(q))
            return false;
        for (std::size_t j = 0; j < p.series.size(); ++j) {
            const Series& s = p.series[j];
            const Series& t = q.series[j];
            if (s.name != t.name || s.kind != t.kind || s.colour != t.colour || s.dashed != t.dashed ||
                s.emphasis != t.emphasis || s.thin != t.thin)
                return false;
        }
        for (std::size_t j = 0; j < p.bands.size(); ++j) {
            if (p.bands[j].name != q.bands[j].name || p.bands[j].colour != q.bands[j].colour)
                return false;
        }
        for (std::size_t j = 0; j < p.heatMaps.size(); ++j) {
            if (p.heatMaps[j].name != q.heatMaps[j].name ||
                drawable(p.heatMaps[j]) != drawable(q.heatMaps[j]))
                return false;
        }
    }
    return true;
}

} // namespace

PlotView::PlotView(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumWidth(240); // the height follows the figure's rows (minimumSizeHint)

    m_plot->setAutoAddPlottableToLegend(false);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeLegendItems | QCP::aeScatters);
    // Fills are translucent and often dense: antialiasing them costs much and shows little.
    m_plot->setNotAntialiasedElements(QCP::aeFills | QCP::aeGrid | QCP::aeSubGrid | QCP::aeZeroLine);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    m_plot->setPlottingHint(QCP::phCacheLabels, true);
    m_plot->setMouseTracking(true);
    m_scale = screenScale();
    m_plot->installEventFilter(this);

    m_overlay = m_plot->layer(QStringLiteral("overlay"));
    if (!m_overlay) {
        m_plot->addLayer(QStringLiteral("overlay"), m_plot->layer(QStringLiteral("legend")),
                         QCustomPlot::limAbove);
        m_overlay = m_plot->layer(QStringLiteral("overlay"));
    }
    // The overlay (hover read-out) is a buffer of its own only while the read-out shows, so that
    // a mouse move repaints it alone; otherwise it shares the figure's buffer: a second
    // window-sized buffer to clear and composite was a sixth of every replot (issue 13).
    m_overlay->setMode(QCPLayer::lmLogical);
    m_plot->addLayer(QStringLiteral("ghosts"), m_plot->layer(QStringLiteral("main")), QCustomPlot::limBelow);
    m_ghostLayer = m_plot->layer(QStringLiteral("ghosts"));

    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] {
        if (m_hoverPlot < 0 && m_overlay->mode() == QCPLayer::lmBuffered)
            m_overlay->setMode(QCPLayer::lmLogical); // regrouped by this replot
        syncHiddenViewport();
        m_replotTimer.start();
        m_inReplot = true;
        m_settledBeforeDraw = false;
    });
    // Legends, tick counts and wrapped labels follow the room the layout gives them. They are
    // fitted after QCustomPlot's layout and before it draws, so that a new figure or a resize
    // is drawn once: fitted after the drawing, a change cost a second full replot, which
    // doubled a slider step (issue 13: ue-drop-ball's p95). Exports lay out on their own
    // (layOutForSize), so only a replot's layout is fitted here.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (!m_inReplot || m_tickRefitQueued)
            return;
        for (int pass = 0; pass < 2 && !m_settledBeforeDraw; ++pass) {
            if (settleToRoom())
                layOut();
            else
                m_settledBeforeDraw = true;
        }
    });
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        m_inReplot = false;
        m_lastRenderMs = m_replotTimer.nsecsElapsed() * 1e-6;
        // What the two passes before drawing left unsettled is drawn once more, never in a loop.
        if (!m_tickRefitQueued) {
            if (!m_settledBeforeDraw && settleToRoom()) {
                m_tickRefitQueued = true;
                m_plot->replot(QCustomPlot::rpQueuedReplot);
            }
        } else {
            m_tickRefitQueued = false;
        }
        if (m_newFigurePending) {
            m_newFigurePending = false;
            emit rendered();
        }
    });
    connectInteraction();
    setFigure(Figure{});
}

bool PlotView::settleToRoom()
{
    bool changed = false;
    if (m_plot->viewport().size() != m_placedFor) {
        m_placedFor = m_plot->viewport().size();
        keepFlowColumns();
        applyLocksOrFit();
        changed = true;
    }
    changed = fitToRoom() || changed;
    // The frames' final sizes are known only now: an equal-aspect plot may need a wider axis.
    for (std::size_t i = 0; i < m_plots.size(); ++i)
        if (!isUserZoomed(static_cast<int>(i)))
            changed = keepAspect(static_cast<int>(i)) || changed;
    return changed;
}

PlotView::~PlotView()
{
    // A dying QWidget still sends Leave events; the half-destroyed plot must not hear back.
    m_plot->removeEventFilter(this);
    disconnect(m_plot, nullptr, this, nullptr);
    delete m_plot;
    m_plot = nullptr;
}

void PlotView::syncHiddenViewport()
{
    // A hidden widget gets no resize events; keep the viewport at the widget's size so
    // benchmarks and exports of a never-shown view lay out as they would on screen.
    if (!isVisible() && m_plot->size() != size()) {
        m_plot->setGeometry(rect());
        m_plot->setViewport(m_plot->rect());
    }
}

void PlotView::renderNow()
{
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

QCPAxisRect* PlotView::axisRect(int plotIndex) const
{
    if (plotIndex < 0 || plotIndex >= static_cast<int>(m_plots.size()))
        return nullptr;
    return m_plots[static_cast<std::size_t>(plotIndex)].rect;
}

QString PlotView::keyFor(int plotIndex, const QString& name) const
{
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(plotIndex)];
    if (plot.legend == LegendPlace::Shared)
        return QStringLiteral("(shared legend)/") + name;
    return QString::fromStdString(plot.title) + QLatin1Char('/') + name;
}

int PlotView::flowColumns() const
{
    const double em = m_scale.fontPt * m_scale.unitsPerPt;
    const QSize view = m_plot->viewport().size();
    return m_figure.plots.size() > 3 &&
                   (view.width() >= kTwoColumnEms * em || view.width() >= 0.8 * view.height())
               ? 2
               : 1;
}

void PlotView::keepFlowColumns()
{
    if (!m_plots.empty() && !hasExplicitGrid() && flowColumns() != m_builtFlowColumns) {
        captureLockedRanges();
        rebuild();
        applyLocksOrFit();
        updateGeometry(); // another count of rows
    }
}

void PlotView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        updateGeometry(); // titles and legends wrap to other line counts
}

QSize PlotView::minimumSizeHint() const
{
    const double em = m_scale.fontPt * m_scale.unitsPerPt;
    double least = 0;
    if (hasExplicitGrid()) {
        int rows = 0;
        for (const Plot& p : m_figure.plots)
            rows = std::max(rows, p.row + 1);
        least = (rows * kLeastGridRowEms + 4) * em; // 4: the bottom row's tick and axis labels
    } else {
        const int count = static_cast<int>(m_figure.plots.size());
        const int columns = std::max(m_builtFlowColumns, 1);
        const double cell = std::max(10.0, width() / double(columns) / em); // in ems
        std::vector<double> rows(std::size_t((count + columns - 1) / columns), 0.0);
        for (int i = 0; i < count; ++i) {
            const Plot& p = m_figure.plots[std::size_t(i)];
            double height = kLeastFrameEms + 3.5; // 3.5: x tick labels and axis label
            if (p.showTitle && !p.title.empty())
                height += 1.3 * 1.2 * std::ceil(0.6 * 1.2 * double(p.title.size()) / cell);
            std::size_t entries = 0, longest = 0;
            std::set<std::string> pins; // a pin's ghosts share one entry
            for (std::size_t j = 0; j < p.series.size(); ++j) {
                const std::string& name = p.series[j].name;
                if (!isGhost(i, int(j)) || pins.insert(name).second)
                    entries += !name.empty(), longest = std::max(longest, name.size());
            }
            for (const Band& b : p.bands)
                entries += !b.name.empty(), longest = std::max(longest, b.name.size());
            // A legend of three or more entries wider than half its cell goes below it (placeLegend).
            const double entryEms = 0.55 * double(longest) + 4;
            if (entries >= 3 && entryEms > 0.5 * cell) {
                height += 1.6 * double(entries) * std::ceil(0.55 * double(longest) / std::max(8.0, cell - 4));
            } else if (entries > 3) {
                // More than a row of three inside is over 0.6 of a least-height frame, which
                // placeLegend moves below when no corner is free of data. Whether one is free is
                // known only after the layout: counted always, so that a short window scrolls
                // rather than squeezing every frame to make room for it (bnn-identifiability at
                // 1280 x 720 had frames of 45 to 60 px).
                const double columns = std::clamp(std::floor(cell / entryEms), 1.0, double(entries));
                height += 1.6 * std::ceil(double(entries) / columns);
            }
            rows[std::size_t(i / columns)] = std::max(rows[std::size_t(i / columns)], height);
        }
        for (double h : rows)
            least += h * em;
    }
    return QSize(240, std::max(180, static_cast<int>(std::ceil(least))));
}

bool PlotView::hasExplicitGrid() const
{
    // A figure with a plot left out, or two plots in one cell, flows like one with none.
    std::set<std::pair<int, int>> cells;
    for (const Plot& p : m_figure.plots)
        if (p.row < 0 || p.column < 0 || !cells.insert({p.row, p.column}).second)
            return false;
    return !cells.empty();
}

std::vector<QCPLegend*> PlotView::legends() const
{
    std::vector<QCPLegend*> all;
    for (const PlotItems& p : m_plots)
        if (p.legend)
            all.push_back(p.legend);
    if (m_sharedLegend && std::find(all.begin(), all.end(), m_sharedLegend) == all.end())
        all.push_back(m_sharedLegend);
    return all;
}

void PlotView::setFigure(const Figure& figure)
{
    // The final figure of a streamed run fits its data once (unless a drag or Play holds).
    m_streamRun = 0;
    applyHold(false);
    showFigure(figure);
}

void PlotView::showFigure(const Figure& figure)
{
    // A figure like the last one (the usual case while a parameter moves or a run streams
    // progress) only updates data: a pan in progress, the hover read-out and the legend stay.
    syncHiddenViewport(); // legends are placed for the size the view will have
    m_source = figure;
    Figure drawn = withPins(figure);
    const bool reuse = !m_plots.empty() && sameStructure(m_figure, drawn);
    captureLockedRanges();
    if (m_hold)
        captureHeldRanges();
    m_figure = std::move(drawn);
    if (!reuse || !updateData())
        rebuild();
    applyLocksOrFit();
    if (m_hoverPlot >= 0)
        updateHover(m_hoverPos);
    m_newFigurePending = true;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    if (!reuse)
        updateGeometry(); // another count of rows
}

void PlotView::rebuild()
{
    clearPlot();
    QCPLayoutGrid* layout = m_plot->plotLayout();
    const int count = static_cast<int>(m_figure.plots.size());
    if (count == 0) {
        auto* text = new QCPTextElement(m_plot, tr("No figure yet"), textFont(12 / kScreenFontPt));
        text->setTextColor(QColor(140, 140, 140));
        layout->addElement(0, 0, text);
        return;
    }
    // Either every plot names its cell, or they flow into one column (two beyond three plots,
    // when the width holds two).
    const bool explicitGrid = hasExplicitGrid();
    const int flowColumns = this->flowColumns();
    m_builtFlowColumns = flowColumns;
    auto cellOf = [&](int i) {
        const Plot& p = m_figure.plots[static_cast<std::size_t>(i)];
        return explicitGrid ? std::pair(p.row, p.column) : std::pair(i / flowColumns, i % flowColumns);
    };
    int rows = 0, columns = 0;
    for (int i = 0; i < count; ++i) {
        rows = std::max(rows, cellOf(i).first + 1);
        columns = std::max(columns, cellOf(i).second + 1);
    }
    std::vector<QCPMarginGroup*> columnGroups, rowGroups; // align the axes of a column / a row
    for (int c = 0; c < columns; ++c)
        columnGroups.push_back(new QCPMarginGroup(m_plot));
    if (explicitGrid)
        for (int r = 0; r < rows; ++r)
            rowGroups.push_back(new QCPMarginGroup(m_plot));
    m_marginGroups.insert(m_marginGroups.end(), columnGroups.begin(), columnGroups.end());
    m_marginGroups.insert(m_marginGroups.end(), rowGroups.begin(), rowGroups.end());

    m_plots.resize(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        const auto [row, column] = cellOf(i);
        auto* cell = new QCPLayoutGrid;
        layout->addElement(row, column, cell);
        cell->setRowSpacing(0);
        cell->setColumnSpacing(ilen(4));
        const Plot& plot = m_figure.plots[static_cast<std::size_t>(i)];
        int rectRow = 0;
        if (!plot.title.empty() && plot.showTitle) {
            auto* title =
                new RichTextElement(m_plot, QString::fromStdString(plot.title), textFont(1.2, true));
            title->setMargins(QMargins(ilen(4), ilen(4), ilen(4), 0));
            cell->addElement(0, 0, title);
            rectRow = 1;
        }
        auto* rect = newRichAxisRect(m_plot); // axis labels with sub- and superscripts
        cell->addElement(rectRow, 0, rect);
        rect->setMarginGroup(QCP::msLeft | (explicitGrid ? QCP::msRight : QCP::msNone),
                             columnGroups[static_cast<std::size_t>(column)]);
        if (explicitGrid)
            rect->setMarginGroup(QCP::msTop | QCP::msBottom, rowGroups[static_cast<std::size_t>(row)]);
        m_plots[static_cast<std::size_t>(i)].rect = rect;
        m_plots[static_cast<std::size_t>(i)].cell = cell;
        buildPlot(i, cell, rectRow);
    }
    buildSharedLegend(explicitGrid);
    layout->setColumnSpacing(ilen(12));
    layout->setRowSpacing(ilen(6));
    createHoverItems();
}

bool PlotView::updateData()
{
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        const int index = static_cast<int>(i);
        PlotItems& items = m_plots[i];
        for (Entry& e : items.entries) {
            if (!(e.isBand ? setBandData(index, e) : setSeriesData(index, e)))
                return false;
        }
        const Plot& plot = m_figure.plots[i];
        for (std::size_t j = 0; j < plot.heatMaps.size() && j < items.maps.size(); ++j) {
            if (items.maps[j])
                setHeatMapData(items.maps[j], plot.heatMaps[j]);
        }
        for (QCPAbstractItem* item : items.markerItems)
            m_plot->removeItem(item);
        items.markerItems.clear();
        addMarkers(index); // names may carry values ("g = 9.81")
    }
    return true;
}

void PlotView::clearPlot()
{
    m_hoverPlot = -1;
    for (QCPLegend* legend : legends())
        legend->clearItems(); // while the plottables they point to still exist
    m_sharedLegend = nullptr;
    m_plot->clearItems();
    m_hoverLine = nullptr;
    m_hoverText = nullptr;
    m_hoverTracers.clear();
    m_plot->clearPlottables();
    for (QCPBarsGroup* group : m_barsGroups)
        delete group;
    m_barsGroups.clear();
    for (QCPMarginGroup* group : m_marginGroups)
        delete group;
    m_marginGroups.clear();
    m_plot->plotLayout()->clear();
    m_plots.clear();
}

} // namespace evx
