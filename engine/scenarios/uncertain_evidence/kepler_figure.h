#pragma once
// The Kepler experiment's figure (uncertain-evidence paper, Fig. 5): a corner plot of the
// orbital elements (P, e, ω, ω + M) with each reading's posterior overlaid, 1-D densities on
// the diagonal and 68 % / 95 % regions below it, and the posterior summaries.

#include "core/figure.h"

#include <Eigen/Core>

namespace evx::scenarios {

struct KeplerTruth {
    double period, e, omega, lambda; // days, 1, degrees, degrees
};

// Draws of each reading in the order Jeffrey's rule, virtual, distributional; rows are draws,
// columns P, e, ω, ω + M. A reading without draws (not sampled yet) is left out.
Figure keplerCornerFigure(const Eigen::MatrixXd* readings[3], const KeplerTruth& truth);

} // namespace evx::scenarios
