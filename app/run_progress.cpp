#include "run_progress.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace evx {

Figure runWithProgressLines(const Scenario& scenario, const RunInput& input)
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    PublishPace pace(kProgressEverySeconds); // the first line is due at once
    const std::string id = scenario.info().id;
    // Only the fraction: no partial figure is built for a line of text.
    RunContext context;
    context.followFraction([&](double fraction) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (elapsed < kProgressAfterSeconds || !pace.due())
            return;
        pace.begin();
        std::fprintf(stderr, "%s: %.0f%% (%.1f s)\n", id.c_str(), 100 * std::clamp(fraction, 0.0, 1.0),
                     elapsed);
        std::fflush(stderr);
    });
    return scenario.runChecked(input, context);
}

} // namespace evx
