#include "models/drop_ball_model.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <cmath>
#include <limits>
#include <string>

namespace evx::models {

DropBallModel::DropBallModel(double height, double modelSd, double priorMean, double priorSd)
    : m_height(height), m_modelSd(modelSd), m_priorMean(priorMean), m_priorSd(priorSd)
{
    auto requirePositive = [](double v, const char* what) {
        if (!std::isfinite(v) || !(v > 0))
            throw InvalidParameter(std::string(what) + " must be a positive number");
    };
    requirePositive(height, "height");
    requirePositive(modelSd, "sigma_model");
    requirePositive(priorMean, "g_prior_mean");
    requirePositive(priorSd, "g_prior_sd");
}

double DropBallModel::fallTime(double g) const
{
    return std::sqrt(2 * m_height / g);
}

double DropBallModel::gForTime(double t) const
{
    return 2 * m_height / (t * t);
}

double DropBallModel::logPrior(double g) const
{
    if (!(g > 0))
        return -std::numeric_limits<double>::infinity();
    const double z = (g - m_priorMean) / m_priorSd;
    return -0.5 * z * z;
}

double DropBallModel::logLikelihood(double t, double g) const
{
    return stats::normalLogPdf(t, fallTime(g), m_modelSd);
}

evidence::ConditionalMoments DropBallModel::observable(double g) const
{
    return {fallTime(g), m_modelSd * m_modelSd};
}

} // namespace evx::models
