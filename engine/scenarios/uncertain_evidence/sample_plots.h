#pragma once
// Plots of (weighted) posterior samples for the sampled uncertain-evidence scenarios:
// normalised histograms as step series, and highest-density regions of a 2-D histogram as
// contour lines, so several readings overlay in one plot (a heat map cannot).

#include "core/figure.h"

#include <Eigen/Core>
#include <string>
#include <vector>

namespace evx::scenarios {

// A density histogram (integrates to 1 over [lo, hi]) of values with weights (empty: equal).
Series histogramSeries(std::string name, const Eigen::VectorXd& values, const Eigen::VectorXd& weights,
                       double lo, double hi, int bins, int colour, bool dashed);

// A highest-density region is traced from a histogram only when it stands out from the
// sampling noise: one bounded by more closed lines than this (its pieces and its holes), after
// the most smoothing allowed, is noise. Three leaves room for a bimodal region or a ring.
constexpr int kMaxRegionLoops = 3;

// The boundaries of the highest-density regions holding `masses` (e.g. 0.68 and 0.95) of a
// 2-D histogram of (x, y), traced by marching squares: one series per mass (points only; NaN
// between the pieces). The histogram is smoothed just enough (a binomial blur of sd 1 to 2.8
// cells) that the innermost region has at most kMaxRegionLoops boundary lines. A density too flat
// for that, whose regions would only trace sampling noise, is not resolved: its series are empty.
struct HpdRegions {
    std::vector<Series> boundaries;
    bool resolved = false;
};
HpdRegions hpdRegions(const Eigen::VectorXd& x, const Eigen::VectorXd& y, const Eigen::VectorXd& weights,
                      double xLo, double xHi, double yLo, double yHi, int bins,
                      const std::vector<double>& masses);

// A legend key for one level of nested contours drawn in the reference colour, thin or not as
// that level's lines are: two NaN points, so it draws nothing but its legend entry.
Series contourLevelKey(std::string name, bool thin);

// Weighted mean and sd.
std::pair<double, double> weightedMoments(const Eigen::VectorXd& values, const Eigen::VectorXd& weights);

// Circular mean (in [0, 360)) and circular sd √(−2 ln R̄) of angles in degrees, R̄ the mean
// resultant length. An angle's ordinary mean puts 350° and 10° at 180°; this puts them at 0°.
// A near-uniform angle has R̄ → 0 and an sd beyond 100°: its mean is then arbitrary.
std::pair<double, double> circularMoments(const Eigen::VectorXd& degrees, const Eigen::VectorXd& weights);

// The weighted p-quantile (p in [0, 1]).
double weightedQuantile(const Eigen::VectorXd& values, const Eigen::VectorXd& weights, double p);

} // namespace evx::scenarios
