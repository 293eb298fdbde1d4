#pragma once
// Colour-vision deficiency simulation and colour difference, for the palette checks.
//
// Simulation: Machado, Oliveira & Fernandes (2009), "A physiologically-based model for
// simulation of color vision deficiency", IEEE TVCG 15(6), the matrices for severity 1.0
// (protanopia, deuteranopia, tritanopia), applied to linear RGB: sRGB decoded (IEC 61966-2-1),
// multiplied, clamped to [0, 1], encoded again.
//
// Difference: CIEDE2000 (Sharma, Wu & Dalal 2005) on CIELAB under D65. CIEDE2000 rather than
// the Euclidean ΔE*ab of 1976 because the simulated colours of a dichromat crowd into a plane
// where ΔE*ab is least uniform: it overstates differences among saturated blues and yellows
// (the two hues a protan or deutan keeps) and understates them near grey.

#include <QColor>
#include <QHash>
#include <QImage>
#include <QString>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace evx::testing {

enum class Vision { Normal, Protanopia, Deuteranopia, Tritanopia };

inline QString visionName(Vision v)
{
    switch (v) {
    case Vision::Normal:
        return QStringLiteral("normal");
    case Vision::Protanopia:
        return QStringLiteral("protanopia");
    case Vision::Deuteranopia:
        return QStringLiteral("deuteranopia");
    case Vision::Tritanopia:
        return QStringLiteral("tritanopia");
    }
    return {};
}

using Rgb = std::array<double, 3>; // linear, in [0, 1]

inline double decodeSrgb(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

inline double encodeSrgb(double c)
{
    return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
}

inline Rgb linearRgb(const QColor& c)
{
    return {decodeSrgb(c.redF()), decodeSrgb(c.greenF()), decodeSrgb(c.blueF())};
}

// Machado et al. (2009), Table of severity 1.0; rows give the simulated R, G, B.
inline Rgb simulateLinear(const Rgb& rgb, Vision v)
{
    using M = std::array<std::array<double, 3>, 3>;
    static constexpr M protan = {
        {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
    static constexpr M deutan = {
        {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};
    static constexpr M tritan = {
        {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};
    if (v == Vision::Normal)
        return rgb;
    const M& m = v == Vision::Protanopia ? protan : v == Vision::Deuteranopia ? deutan : tritan;
    Rgb out{};
    for (int i = 0; i < 3; ++i)
        out[i] = std::clamp(m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2], 0.0, 1.0);
    return out;
}

inline QColor simulate(const QColor& c, Vision v)
{
    const Rgb s = simulateLinear(linearRgb(c), v);
    return QColor::fromRgbF(float(encodeSrgb(s[0])), float(encodeSrgb(s[1])), float(encodeSrgb(s[2])));
}

// Every pixel through simulate(), each distinct colour once (a plot has few of them).
inline QImage simulate(const QImage& image, Vision v)
{
    QImage out = image.convertToFormat(QImage::Format_RGB32);
    QHash<QRgb, QRgb> cache;
    for (int y = 0; y < out.height(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < out.width(); ++x) {
            const QRgb key = line[x] & 0xFFFFFF;
            auto it = cache.find(key);
            if (it == cache.end())
                it = cache.insert(key, simulate(QColor(key), v).rgb());
            line[x] = *it;
        }
    }
    return out;
}

using Lab = std::array<double, 3>;

inline Lab labFromLinear(const Rgb& c)
{
    // sRGB (D65) to XYZ, then CIELAB with the D65 white.
    const double x = 0.4124564 * c[0] + 0.3575761 * c[1] + 0.1804375 * c[2];
    const double y = 0.2126729 * c[0] + 0.7151522 * c[1] + 0.0721750 * c[2];
    const double z = 0.0193339 * c[0] + 0.1191920 * c[1] + 0.9503041 * c[2];
    auto f = [](double t) {
        constexpr double e = 216.0 / 24389, k = 24389.0 / 27;
        return t > e ? std::cbrt(t) : (k * t + 16) / 116;
    };
    const double fx = f(x / 0.95047), fy = f(y / 1.0), fz = f(z / 1.08883);
    return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

// CIEDE2000 with kL = kC = kH = 1, as in Sharma, Wu & Dalal (2005), eqs. 1-22.
inline double ciede2000(const Lab& p, const Lab& q)
{
    constexpr double pi = std::numbers::pi;
    auto deg = [](double r) { return r * 180 / pi; };
    auto rad = [](double d) { return d * pi / 180; };
    const double c1 = std::hypot(p[1], p[2]), c2 = std::hypot(q[1], q[2]);
    const double cBar = (c1 + c2) / 2;
    const double g = 0.5 * (1 - std::sqrt(std::pow(cBar, 7) / (std::pow(cBar, 7) + std::pow(25.0, 7))));
    const double a1 = (1 + g) * p[1], a2 = (1 + g) * q[1];
    const double c1p = std::hypot(a1, p[2]), c2p = std::hypot(a2, q[2]);
    auto hue = [&](double b, double a) {
        if (a == 0 && b == 0)
            return 0.0;
        const double h = deg(std::atan2(b, a));
        return h < 0 ? h + 360 : h;
    };
    const double h1 = hue(p[2], a1), h2 = hue(q[2], a2);
    const double dL = q[0] - p[0], dC = c2p - c1p;
    double dh = 0;
    if (c1p * c2p != 0) {
        dh = h2 - h1;
        if (dh > 180)
            dh -= 360;
        else if (dh < -180)
            dh += 360;
    }
    const double dH = 2 * std::sqrt(c1p * c2p) * std::sin(rad(dh / 2));
    const double lBar = (p[0] + q[0]) / 2, cBarP = (c1p + c2p) / 2;
    double hBar = h1 + h2;
    if (c1p * c2p != 0) {
        if (std::abs(h1 - h2) <= 180)
            hBar = (h1 + h2) / 2;
        else
            hBar = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
    }
    const double t = 1 - 0.17 * std::cos(rad(hBar - 30)) + 0.24 * std::cos(rad(2 * hBar)) +
                     0.32 * std::cos(rad(3 * hBar + 6)) - 0.20 * std::cos(rad(4 * hBar - 63));
    const double dTheta = 30 * std::exp(-std::pow((hBar - 275) / 25, 2));
    const double rC = 2 * std::sqrt(std::pow(cBarP, 7) / (std::pow(cBarP, 7) + std::pow(25.0, 7)));
    const double sL = 1 + 0.015 * std::pow(lBar - 50, 2) / std::sqrt(20 + std::pow(lBar - 50, 2));
    const double sC = 1 + 0.045 * cBarP, sH = 1 + 0.015 * cBarP * t;
    const double rT = -std::sin(rad(2 * dTheta)) * rC;
    return std::sqrt(std::pow(dL / sL, 2) + std::pow(dC / sC, 2) + std::pow(dH / sH, 2) +
                     rT * (dC / sC) * (dH / sH));
}

// The difference of two colours as a viewer with vision v sees them.
inline double differenceSeenBy(const QColor& a, const QColor& b, Vision v)
{
    return ciede2000(labFromLinear(simulateLinear(linearRgb(a), v)),
                     labFromLinear(simulateLinear(linearRgb(b), v)));
}

} // namespace evx::testing
