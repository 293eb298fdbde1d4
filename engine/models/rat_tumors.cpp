#include "models/rat_tumors.h"

#include <cmath>

namespace evx::models {

double ratsLogPrior(double u, double v)
{
    const double a = ratsAlpha(u, v), b = ratsBeta(u, v);
    return -2.5 * v + std::log(a) + std::log(b);
}

} // namespace evx::models
