#pragma once
// The look of each series and band of a plot: colour, dash and marker, decided in one place so
// that the screen, the image exports and the JSON export agree.
//
// Colour alone never tells two readings apart: a reader with a colour-vision deficiency, a
// greyscale print or a washed-out projector may lose it. Each palette index therefore also
// carries a marker shape (drawn sparsely along lines, and as the points of a scatter), and the
// engine's `dashed` hint stays a dash pattern, so two series of different colours always differ
// in marker or dash as well. A plot whose lines all share one colour draws them without markers. Readings
// keep their palette index across plots (figure.h), so a reading keeps its marker too.

#include "core/figure.h"

#include <QColor>
#include <QString>

#include <vector>

namespace evx {

enum class DashStyle { Solid, Dash };
enum class MarkerShape { None, Circle, Square, Triangle, Diamond, Cross, TriangleDown, Plus };

struct SeriesLook {
    QColor colour;
    int colourIndex = 0; // into the palette; kReferenceColour for black
    DashStyle dash = DashStyle::Solid;
    MarkerShape marker = MarkerShape::None;
};

struct PlotLook {
    std::vector<SeriesLook> series; // by Plot::series index
    std::vector<QColor> bands;      // by Plot::bands index
};

// Explicit colour indices first, then kAutoColour takes the next free one (series before
// bands). Series flagged in `keepOwnColour` (a pin's ghosts) do not claim their colour, so the
// current figure's automatic colours do not move when a pin is added.
PlotLook plotLook(const Plot& plot, const std::vector<bool>& keepOwnColour = {});

// The marker of a palette index (wraps like the palette); None for the reference colour.
MarkerShape markerForColour(int colourIndex);

// The names the JSON export writes: "solid", "dash"; "none", "circle", "square", "triangle",
// "diamond", "cross", "triangle-down", "plus".
QString dashName(DashStyle dash);
QString markerName(MarkerShape marker);

} // namespace evx
