#include "bq/structured/dp_prior.h"

#include "core/errors.h"

#include <cmath>

namespace evx::bq::structured {

MixingMeasure drawDpPriorMeasure(double alpha, std::mt19937_64& rng)
{
    if (!(alpha > 0) || !std::isfinite(alpha))
        throw InvalidParameter("the concentration α must be positive and finite");
    std::uniform_real_distribution<double> uniform(0, 1);
    std::normal_distribution<double> normal(0, 1);
    MixingMeasure g;
    double left = 1;
    while (left >= kDpStickTolerance && int(g.weights.size()) < kDpMaxSticks) {
        // Beta(1, α) by inversion, v = 1 − (1 − U)^{1/α} with U in [0, 1): v in [0, 1).
        const double v = -std::expm1(std::log1p(-uniform(rng)) / alpha);
        g.weights.push_back(left * v);
        g.atoms.push_back(normal(rng));
        left *= 1 - v;
    }
    g.weights.push_back(left);
    g.atoms.push_back(normal(rng));
    return g;
}

std::vector<MixingMeasure> drawDpPriorMeasures(double alpha, int count, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<MixingMeasure> out;
    out.reserve(count);
    for (int m = 0; m < count; ++m)
        out.push_back(drawDpPriorMeasure(alpha, rng));
    return out;
}

} // namespace evx::bq::structured
