#pragma once
// The legend labels of pinned figures: the parameter values that differ from the current
// ones ("pinned: σ_obs = 0.025 s"), shared by the window and the command line's exports of
// a session, so that both draw a session's pins alike.

#include "core/parameters.h"
#include "session.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace evx {

// "pinned" when nothing differs; at most three values, then "…".
QString pinLabel(const ParameterSchema& schema, const ParameterValues& pinned,
                 const ParameterValues& current);

// One label per pin, oldest first; equal labels numbered " (1)", " (2)", … so that two pins
// never share a legend entry.
QStringList pinLabels(const ParameterSchema& schema, const std::vector<PinnedFigure>& pins,
                      const ParameterValues& current);

} // namespace evx
