#pragma once
// Axes fitted to a two-parameter posterior, so that a grid holds all but a stated tail mass of
// it (issue: a fixed σ range of 3.2 sample sds cut 4% off the posterior mean of σ at N = 5).
//
// The density is tabulated on a search box whose sides move out (by the box's width, up to a
// hard limit such as σ > 0) while their outermost cells still hold mass; then each axis spans
// the marginal's [tail/4, 1 − tail/4] quantile range, so at most `tailMass` lies outside the
// box. A heavy tail may need a range so wide that `cells` cells would resolve the bulk of the
// density poorly: then the range is narrowed to `maxSdsPerAxis` marginal sds around the mean,
// and `outsideMass` says how much is left outside, for a warning.

#include "wvo/grid_posterior.h"

#include <functional>
#include <string>

namespace evx::wvo {

struct AxisLimits {
    double lo = -1e300, hi = 1e300; // where the density is defined, e.g. σ ≥ 0
};

struct GridFitOptions {
    double tailMass = 1e-6;
    int searchCells = 240;     // per axis, for the search box
    int maxExpansions = 8;     // per side (each doubles the search box in the warped coordinate)
    double maxSdsPerAxis = 30; // the widest range, in marginal sds, that a grid of cells resolves
};

struct FittedGrid {
    Axis x, y;
    double outsideMass = 0; // estimated posterior mass outside the box
};

FittedGrid fitGrid(const std::function<double(double, double)>& logDensity, Axis searchX, Axis searchY,
                   AxisLimits limitsX, AxisLimits limitsY, int cellsX, int cellsY,
                   const GridFitOptions& options = {});

// A warning naming the mass a fitted grid leaves out, or "" when it holds all but the tail asked for.
std::string gridCoverageWarning(const FittedGrid& grid, const GridFitOptions& options,
                                const std::string& what);

} // namespace evx::wvo
