#include "scenarios/wvo/wvo_common.h"

#include <boost/math/special_functions/digamma.hpp>

#include <algorithm>
#include <cmath>

namespace evx::scenarios::wvo_common {

std::vector<ParameterSpec> withVirtualObservationParameters(std::vector<ParameterSpec> own, int defaultCount,
                                                            int defaultSeed)
{
    own.push_back(integerParameter("virtual_count", "Virtual observations K", 2, 200, defaultCount,
                                   "Number of virtual observations drawn from the posterior predictive", true));
    own.push_back(integerParameter("posterior_draws", "Posterior draws M", 50, 20000, 1000,
                                   "Posterior draws θ_m used by the Monte Carlo objective"));
    own.push_back(integerParameter("seed", "Random seed", 1, 100000, defaultSeed,
                                   "Seed of the draws and the virtual observations"));
    return own;
}

double betaDraw(double a, double b, std::mt19937_64& rng)
{
    std::gamma_distribution<double> ga(a, 1.0), gb(b, 1.0);
    const double x = ga(rng), y = gb(rng);
    return x / (x + y);
}

double klBeta(double a1, double b1, double a2, double b2)
{
    using boost::math::digamma;
    auto lbeta = [](double a, double b) { return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b); };
    const double kl = lbeta(a2, b2) - lbeta(a1, b1) + (a1 - a2) * digamma(a1) + (b1 - b2) * digamma(b1) +
                      (a2 - a1 + b2 - b1) * digamma(a1 + b1);
    return std::max(kl, 0.0); // rounding can leave −1e-15
}

} // namespace evx::scenarios::wvo_common
