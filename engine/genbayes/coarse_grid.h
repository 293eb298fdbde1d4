#pragma once
// A coarser lattice inside a box's grid, every stride-th point per axis with both ends kept, and
// multilinear interpolation from it back to every grid point. Partial figures of the loop show
// a surface predicted there: on the regression's 51³ grid a GP prediction at every point took
// 450 ms once the loop had 100 evaluations; stride 2 has an eighth of the points.

#include "genbayes/gb_model.h"

#include <Eigen/Core>

#include <vector>

namespace evx::genbayes {

struct CoarseGrid {
    int stride = 1;
    std::vector<int> counts;            // points per axis
    std::vector<Eigen::Index> fineRows; // the grid row of each coarse point, first axis slowest
};

// Stride 1 (every grid point) where some axis's n − 1 is not a multiple of `stride`.
CoarseGrid coarseGrid(const ParameterBox& box, int stride);

// Values at the coarse points, interpolated to every row of box.grid().
Eigen::VectorXd interpolateToGrid(const ParameterBox& box, const CoarseGrid& coarse,
                                  const Eigen::VectorXd& values);

} // namespace evx::genbayes
