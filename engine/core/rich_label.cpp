#include "core/rich_label.h"

#include <cctype>
#include <map>

namespace evx {
namespace {

// Unicode's superscript characters that the markup reads back as superscripted digits.
const std::map<std::string, char> kSuperscriptDigits = {{"⁰", '0'}, {"¹", '1'}, {"²", '2'}, {"³", '3'},
                                                        {"⁴", '4'}, {"⁵", '5'}, {"⁶", '6'}, {"⁷", '7'},
                                                        {"⁸", '8'}, {"⁹", '9'}, {"⁻", '-'}};

// Bytes of the word character starting at s[i], or 0: an ASCII letter or digit, or a Greek
// letter (U+0391–U+03C9, two UTF-8 bytes), since the papers' subscripts are often Greek (σ_ε,
// NCAI_λ). Other characters end a word, so a superscript digit after it (σ_ε²) stays one.
std::size_t wordCharLength(const std::string& s, std::size_t i)
{
    const auto c = static_cast<unsigned char>(s[i]);
    if (std::isalnum(c))
        return 1;
    if (i + 1 >= s.size())
        return 0;
    const unsigned code = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
    const bool twoBytes = (c >> 5) == 0x6 && (static_cast<unsigned char>(s[i + 1]) >> 6) == 0x2;
    return twoBytes && code >= 0x391 && code <= 0x3C9 && code != 0x3A2 ? 2 : 0;
}

// Length of the UTF-8 sequence starting at s[i] (1 for a stray continuation byte).
std::size_t charLength(const std::string& s, std::size_t i)
{
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    return i + n <= s.size() ? n : 1;
}

void append(std::vector<LabelRun>& runs, const std::string& text, Script script)
{
    if (text.empty())
        return;
    if (!runs.empty() && runs.back().script == script)
        runs.back().text += text;
    else
        runs.push_back({text, script});
}

} // namespace

std::vector<LabelRun> parseRichLabel(const std::string& markup)
{
    std::vector<LabelRun> runs;
    std::size_t i = 0;
    while (i < markup.size()) {
        const char c = markup[i];
        if (c == '_' || c == '^') {
            const Script script = c == '_' ? Script::Sub : Script::Super;
            if (i + 1 < markup.size() && markup[i + 1] == '{') {
                const auto close = markup.find('}', i + 2);
                if (close != std::string::npos && close > i + 2) {
                    append(runs, markup.substr(i + 2, close - i - 2), script);
                    i = close + 1;
                    continue;
                }
            } else {
                std::size_t end = i + 1;
                while (end < markup.size()) {
                    const std::size_t n = wordCharLength(markup, end);
                    if (n == 0)
                        break;
                    end += n;
                }
                if (end > i + 1) {
                    append(runs, markup.substr(i + 1, end - i - 1), script);
                    i = end;
                    continue;
                }
            }
        }
        const std::size_t n = charLength(markup, i);
        const std::string ch = markup.substr(i, n);
        if (const auto it = kSuperscriptDigits.find(ch); it != kSuperscriptDigits.end())
            append(runs, std::string(1, it->second), Script::Super);
        else
            append(runs, ch, Script::Normal);
        i += n;
    }
    return runs;
}

bool hasScripts(const std::vector<LabelRun>& runs)
{
    for (const LabelRun& run : runs)
        if (run.script != Script::Normal)
            return true;
    return false;
}

} // namespace evx
