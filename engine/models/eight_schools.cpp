#include "models/eight_schools.h"

#include "stats/densities.h"

#include <cmath>
#include <limits>

namespace evx::models {

double schoolLogMarginal(double y, double sigma, double mu, double tau)
{
    return stats::normalLogPdfVar(y, mu, sigma * sigma + tau * tau);
}

double schoolsLogPrior(double mu, double tau)
{
    const bool inside =
        mu >= kSchoolsMuLo && mu <= kSchoolsMuHi && tau >= kSchoolsTauLo && tau <= kSchoolsTauHi;
    return inside ? 0.0 : -std::numeric_limits<double>::infinity();
}

} // namespace evx::models
