#include "lesson_command.h"

#include "core/errors.h"
#include "core/input_limits.h"
#include "lesson.h"
#include "scenarios/registry.h"

#include <cstdio>

namespace evx {

QString applyLessonStep(CommandLine& cl, const QString& lessonArgument, const QString& stepText)
{
    auto loaded = loadLesson(lessonArgument);
    if (const auto* why = std::get_if<QString>(&loaded))
        throw InvalidParameter(why->toStdString());
    const Lesson& lesson = std::get<Lesson>(loaded);
    int step = 1;
    if (!stepText.isEmpty()) {
        bool ok = false;
        step = stepText.toInt(&ok);
        if (!ok || step < 1 || step > int(lesson.steps.size()))
            throw InvalidParameter(QString("--step %1: the lesson '%2' has steps 1 to %3")
                                       .arg(QString::fromStdString(quoteForMessage(stepText.toStdString())))
                                       .arg(lesson.title)
                                       .arg(lesson.steps.size())
                                       .toStdString());
    }
    const LessonStep& s = lesson.steps[std::size_t(step - 1)];
    cl.lesson = lesson.id;
    cl.lessonStep = step - 1;
    cl.lessonCaption = s.caption;
    cl.input = s.input;
    cl.pins.clear();
    for (const ParameterValues& values : s.pins)
        cl.pins.push_back({values, {}});
    return s.scenarioId;
}

void computeLessonPins(CommandLine& cl)
{
    for (PinnedFigure& pin : cl.pins) {
        if (!pin.figure.plots.empty())
            continue;
        RunInput input = cl.input;
        input.values = pin.values;
        pin.figure = cl.scenario->runChecked(input, {});
    }
}

int printLessonList()
{
    for (const QString& id : shippedLessonIds()) {
        auto lesson = loadLesson(id);
        if (const auto* why = std::get_if<QString>(&lesson)) {
            std::fprintf(stderr, "evidence-explorer: error: %s\n", why->toUtf8().constData());
            return 1;
        }
        const Lesson& l = std::get<Lesson>(lesson);
        std::printf("%-22s  %s  (%zu steps)\n", id.toUtf8().constData(), l.title.toUtf8().constData(),
                    l.steps.size());
    }
    return 0;
}

} // namespace evx
