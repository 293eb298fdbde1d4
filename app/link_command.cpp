#include "link_command.h"

#include "core/errors.h"
#include "lesson.h"
#include "state_link.h"

#include <QUrl>
#include <cstdio>

namespace evx {

std::variant<Session, QString> openSessionOrLink(const QString& argument, CommandLine& cl)
{
    if (isStateLink(argument)) {
        LessonPosition position;
        auto session = parseStateLink(argument, &position);
        if (!position.lesson.isEmpty()) {
            // parseStateLink has loaded this shipped lesson and checked the step.
            const Lesson lesson = std::get<Lesson>(loadLesson(position.lesson));
            cl.lesson = position.lesson;
            cl.lessonStep = position.step;
            cl.lessonCaption = lesson.steps[std::size_t(position.step)].caption;
        }
        return session;
    }
    if (argument.startsWith("file:", Qt::CaseInsensitive)) {
        const QUrl url(argument, QUrl::StrictMode);
        if (!url.isValid() || !url.isLocalFile())
            return QString("%1 is not a local file URL").arg(argument.left(240));
        return loadSession(url.toLocalFile());
    }
    return loadSession(argument);
}

void checkPrintLink(CommandLine& cl, const QString& sweepSpec, bool sizeOptions)
{
    if (!cl.scenario)
        throw InvalidParameter("--print-link needs --scenario ID, a session file or a link");
    if (!cl.exports.isEmpty() || !sweepSpec.isEmpty() || sizeOptions)
        throw InvalidParameter("--print-link prints a link only; --export, --bench-sweep and sizes "
                               "cannot be added to it");
    // Refuses a data file here, so the message comes before anything is printed.
    stateLinkFor(QString::fromStdString(cl.scenario->info().id), cl.scenario->schema(), cl.input);
    cl.mode = CommandLine::Mode::PrintLink;
}

int printStateLink(const CommandLine& cl)
{
    // A lesson file's path is not put in a link (state_link.h): only a shipped lesson's id.
    const LessonPosition lesson{shippedLessonIds().contains(cl.lesson) ? cl.lesson : QString(),
                                cl.lessonStep};
    const QString link =
        stateLinkFor(QString::fromStdString(cl.scenario->info().id), cl.scenario->schema(), cl.input, lesson);
    std::fputs((link + "\n").toUtf8().constData(), stdout);
    return 0;
}

} // namespace evx
