#pragma once
// Plots of (weighted) posterior samples for the sampled uncertain-evidence scenarios:
// normalised histograms as step series, and highest-density regions of a 2-D histogram as
// contour lines, so several readings overlay in one plot (a heat map cannot).

#include "core/figure.h"

#include <Eigen/Core>
#include <string>

namespace evx::scenarios {

// A density histogram (integrates to 1 over [lo, hi]) of values with weights (empty: equal).
Series histogramSeries(std::string name, const Eigen::VectorXd& values, const Eigen::VectorXd& weights,
                       double lo, double hi, int bins, int colour, bool dashed);

// The boundaries of the highest-density regions holding `masses` (e.g. 0.68 and 0.95) of a
// 2-D histogram of (x, y), lightly smoothed, traced by marching squares; one series with NaN
// between the pieces.
Series hpdContourSeries(std::string name, const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                        const Eigen::VectorXd& weights, double xLo, double xHi, double yLo, double yHi,
                        int bins, const std::vector<double>& masses, int colour, bool dashed);

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
