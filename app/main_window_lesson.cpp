// The main window's lessons: the dock, Next / Back, a step's state and pins, and the links in
// captions and explanation pages.
#include "main_window.h"

#include "lesson_panel.h"
#include "params/parameter_panel.h"
#include "plot/plot_view.h"
#include "state_link.h"

#include <QAction>
#include <QDesktopServices>
#include <QDockWidget>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTextBrowser>
#include <QUrl>
#include <QtConcurrent>
#include <algorithm>

namespace evx {

void MainWindow::buildLessonDock()
{
    m_lessonPanel = new LessonPanel;
    m_lessonDock = new QDockWidget(tr("Lesson"), this);
    m_lessonDock->setObjectName("lesson");
    m_lessonDock->setWidget(m_lessonPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_lessonDock);
    m_lessonDock->hide();
    connect(m_lessonPanel, &LessonPanel::nextRequested, this, [this] { showLessonStep(m_lessonStep + 1); });
    connect(m_lessonPanel, &LessonPanel::backRequested, this, [this] { showLessonStep(m_lessonStep - 1); });
    connect(m_lessonPanel, &LessonPanel::closeRequested, this, &MainWindow::closeLesson);
    connect(m_lessonPanel, &LessonPanel::linkActivated, this, [this](const QUrl& url) { activateLink(url); });

    // Window-wide, so a presenter's clicker (Page Down / Page Up) steps whichever widget has focus.
    m_nextStepAction = new QAction(tr("&Next Step"), this);
    m_nextStepAction->setShortcut(QKeySequence(Qt::Key_PageDown));
    m_nextStepAction->setShortcutContext(Qt::ApplicationShortcut);
    connect(m_nextStepAction, &QAction::triggered, this, [this] { showLessonStep(m_lessonStep + 1); });
    m_previousStepAction = new QAction(tr("&Previous Step"), this);
    m_previousStepAction->setShortcut(QKeySequence(Qt::Key_PageUp));
    m_previousStepAction->setShortcutContext(Qt::ApplicationShortcut);
    connect(m_previousStepAction, &QAction::triggered, this, [this] { showLessonStep(m_lessonStep - 1); });
    m_nextStepAction->setEnabled(false);
    m_previousStepAction->setEnabled(false);
}

void MainWindow::onOpenLesson()
{
    QMenu chooser(this);
    for (const QString& id : shippedLessonIds()) {
        auto lesson = loadLesson(id);
        const QString title = std::holds_alternative<Lesson>(lesson) ? std::get<Lesson>(lesson).title : id;
        chooser.addAction(title, this, [this, id] {
            if (const QString why = openLessonFile(id); !why.isEmpty())
                QMessageBox::warning(this, tr("Cannot open lesson"), why);
        });
    }
    chooser.addSeparator();
    chooser.addAction(tr("From a File…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Lesson"), QString(),
                                                          tr("Evidence Explorer lessons (*.json)"));
        if (path.isEmpty())
            return;
        if (const QString why = openLessonFile(path); !why.isEmpty())
            QMessageBox::warning(this, tr("Cannot open lesson"), why);
    });
    chooser.exec(mapToGlobal(rect().center()));
}

QString MainWindow::openLessonFile(const QString& idOrPath, int step)
{
    auto lesson = loadLesson(idOrPath);
    if (const auto* why = std::get_if<QString>(&lesson))
        return *why;
    openLesson(std::get<Lesson>(lesson), step);
    return {};
}

void MainWindow::openLesson(const Lesson& lesson, int step)
{
    m_lesson = lesson;
    m_lessonStep = -1;
    if (m_lessonDock->isHidden()) {
        m_lessonDock->show();
        // A fifth of the window: the caption wraps well at that width, and the plot keeps the room
        // a figure of several plots needs (the dock can be dragged wider).
        resizeDocks({m_lessonDock}, {std::clamp(width() / 5, 220, 320)}, Qt::Horizontal);
    }
    m_nextStepAction->setEnabled(true);
    m_previousStepAction->setEnabled(true);
    showLessonStep(std::clamp(step, 0, int(m_lesson.steps.size()) - 1));
}

bool MainWindow::showLessonStep(int step)
{
    if (m_lessonStep < 0 && m_lesson.steps.empty())
        return false;
    if (step < 0 || step >= int(m_lesson.steps.size()))
        return false;
    m_lessonStep = step;
    const LessonStep& s = m_lesson.steps[std::size_t(step)];
    // The step's whole state, never the last step's with changes: Back shows what it showed.
    openScenario(s.scenarioId, s.input);
    m_lessonPanel->showStep(m_lesson.title, step, int(m_lesson.steps.size()), captionHtml(s.caption));
    computeLessonPins();
    return true;
}

// A step's pins are its values with a few changed; their figures are computed off the GUI
// thread (the window never computes) and shown when ready, unless the step has changed since.
void MainWindow::computeLessonPins()
{
    const quint64 request = ++m_lessonPinsRequest;
    const LessonStep& step = m_lesson.steps[std::size_t(m_lessonStep)];
    if (step.pins.empty())
        return;
    auto* watcher = new QFutureWatcher<std::vector<PinnedFigure>>(this);
    connect(watcher, &QFutureWatcher<std::vector<PinnedFigure>>::finished, this, [this, watcher, request] {
        watcher->deleteLater();
        if (request != m_lessonPinsRequest || m_lessonStep < 0)
            return;
        m_pins = watcher->result();
        showPins();
    });
    watcher->setFuture(QtConcurrent::run([scenario = m_scenario, step] {
        std::vector<PinnedFigure> pins;
        for (const ParameterValues& values : step.pins) {
            RunInput input = step.input;
            input.values = values;
            try {
                pins.push_back({values, scenario->runChecked(input, {})});
            } catch (const std::exception&) {
                // A pin that cannot be computed is left out; the step itself reports its errors.
            }
        }
        return pins;
    }));
}

void MainWindow::closeLesson()
{
    m_lessonStep = -1;
    ++m_lessonPinsRequest;
    m_lesson = {};
    m_lessonDock->hide();
    m_nextStepAction->setEnabled(false);
    m_previousStepAction->setEnabled(false);
}

QString MainWindow::activateLink(const QUrl& url)
{
    const QString text = url.toString(QUrl::FullyEncoded);
    QString why;
    if (text.startsWith("evx:set?", Qt::CaseInsensitive)) {
        try {
            if (!m_scenario)
                return tr("no scenario is open");
            ParameterValues values = m_panel->values();
            for (const auto& [name, value] : parseSetLink(text, m_scenario->schema()))
                values[name] = value;
            m_panel->setValues(values);
            return {};
        } catch (const std::exception& e) {
            why = QString::fromUtf8(e.what());
        }
    } else if (isStateLink(text)) {
        return openLink(text);
    } else if (url.scheme() == "http" || url.scheme() == "https") {
        QDesktopServices::openUrl(url);
        return {};
    } else {
        why = tr("the link %1 is neither evx:set?…, evx://… nor a web page").arg(text.left(120));
    }
    showError(tr("Cannot follow the link: %1").arg(why));
    return why;
}

} // namespace evx
