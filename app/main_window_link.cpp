// The main window's links: Edit → Copy Link, and opening a link as a session would.
#include "main_window.h"

#include "core/errors.h"
#include "params/parameter_panel.h"
#include "plot/plot_view.h"
#include "state_link.h"

#include <QApplication>
#include <QClipboard>
#include <QStatusBar>

namespace evx {

QString MainWindow::currentLink(QString* why) const
{
    if (!m_scenario)
        return {};
    RunInput input = m_input;
    input.values = m_panel->values();
    try {
        return stateLinkFor(currentScenarioId(), m_scenario->schema(), input);
    } catch (const InvalidParameter& e) {
        if (why)
            *why = QString::fromUtf8(e.what());
        return {};
    }
}

void MainWindow::copyLink()
{
    QString why;
    const QString link = currentLink(&why);
    if (link.isEmpty()) {
        statusBar()->showMessage(tr("No link copied: %1").arg(why), 8000);
        return;
    }
    QApplication::clipboard()->setText(link);
    statusBar()->showMessage(tr("Link copied (%1 characters): %2").arg(link.size()).arg(link.left(120)),
                             8000);
}

QString MainWindow::openLink(const QString& link)
{
    auto parsed = parseStateLink(link);
    if (const auto* why = std::get_if<QString>(&parsed)) {
        showError(tr("Cannot open the link: %1").arg(*why));
        return *why;
    }
    const Session& session = std::get<Session>(parsed);
    openScenario(session.scenarioId, session.input);
    return {};
}

} // namespace evx
