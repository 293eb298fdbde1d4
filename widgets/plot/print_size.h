#pragma once
// PrintSize: the physical size of an exported figure and the size of its text, from which
// every other length in the figure follows (PlotView scales tick lengths, line widths,
// markers, legend and margins with the font).
//
// A PDF or SVG page is widthMm x heightMm exactly (1 pt = 25.4/72 mm); a PNG has
// round(mm / 25.4 * dpi) pixels on each side and carries dpi in its metadata. An export
// sized in pixels (--size, the window) is a print size at 96 pixels per inch, the CSS pixel.

#include <QSize>

#include <cmath>

namespace evx {

struct PrintSize {
    static constexpr double kMmPerInch = 25.4;
    static constexpr double kPointsPerInch = 72.0;
    static constexpr double kScreenDpi = 96.0; // CSS pixels

    double widthMm = 0;
    double heightMm = 0;
    double fontPt = 9;       // tick labels and legend; axis labels are 1.1x, titles 1.2x
    double dpi = kScreenDpi; // PNG only: PDF and SVG are vector

    double widthPt() const { return widthMm / kMmPerInch * kPointsPerInch; }
    double heightPt() const { return heightMm / kMmPerInch * kPointsPerInch; }
    // The pixels of a PNG at dpi.
    QSize pixels() const
    {
        return {int(std::lround(widthMm / kMmPerInch * dpi)), int(std::lround(heightMm / kMmPerInch * dpi))};
    }

    static PrintSize fromPixels(QSize pixels, double fontPt)
    {
        return {pixels.width() * kMmPerInch / kScreenDpi, pixels.height() * kMmPerInch / kScreenDpi, fontPt,
                kScreenDpi};
    }
};

} // namespace evx
