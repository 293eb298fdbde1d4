// Held ranges: while a slider is dragged, Play steps a parameter or a long run streams its
// partial figures, later figures keep the axes and legends where they were, so that a curve
// is seen to move rather than the axes under it (issue 14: rescaling on every change hid the
// very motion a demo is about, and streamed frames made the plot jump).

#include "plot/plot_view.h"

#include <qcustomplot.h>

#include <cmath>

namespace evx {

namespace {

// The held range, widened on a side the fitted one passes by more than the slack, or the
// fitted range itself when the data now fill only a sliver of the held one. A log axis
// compares spans in decades.
QCPRange merged(const QCPRange& held, const QCPRange& fitted, bool log)
{
    if (log && (held.lower <= 0 || fitted.lower <= 0))
        return fitted;
    auto to = [log](double v) { return log ? std::log(v) : v; };
    auto from = [log](double v) { return log ? std::exp(v) : v; };
    const double hl = to(held.lower), hu = to(held.upper), fl = to(fitted.lower), fu = to(fitted.upper);
    const double span = hu - hl;
    if (!std::isfinite(span) || !(span > 0) || !std::isfinite(fl) || !std::isfinite(fu))
        return fitted;
    if (fu - fl < PlotView::kHoldShrink * span)
        return fitted;
    const double lo = fl < hl - PlotView::kHoldSlack * span ? fl : hl;
    const double hi = fu > hu + PlotView::kHoldSlack * span ? fu : hu;
    return QCPRange(from(lo), from(hi));
}

} // namespace

void PlotView::setHoldRanges(bool hold)
{
    m_holdAsked = hold;
    applyHold(true);
}

void PlotView::applyHold(bool release)
{
    const bool hold = m_holdAsked || m_streamRun != 0;
    if (hold == m_hold)
        return;
    m_hold = hold;
    m_held.clear();
    if (!hold && release && !m_plots.empty()) {
        applyLocksOrFit(); // and the legends find their corners for the data as they are now
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void PlotView::setStreamedFigure(const Figure& partial, quint64 run)
{
    if (run == 0 || run != m_streamRun) {
        // Another run's first frame: it fits its own data (a frame of an overtaken run is no
        // reference), and holds from then on.
        m_streamRun = 0;
        applyHold(false);
        showFigure(partial);
        m_streamRun = run;
        applyHold(false);
        return;
    }
    showFigure(partial);
}

void PlotView::endStream()
{
    if (m_streamRun == 0)
        return;
    m_streamRun = 0;
    applyHold(true);
}

void PlotView::captureHeldRanges()
{
    m_held.assign(m_plots.size(), HeldRange{});
    for (std::size_t i = 0; i < m_plots.size() && i < m_figure.plots.size(); ++i) {
        if (!m_plots[i].rect)
            continue;
        const Plot& plot = m_figure.plots[i];
        const QCPRange xr = m_plots[i].rect->axis(QCPAxis::atBottom)->range();
        const QCPRange yr = m_plots[i].rect->axis(QCPAxis::atLeft)->range();
        m_held[i] =
            HeldRange{true, xr.lower, xr.upper, yr.lower, yr.upper, plot.xLabel, plot.yLabel, plot.logY};
    }
}

void PlotView::holdRanges(int index)
{
    const auto i = static_cast<std::size_t>(index);
    if (i >= m_held.size() || !m_held[i].valid)
        return;
    const HeldRange& held = m_held[i];
    const Plot& plot = m_figure.plots[i];
    if (held.xLabel != plot.xLabel || held.yLabel != plot.yLabel || held.logY != plot.logY)
        return; // another plot now sits at this index: it fits its own data
    QCPAxis* xAxis = m_plots[i].rect->axis(QCPAxis::atBottom);
    QCPAxis* yAxis = m_plots[i].rect->axis(QCPAxis::atLeft);
    xAxis->setRange(merged(QCPRange(held.xLower, held.xUpper), xAxis->range(), false));
    yAxis->setRange(merged(QCPRange(held.yLower, held.yUpper), yAxis->range(), plot.logY));
}

bool PlotView::reapplyLegend(int index)
{
    const auto i = static_cast<std::size_t>(index);
    PlotItems& items = m_plots[i];
    if (i >= m_legendChoices.size() || !items.legend)
        return false;
    const LegendChoice& choice = m_legendChoices[i];
    if (!choice.valid || choice.entries != items.legend->itemCount())
        return false;
    setLegendBelow(index, choice.below);
    if (items.legend->wrap() != choice.wrap || int(items.legend->fillOrder()) != choice.fillOrder) {
        items.legend->setWrap(choice.wrap);
        items.legend->setFillOrder(QCPLayoutGrid::FillOrder(choice.fillOrder), true);
    }
    if (choice.below)
        return true;
    QCPLayoutInset* inset = items.rect->insetLayout();
    for (int k = 0; k < inset->elementCount(); ++k)
        if (inset->elementAt(k) == items.legend)
            inset->setInsetAlignment(k, choice.alignment);
    if (choice.keep < 1) {
        QCPAxis* yAxis = items.rect->axis(QCPAxis::atLeft);
        const QCPRange yr = yAxis->range();
        if (m_figure.plots[i].logY)
            yAxis->setRangeUpper(yr.lower * std::pow(yr.upper / yr.lower, 1 / choice.keep));
        else
            yAxis->setRangeUpper(yr.lower + (yr.upper - yr.lower) / choice.keep);
    }
    return true;
}

void PlotView::recordLegend(int index, double keep)
{
    const auto i = static_cast<std::size_t>(index);
    if (m_legendChoices.size() < m_plots.size())
        m_legendChoices.resize(m_plots.size());
    const PlotItems& items = m_plots[i];
    LegendChoice& choice = m_legendChoices[i];
    choice = LegendChoice{};
    if (!items.legend)
        return;
    choice.valid = true;
    choice.below = items.legend->layout() == items.cell;
    choice.keep = keep;
    choice.entries = items.legend->itemCount();
    choice.wrap = items.legend->wrap();
    choice.fillOrder = int(items.legend->fillOrder());
    const QCPLayoutInset* inset = items.rect->insetLayout();
    for (int k = 0; k < inset->elementCount(); ++k)
        if (inset->elementAt(k) == items.legend)
            choice.alignment = inset->insetAlignment(k);
}

} // namespace evx
