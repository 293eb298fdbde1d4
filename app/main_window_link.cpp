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
    // Within a shipped lesson the link says where: opening it shows the step's caption and pins.
    LessonPosition lesson;
    if (hasLesson() && shippedLessonIds().contains(m_lesson.id) &&
        m_lesson.steps[std::size_t(m_lessonStep)].scenarioId == currentScenarioId())
        lesson = {m_lesson.id, m_lessonStep};
    try {
        return stateLinkFor(currentScenarioId(), m_scenario->schema(), input, lesson);
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
    LessonPosition lesson;
    auto parsed = parseStateLink(link, &lesson);
    if (const auto* why = std::get_if<QString>(&parsed)) {
        showError(tr("Cannot open the link: %1").arg(*why));
        return *why;
    }
    const Session& session = std::get<Session>(parsed);
    if (lesson.lesson.isEmpty()) {
        openScenario(session.scenarioId, session.input);
        return {};
    }
    // The step as the lesson has it (caption, pins), then the link's values and points over it.
    const QString why = openLessonFile(lesson.lesson, lesson.step);
    if (!why.isEmpty())
        return why;
    m_input.points = session.input.points;
    m_panel->setValues(session.input.values);
    requestRun();
    return {};
}

} // namespace evx
