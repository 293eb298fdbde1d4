#include "bq/designs.h"

#include "core/errors.h"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

namespace evx::bq {

double radicalInverse(std::uint64_t i, int base)
{
    double result = 0, f = 1.0 / base;
    while (i > 0) {
        result += f * double(i % std::uint64_t(base));
        i /= std::uint64_t(base);
        f /= base;
    }
    return result;
}

Eigen::MatrixXd monteCarloDesign(const GaussianMeasure& p, int n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    // Box–Muller by hand, not std::normal_distribution, so the sequence is the same on every
    // standard library (the draws are part of what a saved session reproduces).
    const int d = p.dimension();
    Eigen::MatrixXd x(n, d);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < d; ++k) {
            const double u1 = 1.0 - double(rng() >> 11) * 0x1.0p-53, u2 = double(rng() >> 11) * 0x1.0p-53;
            const double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
            x(i, k) = p.mean[k] + std::sqrt(p.variance[k]) * z;
        }
    return x;
}

Eigen::MatrixXd quasiRandomDesign(const GaussianMeasure& p, int n, std::uint64_t seed)
{
    const int d = p.dimension();
    if (d > 2)
        throw InvalidParameter("quasi-random designs are implemented for one and two dimensions");
    static constexpr int kBases[2] = {2, 3};
    std::mt19937_64 rng(seed);
    double shift[2];
    for (double& s : shift)
        s = double(rng() >> 11) * 0x1.0p-53;
    const boost::math::normal standard;
    Eigen::MatrixXd x(n, d);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < d; ++k) {
            double u = radicalInverse(std::uint64_t(i) + 1, kBases[k]) + shift[k];
            u -= std::floor(u);
            u = std::clamp(u, 1e-12, 1 - 1e-12);
            x(i, k) = p.mean[k] + std::sqrt(p.variance[k]) * boost::math::quantile(standard, u);
        }
    return x;
}

} // namespace evx::bq
