#include "plot/palette.h"

#include <qcustomplot.h>

#include <array>

namespace evx {

namespace {

constexpr std::array<QRgb, 7> kSeries = {
    0xE69F00, // orange
    0x56B4E9, // sky blue
    0x009E73, // bluish green
    0x0072B2, // blue
    0xD55E00, // vermillion
    0xCC79A7, // reddish purple
    0xF0E442, // yellow: last, poor contrast as a thin line on white
};
constexpr int kYellow = 6;

} // namespace

int Palette::seriesColourCount()
{
    return static_cast<int>(kSeries.size());
}

QColor Palette::seriesColour(int index)
{
    const int n = seriesColourCount();
    const int i = ((index % n) + n) % n;
    return QColor(kSeries[static_cast<std::size_t>(i)]);
}

QColor Palette::referenceColour()
{
    return QColor(Qt::black);
}

int Palette::nextFreeColour(const std::vector<bool>& used)
{
    const int n = seriesColourCount();
    auto isUsed = [&](int i) {
        return i < static_cast<int>(used.size()) && used[static_cast<std::size_t>(i)];
    };
    for (int i = 0; i < n; ++i) {
        if (i != kYellow && !isUsed(i))
            return i;
    }
    if (!isUsed(kYellow))
        return kYellow;
    int count = 0;
    for (int i = 0; i < n; ++i)
        count += isUsed(i) ? 1 : 0;
    return count % n;
}

QCPColorGradient Palette::viridis()
{
    // viridis at nine equally spaced points (matplotlib / R viridisLite, viridis(9)).
    static constexpr std::array<QRgb, 9> stops = {0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21908C,
                                                  0x27AD81, 0x5DC863, 0xAADC32, 0xFDE725};
    QCPColorGradient gradient;
    gradient.clearColorStops();
    for (std::size_t i = 0; i < stops.size(); ++i)
        gradient.setColorStopAt(static_cast<double>(i) / (stops.size() - 1), QColor(stops[i]));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return gradient;
}

} // namespace evx
