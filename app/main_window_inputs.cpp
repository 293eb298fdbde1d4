// The main window's inputs beyond the parameter panel: points added by clicking a plot,
// data sets opened from files, Play for an animatable parameter, and the reading guide's
// emphasis. Each is offered only to scenarios that declare it (ScenarioInputs).
#include "main_window.h"

#include "core/errors.h"
#include "core/input_limits.h"
#include "params/parameter_panel.h"
#include "plot/plot_view.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>

namespace evx {

void MainWindow::updateInputActions()
{
    const ScenarioInputs accepts = m_scenario->inputs();
    m_clearPointsAction->setEnabled(accepts.userPoints);
    m_openDataAction->setEnabled(accepts.dataFile);
    const auto& specs = m_scenario->schema().specs();
    m_playAction->setEnabled(
        std::any_of(specs.begin(), specs.end(), [](const ParameterSpec& p) { return p.animatable; }));
    if (accepts.userPoints && !accepts.pointsHelp.empty())
        statusBar()->showMessage(QString::fromStdString(accepts.pointsHelp), 10000);
}

void MainWindow::onPointClicked(int plotIndex, double x, double y)
{
    if (!m_scenario || !m_scenario->inputs().userPoints || plotIndex != m_scenario->inputs().pointPlot)
        return;
    // The first click of a double-click (which resets the zoom) must not add a point.
    if (m_clickTimer->isActive()) {
        m_clickTimer->stop();
        return;
    }
    m_pendingClick = {double(plotIndex), x, y};
    m_clickTimer->start();
}

void MainWindow::addPoint(double x, double y)
{
    RunInput candidate = m_input;
    candidate.values = m_panel->values();
    candidate.points.push_back({x, y});
    try {
        validateRunInput(*m_scenario, candidate);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("No point added: %1").arg(QString::fromUtf8(e.what())), 5000);
        return;
    }
    m_input.points.push_back({x, y});
    setWindowModified(true);
    statusBar()->showMessage(
        tr("Added a point at x = %1 (%2 in all)").arg(x, 0, 'g', 4).arg(m_input.points.size()), 3000);
    requestRun();
}

void MainWindow::clearPoints()
{
    if (m_input.points.empty())
        return;
    m_input.points.clear();
    setWindowModified(true);
    requestRun();
}

void MainWindow::setPlaying(bool playing)
{
    if (playing && !m_playAction->isEnabled())
        playing = false;
    m_playAction->setChecked(playing);
    if (playing)
        m_playTimer->start();
    else
        m_playTimer->stop();
    updateHold();
}

void MainWindow::updateHold()
{
    m_plotView->setHoldRanges(m_panel->isDragging() || isPlaying());
}

bool MainWindow::isPlaying() const
{
    return m_playTimer->isActive();
}

void MainWindow::playStep()
{
    const auto& specs = m_scenario->schema().specs();
    const auto it =
        std::find_if(specs.begin(), specs.end(), [](const ParameterSpec& p) { return p.animatable; });
    if (it == specs.end())
        return setPlaying(false);
    const double next = m_panel->values().at(it->name) + it->step;
    if (next > it->maximum + 1e-12 || !m_panel->setValue(QString::fromStdString(it->name), next))
        setPlaying(false);
}

bool MainWindow::emphasiseReading(const QString& reading)
{
    const ParameterSpec* spec = m_scenario ? m_scenario->schema().find("emphasis") : nullptr;
    if (!spec)
        return false;
    const auto it = std::find(spec->choices.begin(), spec->choices.end(), reading.toStdString());
    return it != spec->choices.end() && m_panel->setValue("emphasis", double(it - spec->choices.begin()));
}

QString MainWindow::openDataSetFile(const QString& path)
{
    if (!m_scenario || !m_scenario->inputs().dataFile)
        return tr("this scenario opens no data set");
    const std::string absolute = QFileInfo(path).absoluteFilePath().toStdString();
    try {
        checkDataFile(absolute, m_scenario->inputs().maxDataBytes);
    } catch (const InvalidParameter& e) {
        return QString::fromUtf8(e.what());
    }
    m_input.dataPath = absolute;
    setWindowModified(true);
    requestRun();
    return {};
}

void MainWindow::onOpenDataSet()
{
    const QString filter = QString::fromStdString(m_scenario->inputs().dataFileFilter);
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Data Set"), QString(),
                                                      filter.isEmpty() ? tr("CSV files (*.csv)") : filter);
    if (path.isEmpty())
        return;
    const QString error = openDataSetFile(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot open data set"), error);
}

} // namespace evx
