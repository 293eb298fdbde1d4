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

} // namespace evx::scenarios::wvo_common
