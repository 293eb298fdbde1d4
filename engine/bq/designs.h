#pragma once
// Non-adaptive sample designs, nested by construction: the first n points of a design of
// n + 1 points are the design of n points for the same seed, so adding a sample (the
// window's Play button) moves nothing that is already there.
//  - Monte Carlo: x_i ~ p(x) from a seeded std::mt19937_64.
//  - Quasi-random "grid": the van der Corput (1-D) or Halton (2-D, bases 2 and 3) sequence,
//    shifted modulo 1 by a seeded offset (Cranley–Patterson rotation) and mapped through
//    the normal quantile of p (Boost.Math), so the points fill p's mass evenly.

#include "bq/gaussian_measure.h"

#include <cstdint>

namespace evx::bq {

// n × d matrices of points.
Eigen::MatrixXd monteCarloDesign(const GaussianMeasure& p, int n, std::uint64_t seed);
Eigen::MatrixXd quasiRandomDesign(const GaussianMeasure& p, int n, std::uint64_t seed);

// The radical inverse of i in the given base (van der Corput), in [0, 1).
double radicalInverse(std::uint64_t i, int base);

} // namespace evx::bq
