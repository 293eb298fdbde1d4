#include "bq/gaussian_measure.h"

#include <cmath>
#include <numbers>

namespace evx::bq {

double GaussianMeasure::density(const double* x) const
{
    double logp = 0;
    for (int d = 0; d < mean.size(); ++d)
        logp += -0.5 * std::pow(x[d] - mean[d], 2) / variance[d] -
                0.5 * std::log(2 * std::numbers::pi * variance[d]);
    return std::exp(logp);
}

GaussianMeasure GaussianMeasure::oneDimensional(double mean, double sd)
{
    return {Eigen::VectorXd::Constant(1, mean), Eigen::VectorXd::Constant(1, sd * sd)};
}

} // namespace evx::bq
