// The main window's pins: the current figure's curves kept as faint ghosts ("before and
// after"), labelled with the parameters that differ from the current ones.
#include "main_window.h"

#include "pin_labels.h"
#include "plot/plot_view.h"

#include <QStatusBar>

namespace evx {

QString MainWindow::pinLabel(const ParameterValues& pinned) const
{
    return m_scenario ? evx::pinLabel(m_scenario->schema(), pinned, m_figureValues) : tr("pinned");
}

QStringList MainWindow::pinLabels() const
{
    if (!m_scenario)
        return QStringList(qsizetype(m_pins.size()), tr("pinned"));
    return evx::pinLabels(m_scenario->schema(), m_pins, m_figureValues);
}

void MainWindow::showPins()
{
    const QStringList labels = pinLabels();
    std::vector<PlotView::Pin> pins;
    for (std::size_t i = 0; i < m_pins.size(); ++i)
        pins.push_back({labels[qsizetype(i)], m_pins[i].figure});
    m_plotView->setPins(std::move(pins));
}

void MainWindow::pinFigure()
{
    if (m_figure.plots.empty()) {
        statusBar()->showMessage(tr("There is no figure to pin yet"), 3000);
        return;
    }
    m_pins.push_back({m_figureValues, PlotView::pinnedCurves(m_figure)});
    if (m_pins.size() > std::size_t(Session::kMaxPins))
        m_pins.erase(m_pins.begin());
    setWindowModified(true);
    showPins();
    statusBar()->showMessage(tr("Pinned: move a parameter to compare; Ctrl+Shift+P unpins"), 4000);
}

void MainWindow::unpinAll()
{
    if (m_pins.empty())
        return;
    m_pins.clear();
    setWindowModified(true);
    showPins();
}

} // namespace evx
