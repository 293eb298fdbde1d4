#pragma once
// Shared by the test_bnn_* suites: Depeweg-like data (METHODS.md §5, f = 7 sin x + 3|cos(x/2)| z),
// a comparison that prints both numbers, and a central-difference gradient check.
#include "compare_near.h"
#include <QtTest>

#include <Eigen/Core>

#include <cmath>
#include <functional>
#include <random>

namespace evx::testing {

struct DepewegLike {
    Eigen::MatrixXd x; // N × 1
    Eigen::VectorXd y, z;
};

// x from the equal mixture of N(−4, 0.16), N(0, 0.81), N(4, 0.16); z ~ N(0, 1); σ_ε² = 0.1.
inline DepewegLike depewegLike(int n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    std::uniform_int_distribution<int> component(0, 2);
    DepewegLike d{Eigen::MatrixXd(n, 1), Eigen::VectorXd(n), Eigen::VectorXd(n)};
    const double centre[3] = {-4, 0, 4}, sd[3] = {0.4, 0.9, 0.4};
    for (int i = 0; i < n; ++i) {
        const int k = component(rng);
        const double x = centre[k] + sd[k] * normal(rng);
        d.x(i, 0) = x;
        d.z(i) = normal(rng);
        d.y(i) = 7 * std::sin(x) + 3 * std::fabs(std::cos(x / 2)) * d.z(i) + std::sqrt(0.1) * normal(rng);
    }
    return d;
}

struct GradientCheck {
    double worstError = 0; // |fd − analytic| / (absTol + relTol |analytic|), ≤ 1 passes
    Eigen::Index worstIndex = -1;
    double fd = 0, analytic = 0;
};

// Central differences of f along every coordinate of x (step h), against the analytic gradient.
inline GradientCheck checkGradient(const std::function<double(const Eigen::VectorXd&)>& f, Eigen::VectorXd x,
                                   const Eigen::VectorXd& analytic, double h, double absTol, double relTol)
{
    GradientCheck c;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double keep = x(i);
        x(i) = keep + h;
        const double up = f(x);
        x(i) = keep - h;
        const double down = f(x);
        x(i) = keep;
        const double fd = (up - down) / (2 * h);
        const double error = std::fabs(fd - analytic(i)) / (absTol + relTol * std::fabs(analytic(i)));
        if (error > c.worstError)
            c = {error, i, fd, analytic(i)};
    }
    return c;
}

} // namespace evx::testing

#define EVX_VERIFY_GRADIENT(check)                                                                           \
    QVERIFY2((check).worstError <= 1,                                                                        \
             qPrintable(QString("coordinate %1: finite difference %2, analytic %3 (%4× the tolerance)")      \
                            .arg((check).worstIndex)                                                         \
                            .arg((check).fd, 0, 'g', 12)                                                     \
                            .arg((check).analytic, 0, 'g', 12)                                               \
                            .arg((check).worstError, 0, 'g', 3)))
