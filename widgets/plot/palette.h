#pragma once
// The one colour scheme every plot in the application uses.
//
// Series colours are the Okabe & Ito (2008) "Color Universal Design" palette, chosen to stay
// distinguishable under the common colour-vision deficiencies and in greyscale print. Black is
// kept for markers and reference lines; yellow comes last because it is hard to see as a thin
// line on white. Heat maps use viridis (van der Walt & Smith, matplotlib), which is
// perceptually uniform and colour-blind safe; QCustomPlot 2.1 has no built-in viridis.

#include <QColor>

#include <vector>

class QCPColorGradient;

namespace evx {

class Palette {
public:
    // Series::colour / Band::colour index -> colour (wraps around):
    // 0 orange #E69F00, 1 sky blue #56B4E9, 2 bluish green #009E73, 3 blue #0072B2,
    // 4 vermillion #D55E00, 5 reddish purple #CC79A7, 6 yellow #F0E442.
    static int seriesColourCount();
    static QColor seriesColour(int index);

    // Black, for markers and reference lines.
    static QColor referenceColour();

    // The lowest index whose `used` flag is false, taking yellow only when nothing else is free;
    // when every colour is used it cycles by how many are in use.
    static int nextFreeColour(const std::vector<bool>& used);

    static QCPColorGradient viridis();
};

} // namespace evx
