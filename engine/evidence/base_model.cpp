#include "evidence/base_model.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <cmath>

namespace evx::evidence {

GaussianEvidence::GaussianEvidence(double centre, double sd) : m_centre(centre), m_sd(sd)
{
    if (!std::isfinite(centre))
        throw InvalidParameter("the evidence's centre is not a finite number");
    if (!(sd > 0) || !std::isfinite(sd))
        throw InvalidParameter("the evidence's sd must be a positive number");
}

double GaussianEvidence::logDensity(double y) const
{
    return stats::normalLogPdf(y, m_centre, m_sd);
}

} // namespace evx::evidence
