#pragma once
// Shared presentation of the WVO scenarios: one colour and legend per posterior (original,
// unweighted virtual, weighted virtual), the weights' bar plot, highest-density contours of
// a grid posterior, box plots drawn with line series, and the summary keys of issue 5
// (n.original, n.virtual, kl.reconstruction, kl.unweighted, weights.sum), a contract.

#include "core/figure.h"
#include "wvo/grid_posterior.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace evx::scenarios::wvo_figure {

inline constexpr int kOriginalColour = 3;   // blue, as in the paper's figures
inline constexpr int kUnweightedColour = 4; // vermillion, dashed
inline constexpr int kWeightedColour = 2;   // bluish green
inline constexpr int kMebColour = 0;        // orange: marginal empirical Bayes

inline constexpr const char* kOriginalName = "Original posterior p(θ | y)";
inline constexpr const char* kUnweightedName = "Unweighted virtual p(θ | ỹ)";
inline constexpr const char* kWeightedName = "Weighted virtual p(θ | ỹ, w)";

// A density curve; style 0 original, 1 unweighted (dashed), 2 weighted.
Series densityCurve(int style, std::vector<double> x, std::vector<double> y, const std::string& suffix = {});

// The weights as bars at 1..K. The view needs more than ten points per series, so up to
// ten weights are drawn as bar outlines (a line series) instead of bars.
Plot weightsPlot(const Eigen::VectorXd& weights, const std::string& title, const std::string& xLabel);

// Contours of a grid posterior enclosing the given probability masses (e.g. 0.5, 0.9), by
// marching squares on the cell centres; segments are separated by NaN.
Series contourSeries(const wvo::GridPosterior& posterior, const std::vector<double>& masses, int style);

// The 50 % and 90 % contours of posterior in style, the 90 % one thin (Series::thin).
void addContours(Plot& plot, const wvo::GridPosterior& posterior, int style);
// The legend keys naming the two levels addContours draws, after a plot's contours.
void addContourKeys(Plot& plot);

// Box plots: at each position a box from q25 to q75, a median line, whiskers to q05 and q95.
Series boxSeries(const std::string& name, int colour, const std::vector<double>& positions,
                 const std::vector<wvo::Quantiles>& quantiles, double halfWidth);

void addWvoSummary(Summary& summary, double nOriginal, double nVirtual, double klReconstruction,
                   double klUnweighted, double weightsSum);

} // namespace evx::scenarios::wvo_figure
