#pragma once
// Small helpers shared by the WVO scenarios: seeded draws from the distributions the
// conjugate examples need.

#include "core/parameters.h"

#include <random>
#include <string>
#include <vector>

namespace evx::scenarios::wvo_common {

// own, then the parameters every conjugate WVO example shares: the number of virtual
// observations K, the posterior draws M of the Monte Carlo objective, and the seed.
std::vector<ParameterSpec> withVirtualObservationParameters(std::vector<ParameterSpec> own, int defaultCount,
                                                            int defaultSeed);

// Beta(a, b) through two Gamma variates.
double betaDraw(double a, double b, std::mt19937_64& rng);

// KL(Beta(a1, b1) ‖ Beta(a2, b2)) in closed form (digamma, log-beta from Boost.Math).
double klBeta(double a1, double b1, double a2, double b2);

} // namespace evx::scenarios::wvo_common
