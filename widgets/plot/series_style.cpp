#include "plot/series_style.h"

#include "plot/palette.h"

#include <algorithm>
#include <array>

namespace evx {

namespace {

// One shape per Okabe–Ito index, in the palette's order. Filled and outlined shapes alternate
// and the two triangles point opposite ways, so neighbours in the palette differ most.
constexpr std::array<MarkerShape, 7> kMarkers = {
    MarkerShape::Circle, MarkerShape::Square,       MarkerShape::Triangle, MarkerShape::Diamond,
    MarkerShape::Cross,  MarkerShape::TriangleDown, MarkerShape::Plus,
};

} // namespace

MarkerShape markerForColour(int colourIndex)
{
    if (colourIndex < 0)
        return MarkerShape::None;
    return kMarkers[static_cast<std::size_t>(colourIndex % static_cast<int>(kMarkers.size()))];
}

PlotLook plotLook(const Plot& plot, const std::vector<bool>& keepOwnColour)
{
    const int n = Palette::seriesColourCount();
    std::vector<bool> used(static_cast<std::size_t>(n), false);
    auto mark = [&](int c) {
        if (c >= 0)
            used[static_cast<std::size_t>(c % n)] = true;
    };
    auto keepsOwn = [&](std::size_t j) { return j < keepOwnColour.size() && keepOwnColour[j]; };
    for (std::size_t j = 0; j < plot.series.size(); ++j)
        if (!keepsOwn(j))
            mark(plot.series[j].colour);
    for (const Band& b : plot.bands)
        mark(b.colour);
    auto resolve = [&](int c) {
        if (c == kReferenceColour || c >= 0)
            return c;
        c = Palette::nextFreeColour(used);
        mark(c);
        return c;
    };
    auto colourOf = [](int c) {
        return c == kReferenceColour ? Palette::referenceColour() : Palette::seriesColour(c);
    };

    PlotLook look;
    std::vector<int> lineColours; // of lines and steps, distinct
    for (const Series& s : plot.series) {
        SeriesLook l;
        l.colourIndex = resolve(s.colour);
        l.colour = colourOf(l.colourIndex);
        l.dash = s.dashed ? DashStyle::Dash : DashStyle::Solid;
        // Bars are told apart by their place in a group; black points (data) are circles.
        if (s.kind == SeriesKind::Bar)
            l.marker = MarkerShape::None;
        else if (s.kind == SeriesKind::Scatter && l.colourIndex < 0)
            l.marker = MarkerShape::Circle;
        else
            l.marker = markerForColour(l.colourIndex);
        look.series.push_back(l);
        if (s.kind != SeriesKind::Bar && s.kind != SeriesKind::Scatter &&
            std::find(lineColours.begin(), lineColours.end(), l.colourIndex) == lineColours.end())
            lineColours.push_back(l.colourIndex);
    }
    // A plot of one colour of line has nothing to tell apart: its lines stay plain.
    if (lineColours.size() < 2)
        for (std::size_t j = 0; j < plot.series.size(); ++j)
            if (plot.series[j].kind != SeriesKind::Scatter)
                look.series[j].marker = MarkerShape::None;
    for (const Band& b : plot.bands)
        look.bands.push_back(colourOf(resolve(b.colour)));
    return look;
}

QString dashName(DashStyle dash)
{
    return dash == DashStyle::Dash ? QStringLiteral("dash") : QStringLiteral("solid");
}

QString markerName(MarkerShape marker)
{
    switch (marker) {
    case MarkerShape::None:
        return QStringLiteral("none");
    case MarkerShape::Circle:
        return QStringLiteral("circle");
    case MarkerShape::Square:
        return QStringLiteral("square");
    case MarkerShape::Triangle:
        return QStringLiteral("triangle");
    case MarkerShape::Diamond:
        return QStringLiteral("diamond");
    case MarkerShape::Cross:
        return QStringLiteral("cross");
    case MarkerShape::TriangleDown:
        return QStringLiteral("triangle-down");
    case MarkerShape::Plus:
        return QStringLiteral("plus");
    }
    return QStringLiteral("none");
}

} // namespace evx
