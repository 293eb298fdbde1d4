#include "models/heteroscedastic_gaussian_model.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <cmath>

namespace evx::models {

HeteroscedasticGaussianModel::HeteroscedasticGaussianModel(double priorMean, double priorSd,
                                                           double noiseAtZero, double noiseSlope)
    : m_priorMean(priorMean), m_priorSd(priorSd), m_s0(noiseAtZero), m_s1(noiseSlope)
{
    if (!std::isfinite(priorMean) || !std::isfinite(noiseSlope) || !std::isfinite(noiseAtZero) ||
        !std::isfinite(priorSd))
        throw InvalidParameter("the heteroscedastic model's parameters must be finite numbers");
    if (!(priorSd > 0) || !(noiseAtZero > 0) || noiseSlope < 0)
        throw InvalidParameter("the heteroscedastic model needs σ_x > 0, s0 > 0 and s1 ≥ 0");
}

double HeteroscedasticGaussianModel::noiseSd(double x) const
{
    return m_s0 + m_s1 * std::abs(x);
}

double HeteroscedasticGaussianModel::logPrior(double x) const
{
    return stats::normalLogPdf(x, m_priorMean, m_priorSd);
}

double HeteroscedasticGaussianModel::logLikelihood(double y, double x) const
{
    return stats::normalLogPdf(y, x, noiseSd(x));
}

evidence::ConditionalMoments HeteroscedasticGaussianModel::observable(double x) const
{
    const double s = noiseSd(x);
    return {x, s * s};
}

} // namespace evx::models
