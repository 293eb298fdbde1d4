// Helpers shared by the Bayesian-quadrature test suites: brute-force integrals to check the
// closed forms against.
#pragma once

#include "bq/bayes_quadrature.h"
#include "bq/designs.h"
#include "bq/kernel_means.h"
#include "bq/log_gp_bq.h"
#include "bq/marginal_gp.h"
#include "bq/quadrature_study.h"
#include "scenarios/quadrature/integrands.h"
#include "scenarios/registry.h"

#include <QtTest>
#include <boost/math/quadrature/gauss_kronrod.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

namespace evx::bq_test {

using namespace evx::bq;
using boost::math::quadrature::gauss_kronrod;

inline double integrate(const std::function<double(double)>& f, double a, double b, int panels = 40)
{
    double s = 0;
    for (int k = 0; k < panels; ++k)
        s += gauss_kronrod<double, 31>::integrate(f, a + (b - a) * k / panels, a + (b - a) * (k + 1) / panels,
                                                  10, 1e-13);
    return s;
}

inline double normalPdf(double x, double m, double sd)
{
    return std::exp(-0.5 * std::pow((x - m) / sd, 2)) / (sd * std::sqrt(2 * std::numbers::pi));
}

inline double peakedLog(double x)
{
    return -0.5 * std::pow((x - 0.6) / 0.15, 2);
}

// Brute-force V[Ẑ] = Σ_ij u_i u_j Cov_logℓ(x_i, x_j), u = trapezoid weight · ℓ̄ · p, on 801 points
// over p's ±8 sd, with the covariance and ℓ̄ taken from the model's two GPs pointwise.
inline double bruteForceVariance(const LogGpBq& model, double b, double sd)
{
    const int n = 801;
    std::vector<double> g(n);
    for (int i = 0; i < n; ++i)
        g[size_t(i)] = b - 8 * sd + 16.0 * sd * i / (n - 1);
    std::vector<double> lbar, vlog;
    model.evaluate(g, lbar, vlog);
    const Eigen::MatrixXd gx = Eigen::Map<const Eigen::MatrixXd>(g.data(), n, 1);
    const gp::GpRegression& lg = model.logGp();
    const Eigen::MatrixXd v = lg.factor().solveL(lg.kernel().matrix(lg.inputs(), gx));
    const Eigen::MatrixXd cov = lg.kernel().matrix(gx) - v.transpose() * v;
    Eigen::VectorXd u(n);
    const double h = 16.0 * sd / (n - 1);
    for (int i = 0; i < n; ++i)
        u[i] = (i == 0 || i == n - 1 ? 0.5 : 1.0) * h * lbar[size_t(i)] * normalPdf(g[size_t(i)], b, sd);
    return u.dot(cov * u);
}

// Brute force of the log-GP's own moments of Z on the same 801 points: ∫ m_exp p and
// ∬ m_exp m_exp' (e^{Cov} − 1) p p', with m_exp = exp(m + min(V, 4)/2) capped at max log ℓ + 2
// and e^{Cov} at e⁴, as LogGpBq caps them; both times exp(−shift), resp. exp(−2 shift).
inline std::pair<double, double> bruteForceLogNormalMoments(const LogGpBq& model, double b, double sd,
                                                            double maxLogL)
{
    const int n = 801;
    Eigen::MatrixXd gx(n, 1);
    for (int i = 0; i < n; ++i)
        gx(i, 0) = b - 8 * sd + 16.0 * sd * i / (n - 1);
    Eigen::VectorXd m, v;
    model.predictLog(gx, m, v);
    const gp::GpRegression& lg = model.logGp();
    const Eigen::MatrixXd w = lg.factor().solveL(lg.kernel().matrix(lg.inputs(), gx));
    const Eigen::MatrixXd cov = lg.kernel().matrix(gx) - w.transpose() * w;
    Eigen::VectorXd u(n);
    const double h = 16.0 * sd / (n - 1);
    for (int i = 0; i < n; ++i)
        u[i] = (i == 0 || i == n - 1 ? 0.5 : 1.0) * h * normalPdf(gx(i, 0), b, sd) *
               std::exp(std::min(m[i] + 0.5 * std::min(v[i], 4.0), maxLogL + 2) - model.logShift());
    const Eigen::MatrixXd e = cov.unaryExpr([](double c) { return std::expm1(std::min(c, 4.0)); });
    return {u.sum(), u.dot(e * u)};
}

} // namespace evx::bq_test
