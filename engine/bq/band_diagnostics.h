#pragma once
// When not to trust a BQ band (issue 13): checks of a finished 1-D run that say when the ±2 sd
// band rests on more than the model can know. Each returns a warning sentence, or nothing.
//  - Mass beyond the samples: the largest ℓ(x_i)·p(x_i) is at the outermost sample, so ℓ·p may
//    keep rising where nothing was sampled (Monte Carlo draws that miss a peak).
//  - Lengthscale at a bound: more than 10 % of the lengthscale's posterior mass on the lowest or
//    highest value of its grid, where the likelihood did not decide it.
//  - Linearisation: the log-GP's exact (log-normal) sd of Z against the linearised one of
//    Sec. 1.2.2, on the same grid; a ratio beyond 3 either way says the linearisation is far off.

#include "bq/gaussian_measure.h"

#include <optional>
#include <string>
#include <vector>

namespace evx::bq {

std::optional<std::string> massBeyondSamplesWarning(const std::vector<double>& x,
                                                    const std::vector<double>& logL,
                                                    const GaussianMeasure& p);
// lowerShare, upperShare: posterior mass (or 1/0 for a point fit) at the lower and upper bounds.
std::optional<std::string> lengthscaleBoundWarning(double lowerShare, double upperShare, double lengthscale);
std::optional<std::string> linearisationWarning(double exactSd, double linearisedSd);

// Thresholds: posterior mass at a bound, sd ratio.
inline constexpr double kBoundShareLimit = 0.1;
inline constexpr double kLinearisationRatioLimit = 3;

} // namespace evx::bq
