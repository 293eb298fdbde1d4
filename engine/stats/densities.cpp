#include "stats/densities.h"

#include <boost/math/special_functions/digamma.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace evx::stats {

double logSumExp(std::span<const double> values)
{
    double m = -std::numeric_limits<double>::infinity();
    for (const double v : values)
        m = std::max(m, v);
    if (!std::isfinite(m))
        return m;
    double s = 0;
    for (const double v : values)
        s += std::exp(v - m);
    return m + std::log(s);
}

double logSumExp(const Eigen::ArrayXd& values)
{
    return logSumExp(std::span<const double>(values.data(), static_cast<std::size_t>(values.size())));
}

double normalLogPdf(double y, double mean, double sd)
{
    const double z = (y - mean) / sd;
    return -0.5 * z * z - std::log(sd) - kHalfLog2Pi;
}

double normalLogPdfVar(double y, double mean, double variance)
{
    return -0.5 * (y - mean) * (y - mean) / variance - 0.5 * std::log(2 * std::numbers::pi * variance);
}

double normalPdf(double y, double mean, double sd)
{
    const double z = (y - mean) / sd;
    return std::exp(-0.5 * z * z) / (sd * std::sqrt(2 * std::numbers::pi));
}

double normalPdfVar(double y, double mean, double variance)
{
    return std::exp(-0.5 * (y - mean) * (y - mean) / variance) / std::sqrt(2 * std::numbers::pi * variance);
}

// std::lgamma rather than boost::math::lgamma: the engine's numbers were produced with it, and
// the two differ in the last bits.
double logBeta(double a, double b)
{
    return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b);
}

double betaBinomialLogPmf(int y, int n, double alpha, double beta)
{
    // Kept as one sum (not through logBeta) so that its rounding, and the rats tables built on it,
    // stay what they were.
    const double logChoose = std::lgamma(n + 1.0) - std::lgamma(y + 1.0) - std::lgamma(n - y + 1.0);
    return logChoose + std::lgamma(alpha + y) + std::lgamma(beta + n - y) - std::lgamma(alpha + beta + n) -
           (std::lgamma(alpha) + std::lgamma(beta) - std::lgamma(alpha + beta));
}

double klBeta(double a1, double b1, double a2, double b2)
{
    using boost::math::digamma;
    const double kl = logBeta(a2, b2) - logBeta(a1, b1) + (a1 - a2) * digamma(a1) + (b1 - b2) * digamma(b1) +
                      (a2 - a1 + b2 - b1) * digamma(a1 + b1);
    return std::max(kl, 0.0);
}

} // namespace evx::stats
