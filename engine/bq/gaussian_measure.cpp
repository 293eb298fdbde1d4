#include "bq/gaussian_measure.h"

#include "stats/densities.h"

#include <cmath>

namespace evx::bq {

double GaussianMeasure::density(const double* x) const
{
    double logp = 0;
    for (int d = 0; d < mean.size(); ++d)
        logp += stats::normalLogPdfVar(x[d], mean[d], variance[d]);
    return std::exp(logp);
}

GaussianMeasure GaussianMeasure::oneDimensional(double mean, double sd)
{
    return {Eigen::VectorXd::Constant(1, mean), Eigen::VectorXd::Constant(1, sd * sd)};
}

} // namespace evx::bq
