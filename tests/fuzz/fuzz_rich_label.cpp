// The label markup parser (core/rich_label.h) on arbitrary bytes: labels come from scenarios,
// but the parser walks UTF-8 by hand (multi-byte word characters, superscript digits), so a
// truncated or stray sequence must not read past the end. Its runs are never empty, a script
// never follows the same script, and they hold no more bytes than the input (markup and
// superscript digits only shrink).
#include "core/rich_label.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string markup(reinterpret_cast<const char*>(data), size);
    const std::vector<evx::LabelRun> runs = evx::parseRichLabel(markup);
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].text.empty())
            std::abort(); // empty runs are never appended
        if (i > 0 && runs[i].script == runs[i - 1].script)
            std::abort(); // neighbouring runs of one script are merged
        bytes += runs[i].text.size();
    }
    if (bytes > markup.size())
        std::abort();
    return 0;
}
