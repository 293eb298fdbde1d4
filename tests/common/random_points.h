#pragma once
// n points uniform in [lo, hi]^d from a fixed seed, for the GP tests.
#include <Eigen/Core>

#include <random>

namespace evx::testing {

inline Eigen::MatrixXd randomPoints(int n, int d, double lo, double hi, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    Eigen::MatrixXd x(n, d);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < d; ++k)
            x(i, k) = u(rng);
    return x;
}

} // namespace evx::testing
