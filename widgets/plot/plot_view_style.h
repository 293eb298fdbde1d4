#pragma once
// Small helpers shared by the PlotView source files; not part of the widget's interface.

#include "core/figure.h"

#include <QFont>

#include <algorithm>
#include <cmath>

namespace evx {

inline QFont sizedFont(const QFont& base, double pointSize, bool bold = false)
{
    QFont font(base);
    font.setPointSizeF(pointSize);
    font.setBold(bold);
    return font;
}

// Bars at integer x are categories or counts: the x axis then ticks at integers only.
inline bool hasIntegerBars(const Plot& plot)
{
    return std::any_of(plot.series.begin(), plot.series.end(), [](const Series& s) {
        return s.kind == SeriesKind::Bar &&
               std::all_of(s.x.begin(), s.x.end(), [](double v) { return v == std::round(v); });
    });
}

}  // namespace evx
