// PlotView interaction: clicks, pan/zoom lock, legend toggling and the hover read-out.
// QCustomPlot itself pans and zooms; here we only watch its mouse signals.

#include "plot/plot_view.h"
#include "plot/rich_text.h"

#include "plot/plot_view_style.h"

#include <qcustomplot.h>

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace evx {

namespace {

constexpr int kClickSlop = 3; // pixels a press may move and still be a click (as QCustomPlot)

QString formatValue(double v)
{
    return QString::number(v, 'g', 4);
}

// y of a sorted series at x: linear for lines, the nearest point's value for centred steps.
// NaN outside the data or next to a gap.
double valueAt(const std::vector<double>& xs, const std::vector<double>& ys, double x, bool step)
{
    const std::size_t n = std::min(xs.size(), ys.size());
    if (n == 0 || !(x >= xs.front() && x <= xs[n - 1]))
        return std::nan("");
    const auto end = xs.begin() + static_cast<std::ptrdiff_t>(n);
    std::size_t hi = static_cast<std::size_t>(std::lower_bound(xs.begin(), end, x) - xs.begin());
    if (hi == 0)
        return ys[0];
    const std::size_t lo = hi - 1;
    if (hi >= n)
        return ys[n - 1];
    if (step)
        return (x - xs[lo] < xs[hi] - x) ? ys[lo] : ys[hi];
    const double t = (xs[hi] == xs[lo]) ? 0.0 : (x - xs[lo]) / (xs[hi] - xs[lo]);
    return ys[lo] + t * (ys[hi] - ys[lo]);
}

} // namespace

void PlotView::connectInteraction()
{
    connect(m_plot, &QCustomPlot::mousePress, this, &PlotView::onMousePress);
    connect(m_plot, &QCustomPlot::mouseMove, this, &PlotView::onMouseMove);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &PlotView::onMouseRelease);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, &PlotView::onMouseDoubleClick);
    connect(m_plot, &QCustomPlot::mouseWheel, this, &PlotView::onWheel);
    // Each click on an entry toggles it, also the second click of a double-click.
    connect(m_plot, &QCustomPlot::legendClick, this,
            [this](QCPLegend* legend, QCPAbstractLegendItem* item, QMouseEvent*) {
                onLegendClick(legend, item);
            });
    connect(m_plot, &QCustomPlot::legendDoubleClick, this,
            [this](QCPLegend* legend, QCPAbstractLegendItem* item, QMouseEvent*) {
                onLegendClick(legend, item);
            });
}

bool PlotView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Leave)
        hideHover();
    return QWidget::eventFilter(watched, event);
}

int PlotView::plotIndexAt(const QPointF& pos) const
{
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        if (m_plots[i].rect && m_plots[i].rect->rect().contains(pos.toPoint()))
            return static_cast<int>(i);
    }
    return -1;
}

bool PlotView::isOverLegend(int plotIndex, const QPointF& pos) const
{
    const QCPLegend* legend = m_plots[static_cast<std::size_t>(plotIndex)].legend;
    return legend && legend->visible() && legend->outerRect().contains(pos.toPoint());
}

void PlotView::onMousePress(QMouseEvent* event)
{
    m_dragged = false;
    m_pressPos = event->position();
    m_pressPlot = event->button() == Qt::LeftButton ? plotIndexAt(m_pressPos) : -1;
}

void PlotView::onMouseMove(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (m_pressPlot >= 0 && (event->buttons() & Qt::LeftButton)) {
        if (!m_dragged && (pos - m_pressPos).manhattanLength() > kClickSlop) {
            m_dragged = true;
            markUserZoomed(m_pressPlot); // now, so a figure arriving mid-drag keeps the pan
        }
        hideHover(); // the plot is moving under the cursor
        return;
    }
    updateHover(pos);
}

void PlotView::onMouseRelease(QMouseEvent* event)
{
    const int plot = m_pressPlot;
    m_pressPlot = -1;
    // The figure may have changed shape since the press.
    if (event->button() != Qt::LeftButton || plot < 0 || plot >= static_cast<int>(m_plots.size()))
        return;
    if (m_dragged) {
        m_dragged = false; // a pan, locked when it started
        return;
    }
    if (isOverLegend(plot, event->position()))
        return; // a legend click toggles a series instead
    const QCPAxisRect* rect = m_plots[static_cast<std::size_t>(plot)].rect;
    emit pointClicked(plot, rect->axis(QCPAxis::atBottom)->pixelToCoord(event->position().x()),
                      rect->axis(QCPAxis::atLeft)->pixelToCoord(event->position().y()));
}

void PlotView::onMouseDoubleClick(QMouseEvent* event)
{
    const int plot = plotIndexAt(event->position());
    if (plot < 0)
        resetView();
    else if (!isOverLegend(plot, event->position()))
        resetPlotView(plot);
}

void PlotView::onWheel(QWheelEvent* event)
{
    // Emitted before QCustomPlot zooms the rect under the cursor; it zooms that same rect.
    const int plot = plotIndexAt(event->position());
    if (plot >= 0)
        markUserZoomed(plot);
    hideHover();
}

void PlotView::onLegendClick(QCPLegend* legend, QCPAbstractLegendItem* item)
{
    if (!item || !legend)
        return;
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        for (const Entry& e : m_plots[i].entries) {
            if (e.legendItem == item) {
                const int index = static_cast<int>(i);
                const QString name = e.name; // setSeriesVisible may touch the entries
                setSeriesVisible(index, name, !isSeriesVisible(index, name));
                return;
            }
        }
    }
}

void PlotView::createHoverItems()
{
    m_hoverLine = new QCPItemStraightLine(m_plot);
    m_hoverLine->setLayer(m_overlay);
    m_hoverLine->setPen(QPen(QColor(90, 90, 90), len(1), Qt::DashLine));
    m_hoverLine->setSelectable(false);
    m_hoverLine->setVisible(false);
    m_hoverText = new RichItemText(m_plot);
    m_hoverText->setLayer(m_overlay);
    m_hoverText->setClipToAxisRect(false);
    m_hoverText->position->setType(QCPItemPosition::ptAbsolute);
    m_hoverText->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_hoverText->setTextAlignment(Qt::AlignLeft);
    m_hoverText->setFont(textFont(1.0));
    m_hoverText->setPadding(QMargins(ilen(6), ilen(4), ilen(6), ilen(4)));
    m_hoverText->setBrush(QColor(255, 255, 255, 230));
    m_hoverText->setPen(QPen(QColor(0, 0, 0, 90), len(1)));
    m_hoverText->setSelectable(false);
    m_hoverText->setVisible(false);
    // One tracer per line series, made now: adding one later to the buffered overlay layer
    // would invalidate its buffer and cost a full replot.
    auto isLine = [](const Series& s) { return s.kind == SeriesKind::Line || s.kind == SeriesKind::Step; };
    std::ptrdiff_t lines = 0;
    for (const Plot& plot : m_figure.plots)
        lines = std::max(lines, std::count_if(plot.series.begin(), plot.series.end(), isLine));
    if (lines > 0)
        hoverTracer(static_cast<std::size_t>(lines - 1));
}

QCPItemTracer* PlotView::hoverTracer(std::size_t i)
{
    while (m_hoverTracers.size() <= i) {
        auto* tracer = new QCPItemTracer(m_plot);
        tracer->setLayer(m_overlay);
        tracer->setStyle(QCPItemTracer::tsCircle);
        tracer->setSize(len(7));
        tracer->setSelectable(false);
        tracer->setVisible(false);
        m_hoverTracers.push_back(tracer);
    }
    return m_hoverTracers[i];
}

void PlotView::updateHover(const QPointF& pos)
{
    const int index = plotIndexAt(pos);
    if (!m_hoverText || index < 0 || isOverLegend(index, pos)) {
        hideHover();
        return;
    }
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(index)];
    const PlotItems& items = m_plots[static_cast<std::size_t>(index)];
    QCPAxisRect* rect = items.rect;
    QCPAxis* xAxis = rect->axis(QCPAxis::atBottom);
    QCPAxis* yAxis = rect->axis(QCPAxis::atLeft);
    const double x = xAxis->pixelToCoord(pos.x());

    QStringList lines{QStringLiteral("x = %1").arg(formatValue(x))};
    std::size_t tracers = 0;
    auto showTracer = [&](double y, const QColor& colour) {
        QCPItemTracer* t = hoverTracer(tracers++);
        t->setClipAxisRect(rect);
        t->position->setAxes(xAxis, yAxis);
        t->position->setCoords(x, y);
        t->setPen(QPen(colour.darker(120), len(1.5)));
        t->setBrush(QColor(255, 255, 255, 220));
        t->setVisible(true);
    };
    for (const Entry& e : items.entries) {
        if (!e.sortedX || e.ghost || m_hidden.contains(keyFor(index, e.name)))
            continue; // a pin's values would read as the current figure's
        if (e.isBand) {
            const Band& b = plot.bands[static_cast<std::size_t>(e.source)];
            const double lo = valueAt(b.x, b.lower, x, false);
            const double hi = valueAt(b.x, b.upper, x, false);
            if (std::isfinite(lo) && std::isfinite(hi))
                lines << QStringLiteral("%1: %2 to %3").arg(e.name, formatValue(lo), formatValue(hi));
            continue;
        }
        const Series& s = plot.series[static_cast<std::size_t>(e.source)];
        if (s.kind != SeriesKind::Line && s.kind != SeriesKind::Step)
            continue;
        const double y = valueAt(s.x, s.y, x, s.kind == SeriesKind::Step);
        if (!std::isfinite(y))
            continue;
        lines << QStringLiteral("%1: %2").arg(e.name, formatValue(y));
        showTracer(y, e.colour);
    }
    if (!items.maps.empty()) {
        const double y = yAxis->pixelToCoord(pos.y());
        lines.front() += QStringLiteral(", y = %1").arg(formatValue(y));
        for (std::size_t j = 0; j < items.maps.size(); ++j) {
            if (!items.maps[j])
                continue;
            int ix = -1;
            int iy = -1;
            QCPColorMapData* data = items.maps[j]->data(); // cell() is not const in 2.1
            data->coordToCell(x, y, &ix, &iy);
            if (ix >= 0 && ix < data->keySize() && iy >= 0 && iy < data->valueSize()) {
                lines << QStringLiteral("%1: %2").arg(QString::fromStdString(plot.heatMaps[j].name),
                                                      formatValue(data->cell(ix, iy)));
            }
        }
    }
    for (std::size_t k = tracers; k < m_hoverTracers.size(); ++k)
        m_hoverTracers[k]->setVisible(false);

    m_hoverLine->setClipAxisRect(rect);
    for (QCPItemPosition* p : {m_hoverLine->point1, m_hoverLine->point2}) {
        p->setAxes(xAxis, yAxis);
        p->setAxisRect(rect);
        p->setTypeX(QCPItemPosition::ptPlotCoords);
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    m_hoverLine->point1->setCoords(x, 0.0);
    m_hoverLine->point2->setCoords(x, 1.0);
    m_hoverLine->setVisible(true);

    // Put the box beside the cursor, flipped to stay inside the axis rect.
    const QString text = lines.join(QLatin1Char('\n'));
    m_hoverText->setText(text);
    const QMargins pad = m_hoverText->padding();
    const QSize box = QFontMetrics(m_hoverText->font()).boundingRect(QRect(), Qt::AlignLeft, text).size() +
                      QSize(pad.left() + pad.right(), pad.top() + pad.bottom());
    const QRect area = rect->rect();
    const double offset = len(14);
    double left = pos.x() + offset;
    double top = pos.y() + offset;
    if (left + box.width() > area.right())
        left = pos.x() - offset - box.width();
    if (top + box.height() > area.bottom())
        top = pos.y() - offset - box.height();
    left = std::max<double>(left, area.left());
    top = std::max<double>(top, area.top());
    m_hoverText->position->setCoords(left, top);
    m_hoverText->setVisible(true);
    m_hoverPlot = index;
    m_hoverPos = pos;
    // Made a buffer of its own when the read-out appears (one full replot); from then on a
    // mouse move repaints the overlay layer alone.
    m_overlay->setMode(QCPLayer::lmBuffered);
    m_overlay->replot();
}

void PlotView::hideHover()
{
    if (m_hoverPlot < 0)
        return;
    m_hoverPlot = -1;
    if (m_hoverLine)
        m_hoverLine->setVisible(false);
    if (m_hoverText)
        m_hoverText->setVisible(false);
    for (QCPItemTracer* t : m_hoverTracers)
        t->setVisible(false);
    m_overlay->replot();
}

} // namespace evx
