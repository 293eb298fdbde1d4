#include "evidence/base_model.h"

#include "core/errors.h"

#include <cmath>
#include <numbers>

namespace evx::evidence {

double logNormalDensity(double y, double mean, double sd)
{
    const double z = (y - mean) / sd;
    return -0.5 * z * z - std::log(sd) - 0.5 * std::log(2 * std::numbers::pi);
}

GaussianEvidence::GaussianEvidence(double centre, double sd) : m_centre(centre), m_sd(sd)
{
    if (!std::isfinite(centre))
        throw InvalidParameter("the evidence's centre is not a finite number");
    if (!(sd > 0) || !std::isfinite(sd))
        throw InvalidParameter("the evidence's sd must be a positive number");
}

double GaussianEvidence::logDensity(double y) const
{
    return logNormalDensity(y, m_centre, m_sd);
}

}  // namespace evx::evidence
