#include "evidence/distributional_evidence.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <cmath>

namespace evx::evidence {

double gaussianLogNormaliser(double noiseSd, double evidenceSd)
{
    return -evidenceSd * evidenceSd / (2 * noiseSd * noiseSd);
}

DistributionalPosteriors distributionalPosteriors(const BaseModel& model, const GaussianEvidence& q,
                                                  const UniformGrid& grid)
{
    if (!model.hasGaussianNoise())
        throw InvalidParameter("the normaliser Z(x) is only known in closed form for Gaussian model noise");
    const int n = grid.size();
    DistributionalPosteriors d;
    d.logZ.resize(n);
    std::vector<double> logAdjusted(n), logExact(n), logImplied(n);
    for (int i = 0; i < n; ++i) {
        const double x = grid.at(i);
        const ConditionalMoments m = model.observable(x);
        const double s = std::sqrt(m.variance);
        const double lp = model.logPrior(x);
        d.logZ[i] = gaussianLogNormaliser(s, q.sd());
        const double logLik = stats::normalLogPdf(q.centre(), m.mean, s); // N(μ_q; m(x), s(x)²)
        logAdjusted[i] = lp + d.logZ[i];
        logExact[i] = lp + logLik;
        logImplied[i] = lp + logLik + d.logZ[i];
    }
    d.adjustedPrior = normalisedDensity(grid, logAdjusted, "adjusted prior p_a(x)");
    d.exact = normalisedDensity(grid, logExact, "exact distributional-evidence posterior");
    d.implied = normalisedDensity(grid, logImplied, "implied distributional-evidence posterior");
    return d;
}

} // namespace evx::evidence
