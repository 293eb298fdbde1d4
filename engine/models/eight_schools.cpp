#include "models/eight_schools.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace evx::models {

double schoolLogMarginal(double y, double sigma, double mu, double tau)
{
    const double v = sigma * sigma + tau * tau;
    const double d = y - mu;
    return -0.5 * (d * d / v + std::log(2 * std::numbers::pi * v));
}

double schoolsLogPrior(double mu, double tau)
{
    const bool inside =
        mu >= kSchoolsMuLo && mu <= kSchoolsMuHi && tau >= kSchoolsTauLo && tau <= kSchoolsTauHi;
    return inside ? 0.0 : -std::numeric_limits<double>::infinity();
}

} // namespace evx::models
