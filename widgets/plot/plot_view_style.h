#pragma once
// Small helpers shared by the PlotView source files; not part of the widget's interface.

#include "core/figure.h"

#include <algorithm>
#include <cmath>

namespace evx {

// Bars at integer x are categories or counts: the x axis then ticks at integers only.
inline bool hasIntegerBars(const Plot& plot)
{
    return std::any_of(plot.series.begin(), plot.series.end(), [](const Series& s) {
        return s.kind == SeriesKind::Bar &&
               std::all_of(s.x.begin(), s.x.end(), [](double v) { return v == std::round(v); });
    });
}

} // namespace evx
