#include "scenarios/wvo/wvo_common.h"

namespace evx::scenarios::wvo_common {

std::vector<ParameterSpec> withVirtualObservationParameters(std::vector<ParameterSpec> own, int defaultCount,
                                                            int defaultSeed)
{
    own.push_back(integerParameter("virtual_count", "Virtual observations K", 2, 200, defaultCount,
                                   "Number of virtual observations drawn from the posterior predictive",
                                   true));
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

} // namespace evx::scenarios::wvo_common
