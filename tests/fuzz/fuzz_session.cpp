// The session loader on arbitrary bytes: every input is either a session that passes the
// one validation path or a one-line reason; a crash or a sanitizer report is a bug.
#include "core/input_limits.h"
#include "scenarios/registry.h"
#include "session.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto result = evx::parseSession(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)));
    if (const auto* session = std::get_if<evx::Session>(&result)) {
        // What the loader accepted must pass the checks a run makes.
        const auto scenario = evx::ScenarioRegistry::instance().find(session->scenarioId.toStdString());
        if (!scenario)
            std::abort();
        evx::validateRunInput(*scenario, session->input);
    } else if (std::get<QString>(result).isEmpty()) {
        std::abort(); // a refusal always says why
    }
    return 0;
}
