#pragma once
// The one validation path (DESIGN.md "Input limits and the one validation path"): the
// command line, the window and the session loader check a run's input here, against
// limits each scenario declares, before the scenario sees it; and every figure's summary
// is checked here before it leaves the engine.

#include "core/figure.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace evx {

class Scenario;
struct RunInput;

// User text as it may appear in a message: quoted, control characters escaped as \xHH,
// and cut after maxCharacters with the full length named, so a pasted 100 KB value or a
// terminal escape never reaches the user whole. Paths get kPathCharacters.
inline constexpr std::size_t kPathCharacters = 240;
std::string quoteForMessage(std::string_view text, std::size_t maxCharacters = 60);

// "x" or "x,y" as a point (y = 0 when omitted); throws InvalidParameter.
std::array<double, 2> parsePoint(const std::string& text);

// Throws InvalidParameter unless path names a regular file (not a FIFO, device or folder)
// of at most maxBytes that can be opened for reading; `what` names it in the message.
void checkDataFile(const std::string& path, std::uintmax_t maxBytes, const std::string& what = "data file");

// Throws InvalidParameter naming the first thing wrong with the input: a parameter unknown
// or out of its range, more points than the scenario takes, a point outside its box or not
// finite, a data file given to a scenario that takes none or failing checkDataFile, or work
// beyond one of the scenario's budgets.
void validateRunInput(const Scenario& scenario, const RunInput& input);

// Throws NumericalError naming every summary value that is not a finite number.
void checkSummaryFinite(const Figure& figure);

} // namespace evx
