#include "run_progress.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace evx {

Figure runWithProgressLines(const Scenario& scenario, const RunInput& input)
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    Clock::time_point last = start;
    bool printed = false;
    const std::string id = scenario.info().id;
    // Only the fraction: no partial figure is built for a line of text.
    RunContext context;
    context.followFraction([&](double fraction) {
        const Clock::time_point now = Clock::now();
        const double elapsed = std::chrono::duration<double>(now - start).count();
        if (elapsed < kProgressAfterSeconds ||
            (printed && std::chrono::duration<double>(now - last).count() < kProgressEverySeconds))
            return;
        last = now;
        printed = true;
        std::fprintf(stderr, "%s: %.0f%% (%.1f s)\n", id.c_str(), 100 * std::clamp(fraction, 0.0, 1.0),
                     elapsed);
        std::fflush(stderr);
    });
    return scenario.runChecked(input, context);
}

} // namespace evx
