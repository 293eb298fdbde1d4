// The main window's session files: open, save, save as, and the question before unsaved
// changes are dropped.
#include "main_window.h"

#include "params/parameter_panel.h"
#include "plot/plot_view.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace evx {

QString MainWindow::openSessionFile(const QString& path)
{
    auto result = loadSession(path);
    if (auto* why = std::get_if<QString>(&result)) {
        // Nothing of the session is applied, but the figure must not pass for its result.
        clearFigure();
        showError(tr("Cannot open session %1: %2. The previous settings are kept; change any to redraw.")
                      .arg(QFileInfo(path).fileName(), *why));
        return *why;
    }
    const Session& session = std::get<Session>(result);
    openScenario(session.scenarioId, session.input);
    m_pins = session.pins;
    showPins();
    m_plotView->setHiddenSeries(session.hiddenSeries);
    m_sessionPath = path;
    setWindowModified(false);
    updateTitle();
    return {};
}

QString MainWindow::saveSessionFile(const QString& path)
{
    if (!m_scenario)
        return tr("no scenario is open");
    RunInput input = m_input;
    input.values = m_panel->values();
    const Session session{currentScenarioId(), input, m_plotView->hiddenSeries(), m_pins};
    const QString error = saveSession(path, session, m_scenario->schema());
    if (!error.isEmpty())
        return error;
    m_sessionPath = path;
    setWindowModified(false);
    updateTitle();
    return {};
}

void MainWindow::onOpenSession()
{
    if (!confirmDiscard())
        return;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Session"), QString(), tr("Evidence Explorer sessions (*.evx.json);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    const QString error = openSessionFile(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot open session"), error);
}

void MainWindow::onSaveSession()
{
    if (m_sessionPath.isEmpty())
        return onSaveSessionAs();
    const QString error = saveSessionFile(m_sessionPath);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot save session"), error);
}

void MainWindow::onSaveSessionAs()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save Session"), currentScenarioId() + ".evx.json",
                                                tr("Evidence Explorer sessions (*.evx.json)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(".evx.json"))
        path += ".evx.json";
    const QString error = saveSessionFile(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot save session"), error);
}

bool MainWindow::confirmDiscard()
{
    if (!isWindowModified() || m_sessionPath.isEmpty())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"),
        tr("Save the changes to %1 first?").arg(QFileInfo(m_sessionPath).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return saveSessionFile(m_sessionPath).isEmpty();
    return true;
}

} // namespace evx
