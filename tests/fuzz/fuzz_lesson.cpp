// The lesson parser and the evx:set links of captions on arbitrary bytes: every input is
// either a lesson whose every step passes the one validation path, or a one-line reason.
#include "core/errors.h"
#include "core/input_limits.h"
#include "lesson.h"
#include "scenarios/registry.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    const auto result = evx::parseLesson(bytes, "fuzz");
    if (const auto* lesson = std::get_if<evx::Lesson>(&result)) {
        if (lesson->steps.empty() || lesson->steps.size() > std::size_t(evx::kMaxLessonSteps))
            std::abort();
        for (const evx::LessonStep& step : lesson->steps) {
            const auto scenario = evx::ScenarioRegistry::instance().find(step.scenarioId.toStdString());
            if (!scenario)
                std::abort();
            evx::validateRunInput(*scenario, step.input);
            (void)evx::captionHtml(step.caption);
        }
    } else {
        const QString& why = std::get<QString>(result);
        if (why.isEmpty() || why.contains('\n'))
            std::abort();
    }
    // The same bytes as a caption link of ue-gaussian: parsed values pass the schema's checks.
    const auto gaussian = evx::ScenarioRegistry::instance().find("ue-gaussian");
    try {
        for (const auto& [name, value] : evx::parseSetLink(QString::fromUtf8(bytes), gaussian->schema()))
            if (gaussian->schema().check(name, value))
                std::abort();
    } catch (const evx::InvalidParameter&) {
    }
    return 0;
}
