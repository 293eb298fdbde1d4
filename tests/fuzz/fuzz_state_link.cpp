// The link parser on arbitrary text: every input is either a state that passes the one
// validation path and whose own link reads back as the same state, or a one-line reason.
#include "core/input_limits.h"
#include "scenarios/registry.h"
#include "state_link.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    const auto result = evx::parseStateLink(text);
    if (const auto* session = std::get_if<evx::Session>(&result)) {
        const auto scenario = evx::ScenarioRegistry::instance().find(session->scenarioId.toStdString());
        if (!scenario)
            std::abort();
        evx::validateRunInput(*scenario, session->input);
        // Writing the state back as a link and reading it again changes nothing.
        const auto again =
            evx::parseStateLink(evx::stateLinkFor(session->scenarioId, scenario->schema(), session->input));
        const auto* same = std::get_if<evx::Session>(&again);
        if (!same || same->input.values != session->input.values ||
            same->input.points != session->input.points)
            std::abort();
    } else {
        const QString& why = std::get<QString>(result);
        if (why.isEmpty() || why.contains('\n'))
            std::abort(); // a refusal always says why, in one line
    }
    return 0;
}
