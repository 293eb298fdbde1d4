#include "stats/normality.h"

#include "core/errors.h"

#include <Eigen/Cholesky>
#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>

namespace evx::stats {

double henzeZirklerBeta(int n, int d)
{
    return std::pow((2.0 * d + 1) * n / 4, 1.0 / (d + 4)) / std::sqrt(2.0);
}

double henzeZirkler(const Eigen::MatrixXd& x)
{
    const Eigen::Index n = x.rows(), d = x.cols();
    if (d < 1 || n <= d)
        throw InvalidParameter("Henze–Zirkler needs more observations than dimensions");
    if (!x.allFinite())
        throw InvalidParameter("Henze–Zirkler: the sample holds values that are not finite");
    const Eigen::RowVectorXd mean = x.colwise().mean();
    const Eigen::MatrixXd centred = x.rowwise() - mean;
    const Eigen::MatrixXd s = centred.transpose() * centred / double(n);
    const Eigen::LLT<Eigen::MatrixXd> llt(s);
    if (llt.info() != Eigen::Success || !(llt.matrixLLT().diagonal().minCoeff() > 0))
        throw NumericalError(
            "Henze–Zirkler: the sample covariance is singular (a constant or collinear sample)");
    // Whitened points: z = L⁻¹(x − x̄), so every Mahalanobis distance is a Euclidean one.
    const Eigen::MatrixXd z = llt.matrixL().solve(centred.transpose()).transpose();
    const double beta = henzeZirklerBeta(int(n), int(d)), b2 = beta * beta;
    double pairs = 0, singles = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        singles += std::exp(-b2 / (2 * (1 + b2)) * z.row(i).squaredNorm());
        pairs += 1; // j = i
        for (Eigen::Index j = i + 1; j < n; ++j)
            pairs += 2 * std::exp(-b2 / 2 * (z.row(i) - z.row(j)).squaredNorm());
    }
    const double dd = double(d);
    return pairs / double(n) - 2 * std::pow(1 + b2, -dd / 2) * singles +
           double(n) * std::pow(1 + 2 * b2, -dd / 2);
}

double henzeZirklerNullMean(int n, int d)
{
    const double b2 = std::pow(henzeZirklerBeta(n, d), 2), a = 1 + 2 * b2, dd = d;
    return 1 - std::pow(a, -dd / 2) * (1 + dd * b2 / a + dd * (dd + 2) * b2 * b2 / (2 * a * a));
}

double kolmogorovSmirnov(std::vector<double> sample, const std::function<double(double)>& cdf)
{
    if (sample.empty())
        throw InvalidParameter("Kolmogorov–Smirnov needs at least one observation");
    std::sort(sample.begin(), sample.end());
    const double n = double(sample.size());
    double worst = 0;
    for (std::size_t i = 0; i < sample.size(); ++i) {
        if (!std::isfinite(sample[i]))
            throw InvalidParameter("Kolmogorov–Smirnov: the sample holds values that are not finite");
        const double f = cdf(sample[i]);
        worst = std::max({worst, double(i + 1) / n - f, f - double(i) / n});
    }
    return worst;
}

double kolmogorovSmirnovNormal(std::vector<double> sample, double sd)
{
    if (!(sd > 0))
        throw InvalidParameter("Kolmogorov–Smirnov: the reference sd must be positive");
    const boost::math::normal_distribution<double> normal(0, sd);
    return kolmogorovSmirnov(std::move(sample), [&](double v) { return boost::math::cdf(normal, v); });
}

} // namespace evx::stats
