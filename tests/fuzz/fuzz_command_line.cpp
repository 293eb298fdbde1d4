// The command-line parser on arbitrary arguments (one per line of the input). --export and
// --bench-sweep are dropped so that no scenario runs and no file is written: this target
// is about parsing --set, --point, --preset, --data, --size and their combinations.
#include "command_line.h"

#include <QStringList>

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    QStringList args;
    for (const QString& arg : text.split('\n')) {
        if (arg.startsWith("--export") || arg.startsWith("--bench-sweep"))
            continue;
        args << arg;
    }
    const auto result = evx::parseCommandLine(args);
    if (const auto* why = std::get_if<QString>(&result)) {
        if (why->isEmpty() || why->size() > 2000)
            std::abort(); // a refusal is one short line that says why
    }
    return 0;
}
