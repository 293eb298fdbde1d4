#include "stats/mutual_information.h"

#include "core/errors.h"

#include <boost/math/special_functions/digamma.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace evx::stats {
namespace {

// Each column scaled to unit variance (a constant column left as it is). The max-norm mixes
// the marginals' distances, so KSG is not scale-invariant: unscaled, the marginal with the
// larger spread sets every ε and the estimate moves with the units (METHODS.md §5).
Eigen::MatrixXd unitVariance(const Eigen::MatrixXd& m)
{
    Eigen::MatrixXd out = m;
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
        const double mean = m.col(c).mean();
        const double sd = std::sqrt((m.col(c).array() - mean).square().sum() / double(m.rows()));
        if (sd > 0)
            out.col(c) = (m.col(c).array() - mean) / sd;
    }
    return out;
}

double maxNormDistance(const Eigen::MatrixXd& m, Eigen::Index i, Eigen::Index j)
{
    return (m.row(i) - m.row(j)).cwiseAbs().maxCoeff();
}

} // namespace

double ksgMutualInformation(const Eigen::MatrixXd& xIn, const Eigen::MatrixXd& yIn, int k)
{
    const Eigen::Index n = xIn.rows();
    if (yIn.rows() != n || xIn.cols() < 1 || yIn.cols() < 1)
        throw InvalidParameter("mutual information needs two samples of the same length");
    if (k < 1 || n <= k)
        throw InvalidParameter("mutual information needs more observations than neighbours k");
    if (!xIn.allFinite() || !yIn.allFinite())
        throw InvalidParameter("mutual information: the samples hold values that are not finite");

    const Eigen::MatrixXd x = unitVariance(xIn), y = unitVariance(yIn);
    // Marginal distances once: the joint max-norm distance is their maximum.
    Eigen::MatrixXd dx(n, n), dy(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = j; i < n; ++i) {
            dx(i, j) = dx(j, i) = maxNormDistance(x, i, j);
            dy(i, j) = dy(j, i) = maxNormDistance(y, i, j);
        }
    std::vector<double> joint(static_cast<std::size_t>(n - 1));
    double sum = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        std::size_t m = 0;
        for (Eigen::Index j = 0; j < n; ++j)
            if (j != i)
                joint[m++] = std::max(dx(i, j), dy(i, j));
        std::nth_element(joint.begin(), joint.begin() + (k - 1), joint.end());
        const double eps = joint[std::size_t(k - 1)];
        Eigen::Index nx = 0, ny = 0;
        for (Eigen::Index j = 0; j < n; ++j) {
            if (j == i)
                continue;
            nx += dx(i, j) < eps;
            ny += dy(i, j) < eps;
        }
        sum += boost::math::digamma(double(nx + 1)) + boost::math::digamma(double(ny + 1));
    }
    return boost::math::digamma(double(k)) + boost::math::digamma(double(n)) - sum / double(n);
}

} // namespace evx::stats
