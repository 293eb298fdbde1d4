#include "models/linear_gaussian_model.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <cmath>
#include <string>

namespace evx::models {
namespace {

void requirePositive(double v, const char* what)
{
    if (!std::isfinite(v) || !(v > 0))
        throw InvalidParameter(std::string(what) + " must be a positive number");
}

Normal fromPrecision(double precision, double precisionTimesMean)
{
    return {precisionTimesMean / precision, 1 / std::sqrt(precision)};
}

} // namespace

double Normal::pdf(double x) const
{
    return stats::normalPdf(x, mean, sd);
}

LinearGaussianModel::LinearGaussianModel(double priorMean, double priorSd, double noiseSd)
    : m_priorMean(priorMean), m_priorSd(priorSd), m_noiseSd(noiseSd)
{
    if (!std::isfinite(priorMean))
        throw InvalidParameter("the prior mean must be a finite number");
    requirePositive(priorSd, "the prior sd");
    requirePositive(noiseSd, "the model noise sd");
}

double LinearGaussianModel::logPrior(double x) const
{
    return stats::normalLogPdf(x, m_priorMean, m_priorSd);
}

double LinearGaussianModel::logLikelihood(double y, double x) const
{
    return stats::normalLogPdf(y, x, m_noiseSd);
}

evidence::ConditionalMoments LinearGaussianModel::observable(double x) const
{
    return {x, m_noiseSd * m_noiseSd};
}

GaussianReadings closedFormReadings(const LinearGaussianModel& model, double zeta, double evidenceSd)
{
    requirePositive(evidenceSd, "the evidence sd");
    if (!std::isfinite(zeta))
        throw InvalidParameter("the evidence centre must be a finite number");
    const double mu = model.priorMean();
    const double vx = model.priorSd() * model.priorSd();
    const double vn = model.noiseSd() * model.noiseSd();
    const double vq = evidenceSd * evidenceSd;

    GaussianReadings r;
    r.prior = {mu, model.priorSd()};
    r.exact = fromPrecision(1 / vx + 1 / vn, mu / vx + zeta / vn);
    r.distributional = r.exact;
    r.virtualEvidence = fromPrecision(1 / vx + 1 / (vn + vq), mu / vx + zeta / (vn + vq));
    const double k = vx / (vx + vn);
    r.jeffrey = {mu + k * (zeta - mu), std::sqrt(k * vn + k * k * vq)};
    r.predictive = {mu, std::sqrt(vx + vn)};
    r.varY = vx + vn;
    r.expectedVarGivenZeta = vq;
    return r;
}

} // namespace evx::models
