#pragma once
// A scenario run for --export, with progress on stderr: once the run has taken
// kProgressAfterSeconds, a line "ID: 35% (12.4 s)" at most every kProgressEverySeconds, from the
// fraction the scenario reports (RunContext::publish or reportFraction). A fast run prints nothing.

#include "core/scenario.h"

namespace evx {

inline constexpr double kProgressAfterSeconds = 2.0;
inline constexpr double kProgressEverySeconds = 1.0;

// As Scenario::runChecked, which it calls; throws what that throws.
Figure runWithProgressLines(const Scenario& scenario, const RunInput& input);

} // namespace evx
