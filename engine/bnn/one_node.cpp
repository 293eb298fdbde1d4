#include "bnn/one_node.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <boost/math/tools/minima.hpp>

#include <cmath>
#include <random>

namespace evx::bnn {
namespace {

} // namespace

double leakyRelu(double a, double slope)
{
    return a > 0 ? a : slope * a;
}

OneNodeData simulateOneNode(const OneNodeModel& model, int n, double xMean, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    OneNodeData d{Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n)};
    for (int i = 0; i < n; ++i) {
        d.x(i) = xMean + normal(rng);
        d.z(i) = model.sigmaZ * normal(rng);
        d.y(i) = leakyRelu(model.w * (d.x(i) + d.z(i)), model.slope) + model.sigmaEps * normal(rng);
    }
    return d;
}

double familyLogDensity(const OneNodeModel& model, const OneNodeData& data, double c)
{
    if (c == 0 || !std::isfinite(c))
        throw InvalidParameter("the family (W/C, (C − 1)x + Cz) needs a finite, non-zero C");
    const double w = model.w / c;
    double sum = stats::normalLogPdf(w, 0, model.wPriorSd);
    for (Eigen::Index i = 0; i < data.x.size(); ++i) {
        const double zHat = (c - 1) * data.x(i) + c * data.z(i);
        const double residual = data.y(i) - leakyRelu(w * (data.x(i) + zHat), model.slope);
        sum += stats::normalLogPdf(residual, 0, model.sigmaEps);
        sum += stats::normalLogPdf(zHat, 0, model.sigmaZ);
    }
    return sum;
}

FamilyConstants familyConstants(double meanXSquared, double sigmaZ)
{
    const double s2 = sigmaZ * sigmaZ;
    return {(meanXSquared - s2) / (meanXSquared + s2), meanXSquared / (meanXSquared + s2)};
}

FamilyMaximum familyMaximiser(const OneNodeModel& model, const OneNodeData& data, double lo, double hi)
{
    if (!(lo > 0) || !(hi > lo))
        throw InvalidParameter("the search interval for C must satisfy 0 < lo < hi");
    const auto [c, value] = boost::math::tools::brent_find_minima(
        [&](double t) { return -familyLogDensity(model, data, t); }, lo, hi, 40);
    const double span = hi - lo;
    return {c, c - lo < 1e-6 * span || hi - c < 1e-6 * span};
}

} // namespace evx::bnn
