#include "wvo/grid_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>

namespace evx::wvo {
namespace {

// The search runs in a coordinate u in which polynomial tails decay exponentially, so that a
// box of a few hundred cells spans both the bulk and a tail that reaches 1e4 scales out: log of
// the distance to a finite lower limit (σ), otherwise asinh of the distance to the centre.
struct Warp {
    bool logBelow = false;
    double origin = 0, scale = 1;

    double toU(double x) const { return logBelow ? std::log(x - origin) : std::asinh((x - origin) / scale); }
    double toX(double u) const { return logBelow ? origin + std::exp(u) : origin + scale * std::sinh(u); }
    double logJacobian(double u) const // log dx/du
    {
        return logBelow ? u : std::log(scale * std::cosh(u));
    }
};

Warp warpFor(const Axis& a, const AxisLimits& limits)
{
    if (limits.lo > -1e300 && limits.hi >= 1e300)
        return {true, limits.lo, 1};
    return {false, 0.5 * (a.lo + a.hi), std::max(1e-300, 0.25 * (a.hi - a.lo))};
}

// Cell masses of one marginal of a search grid.
std::vector<double> marginalMass(const GridPosterior& g, bool alongX)
{
    std::vector<double> m = alongX ? g.marginalX() : g.marginalY();
    const double step = alongX ? g.xAxis().step() : g.yAxis().step();
    for (double& v : m)
        v *= step;
    return m;
}

// The edges of the cells that hold all but `q` of the mass at each end.
std::pair<double, double> quantileRange(const std::vector<double>& mass, const Axis& a, double q)
{
    const int n = int(mass.size());
    double c = 0;
    int lo = 0;
    while (lo < n - 1 && c + mass[lo] <= q)
        c += mass[lo++];
    c = 0;
    int hi = n - 1;
    while (hi > lo && c + mass[hi] <= q)
        c += mass[hi--];
    return {a.lo + lo * a.step(), a.lo + (hi + 1) * a.step()};
}

// The x at which the marginal's cumulative mass reaches p (linear within a cell, in u).
double quantile(const std::vector<double>& mass, const Axis& a, const Warp& w, double p)
{
    double c = 0;
    for (int i = 0; i < a.n; ++i) {
        if (c + mass[i] >= p && mass[i] > 0)
            return w.toX(a.lo + (i + (p - c) / mass[i]) * a.step());
        c += mass[i];
    }
    return w.toX(a.hi);
}

// Moves each side of the axis out by its width, within the limits (in u), where its outermost
// cell holds more than `threshold`; returns whether it moved.
bool expand(Axis& a, const std::vector<double>& mass, double uLo, double uHi, double threshold)
{
    const double width = a.hi - a.lo;
    bool moved = false;
    if (mass.front() > threshold && a.lo > uLo) {
        a.lo = std::max(uLo, a.lo - width);
        moved = true;
    }
    if (mass.back() > threshold && a.hi < uHi) {
        a.hi = std::min(uHi, a.hi + width);
        moved = true;
    }
    return moved;
}

// Narrows [lo, hi] to at most `width` around the median, cutting the side farther from it first.
std::pair<double, double> narrowed(double lo, double hi, double median, double width)
{
    if (hi - lo <= width)
        return {lo, hi};
    double a = std::max(lo, median - width / 2);
    const double b = std::min(hi, a + width);
    a = std::max(lo, b - width);
    return {a, b};
}

} // namespace

FittedGrid fitGrid(const std::function<double(double, double)>& logDensity, Axis searchX, Axis searchY,
                   AxisLimits limitsX, AxisLimits limitsY, int cellsX, int cellsY,
                   const GridFitOptions& options)
{
    const double q = options.tailMass / 4; // per end, per axis: at most tailMass outside in all
    const Warp wx = warpFor(searchX, limitsX), wy = warpFor(searchY, limitsY);
    // Limits in u; a lower limit that the warp maps to −∞ is never reached.
    const double inf = std::numeric_limits<double>::infinity();
    const double uxLo = wx.logBelow ? -inf : (limitsX.lo > -1e300 ? wx.toU(limitsX.lo) : -inf);
    const double uxHi = limitsX.hi < 1e300 ? wx.toU(limitsX.hi) : inf;
    const double uyLo = wy.logBelow ? -inf : (limitsY.lo > -1e300 ? wy.toU(limitsY.lo) : -inf);
    const double uyHi = limitsY.hi < 1e300 ? wy.toU(limitsY.hi) : inf;
    auto clampedU = [](double x, const AxisLimits& l, const Warp& w) {
        return w.toU(w.logBelow ? std::max(x, l.lo + 1e-300) : std::clamp(x, l.lo, l.hi));
    };
    Axis ux{clampedU(searchX.lo, limitsX, wx), clampedU(searchX.hi, limitsX, wx), options.searchCells};
    Axis uy{clampedU(searchY.lo, limitsY, wy), clampedU(searchY.hi, limitsY, wy), options.searchCells};
    if (wy.logBelow && !(uy.lo < uy.hi - 1e-9))
        uy.lo = uy.hi - 1;
    if (wx.logBelow && !(ux.lo < ux.hi - 1e-9))
        ux.lo = ux.hi - 1;
    auto logDensityU = [&](double u, double v) {
        return logDensity(wx.toX(u), wy.toX(v)) + wx.logJacobian(u) + wy.logJacobian(v);
    };

    for (int round = 0; round < 3 * options.maxExpansions; ++round) {
        const GridPosterior g(ux, uy, logDensityU);
        const std::vector<double> mx = marginalMass(g, true), my = marginalMass(g, false);
        const bool movedX = expand(ux, mx, uxLo, uxHi, q / 4);
        const bool movedY = expand(uy, my, uyLo, uyHi, q / 4);
        if ((movedX || movedY) && round < 3 * options.maxExpansions - 1)
            continue;
        auto [u0, u1] = quantileRange(mx, ux, q);
        auto [v0, v1] = quantileRange(my, uy, q);
        // A bulk that spans few search cells needs a finer search to place its quantiles: zoom
        // in with a margin (the next round moves out again if that clipped it).
        const bool narrowX = u1 - u0 < 40 * ux.step(), narrowY = v1 - v0 < 40 * uy.step();
        if ((narrowX || narrowY) && round < 3 * options.maxExpansions - 1) {
            if (narrowX)
                ux = {std::max(uxLo, u0 - 0.25 * (u1 - u0)), std::min(uxHi, u1 + 0.25 * (u1 - u0)), ux.n};
            if (narrowY)
                uy = {std::max(uyLo, v0 - 0.25 * (v1 - v0)), std::min(uyHi, v1 + 0.25 * (v1 - v0)), uy.n};
            continue;
        }
        double x0 = wx.toX(u0), x1 = wx.toX(u1), y0 = wy.toX(v0), y1 = wy.toX(v1);
        // A range far wider than the bulk leaves too few cells across the bulk: hold it to
        // maxSdsPerAxis robust sds (interquartile range / 1.349), heavy tails are cut and reported.
        auto robustSd = [&](const std::vector<double>& m, const Axis& a, const Warp& w) {
            return (quantile(m, a, w, 0.75) - quantile(m, a, w, 0.25)) / 1.349;
        };
        std::tie(x0, x1) =
            narrowed(x0, x1, quantile(mx, ux, wx, 0.5), options.maxSdsPerAxis * robustSd(mx, ux, wx));
        std::tie(y0, y1) =
            narrowed(y0, y1, quantile(my, uy, wy, 0.5), options.maxSdsPerAxis * robustSd(my, uy, wy));
        double inside = 0;
        for (int iy = 0; iy < uy.n; ++iy)
            for (int ix = 0; ix < ux.n; ++ix) {
                const double cx = wx.toX(ux.centre(ix)), cy = wy.toX(uy.centre(iy));
                if (cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1)
                    inside += g.mass()[std::size_t(iy) * ux.n + ix];
            }
        // What the search box itself may have missed: its outermost cells' mass, a bound for a
        // tail that decays at least exponentially in u.
        const double beyond = mx.front() + mx.back() + my.front() + my.back();
        return {{x0, x1, cellsX}, {y0, y1, cellsY}, std::max(0.0, 1 - inside) + beyond};
    }
    return {}; // not reached: the last round always returns
}

std::string gridCoverageWarning(const FittedGrid& grid, const GridFitOptions& options,
                                const std::string& what)
{
    if (grid.outsideMass <= options.tailMass)
        return {};
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "The grid of %s leaves out about %.1e of the posterior mass, in a tail too long to "
                  "tabulate finely; moments computed on it are pulled towards the bulk.",
                  what.c_str(), grid.outsideMass);
    return buf;
}

} // namespace evx::wvo
