// PlotView pins: earlier figures' curves drawn as faint ghosts under the current figure, so a
// parameter's effect reads as "before and after" in one plot.

#include "plot/plot_view.h"

#include "plot/palette.h"

#include <qcustomplot.h>

namespace evx {

namespace {

// The palette index each series of `plot` is drawn in, as buildPlot picks them: explicit
// indices first, then -1 takes the next free one in series order. A ghost must keep the
// colour its curve had, not take the next free one beside the current figure's.
std::vector<int> drawnColours(const Plot& plot)
{
    std::vector<bool> used(static_cast<std::size_t>(Palette::seriesColourCount()), false);
    auto mark = [&](int c) {
        if (c >= 0)
            used[static_cast<std::size_t>(c % Palette::seriesColourCount())] = true;
    };
    for (const Series& s : plot.series)
        mark(s.colour);
    for (const Band& b : plot.bands)
        mark(b.colour);
    std::vector<int> colours;
    for (const Series& s : plot.series) {
        int c = s.colour;
        if (c == kAutoColour) {
            c = Palette::nextFreeColour(used);
            mark(c);
        }
        colours.push_back(c);
    }
    return colours;
}

const Plot* matchingPlot(const Figure& pinned, const Plot& current)
{
    for (const Plot& p : pinned.plots) {
        if (p.title == current.title && p.xLabel == current.xLabel && p.yLabel == current.yLabel &&
            p.logY == current.logY)
            return &p;
    }
    return nullptr;
}

} // namespace

Figure PlotView::pinnedCurves(const Figure& figure)
{
    Figure curves;
    for (const Plot& p : figure.plots) {
        Plot kept;
        kept.title = p.title;
        kept.xLabel = p.xLabel;
        kept.yLabel = p.yLabel;
        kept.logY = p.logY;
        const std::vector<int> colours = drawnColours(p);
        for (std::size_t j = 0; j < p.series.size(); ++j) {
            if (p.series[j].kind == SeriesKind::Bar || p.series[j].x.empty())
                continue;
            kept.series.push_back(p.series[j]);
            kept.series.back().colour = colours[j];
            kept.series.back().emphasis = 0;
        }
        if (!kept.series.empty())
            curves.plots.push_back(std::move(kept));
    }
    return curves;
}

void PlotView::setPins(std::vector<Pin> pins)
{
    m_pins = std::move(pins);
    setFigure(Figure(m_source)); // a copy: setFigure replaces m_source
}

void PlotView::setPinLabels(const QStringList& labels)
{
    bool changed = false;
    for (std::size_t i = 0; i < m_pins.size() && i < std::size_t(labels.size()); ++i) {
        if (m_pins[i].label != labels[qsizetype(i)]) {
            m_pins[i].label = labels[qsizetype(i)];
            changed = true;
        }
    }
    if (changed)
        setFigure(Figure(m_source));
}

int PlotView::ghostCount(int plotIndex) const
{
    if (plotIndex < 0 || plotIndex >= static_cast<int>(m_plots.size()))
        return 0;
    int count = 0;
    for (const Entry& e : m_plots[static_cast<std::size_t>(plotIndex)].entries)
        count += e.ghost && !e.plottables.empty() && e.plottables.front()->interface1D() &&
                 e.plottables.front()->interface1D()->dataCount() > 0; // not the legend key
    return count;
}

Figure PlotView::withPins(const Figure& figure)
{
    Figure drawn = figure;
    m_ghostFrom.assign(drawn.plots.size(), 0);
    for (std::size_t i = 0; i < drawn.plots.size(); ++i) {
        Plot& plot = drawn.plots[i];
        m_ghostFrom[i] = plot.series.size();
        const Plot current = plot; // matched against: the ghosts appended below do not count
        for (const Pin& pin : m_pins) {
            const Plot* pinned = matchingPlot(pin.figure, current);
            if (!pinned)
                continue;
            const std::vector<int> colours = drawnColours(*pinned);
            std::vector<Series> ghosts;
            for (std::size_t j = 0; j < pinned->series.size(); ++j) {
                const Series& s = pinned->series[j];
                if (s.kind == SeriesKind::Bar || s.x.empty())
                    continue; // bars side by side with the current ones would read as data
                Series ghost = s;
                // Every curve of a pin goes under the pin's one name: one legend entry, and a
                // click on it hides the whole pin.
                ghost.name = pin.label.toStdString();
                ghost.colour = colours[j];
                ghost.emphasis = 0;
                ghosts.push_back(std::move(ghost));
            }
            if (ghosts.empty())
                continue;
            // The legend entry: a curve without points in neutral grey, since the pin's first
            // curve may be black and dotted (a prior) or any one of the colours, and the entry
            // stands for all of them.
            Series key;
            key.name = pin.label.toStdString();
            key.colour = kReferenceColour;
            plot.series.push_back(std::move(key));
            for (Series& g : ghosts)
                plot.series.push_back(std::move(g));
        }
    }
    return drawn;
}

bool PlotView::isGhost(int plotIndex, int seriesIndex) const
{
    return plotIndex >= 0 && std::size_t(plotIndex) < m_ghostFrom.size() &&
           std::size_t(seriesIndex) >= m_ghostFrom[std::size_t(plotIndex)];
}

void PlotView::styleGhost(Entry& entry)
{
    // Translucent, thinner and dashed (dotted if the curve itself was dashed), on a layer
    // under the current curves so that "after" is always on top of "before".
    for (std::size_t k = 0; k < entry.plottables.size(); ++k) {
        QCPAbstractPlottable* p = entry.plottables[k];
        QPen pen = p->pen();
        const bool key = p->interface1D() && p->interface1D()->dataCount() == 0;
        QColor colour = key ? QColor(120, 120, 120) : entry.colour;
        colour.setAlpha(key ? 255 : kGhostAlpha);
        pen.setColor(colour);
        pen.setWidthF(pen.widthF() * kGhostWidth);
        pen.setStyle(pen.style() == Qt::SolidLine ? Qt::DashLine : Qt::DotLine);
        pen.setCapStyle(Qt::FlatCap);
        p->setPen(pen);
        if (auto* graph = qobject_cast<QCPGraph*>(p);
            graph && graph->scatterStyle().shape() != QCPScatterStyle::ssNone) {
            QCPScatterStyle style = graph->scatterStyle();
            style.setPen(QPen(colour, len(1)));
            style.setBrush(Qt::NoBrush); // hollow: the current points stay readable through them
            graph->setScatterStyle(style);
        }
        p->setLayer(m_ghostLayer);
        entry.pens[k] = p->pen();
        entry.brushes[k] = p->brush();
    }
}

} // namespace evx
