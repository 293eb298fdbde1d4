#include "wvo/multilevel.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <cmath>

namespace evx::wvo {

WvoProblem buildProblem(const Eigen::MatrixXd& draws, int virtualCount, const VirtualLogLik& virtualLogLik,
                        const OriginalLogLik& originalLogLik, double totalWeight)
{
    if (virtualCount < 1)
        throw InvalidParameter("WVO needs at least one virtual observation");
    WvoProblem p;
    p.totalWeight = totalWeight;
    p.logLikVirtual.resize(draws.rows(), virtualCount);
    p.logLikOriginal.resize(draws.rows());
    for (Eigen::Index m = 0; m < draws.rows(); ++m) {
        const Eigen::VectorXd theta = draws.row(m).transpose();
        p.logLikOriginal(m) = originalLogLik(theta);
        for (int i = 0; i < virtualCount; ++i)
            p.logLikVirtual(m, i) = virtualLogLik(theta, i);
    }
    return p;
}

double logMeanExp(const std::vector<double>& values)
{
    if (values.empty())
        throw InvalidParameter("a Monte Carlo estimate needs at least one draw");
    return stats::logSumExp(values) - std::log(static_cast<double>(values.size()));
}

double weightedLogLik(const Eigen::VectorXd& logLikAtTheta, const Eigen::VectorXd& weights)
{
    double s = 0;
    for (Eigen::Index i = 0; i < weights.size(); ++i)
        if (weights(i) > 0) // a zero weight removes the observation, even where its density is 0
            s += weights(i) * logLikAtTheta(i);
    return s;
}

} // namespace evx::wvo
