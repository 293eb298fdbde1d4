#pragma once
// A small markup for figure text (axis labels, titles, legend names), shown by the plot view
// with real subscripts and superscripts; JSON and CSV exports keep the string as written.
//
//   x_i, σ_obs, σ_ε        '_' then a word (ASCII letters, digits and Greek letters): a subscript
//   x_{i,j}                '_{…}': everything up to the next '}' is a subscript
//   x^2, e^{-x/2}          '^' then a word, or '^{…}': a superscript, likewise
//   ², ³, ¹, ⁰ … ⁹, ⁻      the superscript characters already in a string read as superscripts
//
// Everything else is literal: a '_' or '^' followed by neither a word nor a closed '{…}' (e.g.
// "a _ b", "x^"), and braces that follow no '_' or '^'. Scripts do not nest.

#include <string>
#include <vector>

namespace evx {

enum class Script { Normal, Sub, Super };

struct LabelRun {
    std::string text; // UTF-8, no markup left
    Script script = Script::Normal;
    bool operator==(const LabelRun&) const = default;
};

// The runs of `markup` in order; neighbouring runs of the same script are merged.
std::vector<LabelRun> parseRichLabel(const std::string& markup);

// True if some run is a sub- or superscript.
bool hasScripts(const std::vector<LabelRun>& runs);

} // namespace evx
