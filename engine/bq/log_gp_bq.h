#pragma once
// Log-GP Bayesian quadrature (BQ paper Sec. 1.1–1.2, METHODS.md §2), one-dimensional.
//
// A GP on log ℓ (Gaussian kernel) with a concave quadratic prior mean q(x) fitted to the samples
// by least squares (log-likelihoods are close to quadratic near their mode, Bernstein–von Mises):
// with a constant mean the GP must explain a parabola of depth hundreds by its output scale,
// and V_logℓ/2 in m_exp below becomes hundreds too, so that m_exp is dominated by e^{V/2} far
// from the data. Far from the samples q levels off at the smallest observed log ℓ instead of
// falling without bound; if the fit is not concave (or n < 3) q is that constant. At candidate
// points x_c (the samples plus extra points where ℓ·p matters)
//   m_exp(x_c) = exp(m_logℓ(x_c) + V_logℓ(x_c)/2)                                   (1.7–1.9)
// (with V capped at 4 and log m_exp at max log ℓ + 2, see log_gp_bq.cpp: departures from the
// paper, made for robustness)
// and a second GP ℓ̄ (Gaussian kernel h_ℓ N(x | x', A_ℓ), zero mean) interpolates them;
//   Z_0 = zᵀK_ℓ⁻¹ m_exp = h_ℓ Σ_i β_i N(x_i | b, A_ℓ + B)                            (1.10–1.11, 1.35–1.39)
// Linearising Z around the log-GP mean (Sec. 1.2.2):
//   V[Ẑ] ≈ ∬ Cov_logℓ(x, x') ℓ̄(x) ℓ̄(x') p(x) p(x') dx dx'                          (1.52–1.57)
// by the trapezoid rule on a uniform grid fine against every lengthscale involved (the closed
// form in ℓ̄'s weights cancels catastrophically, see gridMoments), and never below the
// rounding resolution of its two terms, so the sd is positive.
// The reported V[Ẑ] (issue 13, calibration) adds the square of the error of interpolating m_exp
// by ℓ̄, measured on the same grid (it used to be 10–100 sd on a peaked ℓ):
//   V[Ẑ] = V_lin + (Z_0 − ∫ m_exp p)².
// On request the log-GP's exact variance of Z (log-normal moments, e^{Cov} − 1 in place of Cov,
// m_exp in place of ℓ̄) is computed on that grid too, to say when the linearisation is far off.
// Pointwise band (1.58): V[ℓ̄(x)] = V_logℓ(x) ℓ̄(x)².
//
// Values are carried relative to exp(shift), shift = the largest log m_exp seen, so a
// likelihood of e⁻⁵⁰⁰ or e⁵⁰⁰ neither underflows nor overflows.

#include "bq/bayes_quadrature.h"
#include "bq/gaussian_measure.h"
#include "gp/gp_regression.h"

#include <cmath>
#include <limits>
#include <vector>

namespace evx::bq {

// q(x) = log(exp(c0 + c1 x + c2 x²) + exp(floor)) with c2 < 0 and floor = min log ℓ (a parabola
// that levels off where nothing was sampled, see log_gp_bq.cpp), or the constant min log ℓ.
struct LogMean {
    double c0 = 0, c1 = 0, c2 = 0;
    double floor = -std::numeric_limits<double>::infinity();
    double operator()(double x) const
    {
        const double quad = c0 + (c1 + c2 * x) * x;
        return quad > floor ? quad + std::log1p(std::exp(floor - quad))
                            : floor + std::log1p(std::exp(quad - floor));
    }
    static LogMean fit(const Eigen::VectorXd& x, const Eigen::VectorXd& logL);
};

class LogGpBq {
public:
    // x: the sample locations (one column), logL: log ℓ there (finite), logKernel: a Gaussian
    // kernel for the GP on log ℓ (already fitted, or with the wanted lengthscale).
    // exactMoments: also compute exactVarianceScaled() (a diagnostic, O(P²) on the variance grid).
    LogGpBq(const Eigen::MatrixXd& x, const Eigen::VectorXd& logL, const GaussianMeasure& p,
            const gp::Kernel& logKernel, bool exactMoments = false);

    double logShift() const { return m_shift; }
    ZEstimate estimate() const;              // Z_0 and the linearised V[Ẑ]
    double z0Scaled() const { return m_z0; } // Z_0·exp(−shift)
    // V[Ẑ]·exp(−2 shift): the linearised variance plus the square of the interpolation error.
    double varianceScaled() const { return m_linearised + std::pow(m_z0 - m_directZ, 2); }
    double linearisedVarianceScaled() const { return m_linearised; }
    // ∫ m_exp p dx on the variance grid, times exp(−shift): what Z_0 approximates.
    double directZScaled() const { return m_directZ; }
    // The log-GP's exact variance of Z (log-normal moments on the same grid), times exp(−2 shift);
    // 0 unless asked for (exactMoments) or when below its rounding bound.
    double exactVarianceScaled() const { return m_exactVariance; }
    double jitter() const; // largest jitter of the two GPs

    // At each x: ℓ̄(x), V_logℓ(x), both unshifted; band = 2·sqrt(V_logℓ)·ℓ̄.
    void evaluate(const std::vector<double>& x, std::vector<double>& lbar, std::vector<double>& vlog) const;
    // Uncertainty-sampling acquisition V_logℓ(x)·ℓ̄(x)²·p(x)², times exp(−2 shift).
    std::vector<double> acquisition(const std::vector<double>& x) const;

    // The GP on the residual log ℓ − q (zero prior mean); the log-GP is q plus this GP.
    const gp::GpRegression& logGp() const { return m_log; }
    const LogMean& logMean() const { return m_q; }
    void predictLog(const Eigen::MatrixXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& variance) const;
    const gp::GpRegression& lbarGp() const { return m_lbar; }
    const Eigen::MatrixXd& candidates() const { return m_lbar.inputs(); }

private:
    // Sets m_linearised, m_directZ and m_exactVariance (see log_gp_bq.cpp).
    void gridMoments(double lo, double hi, double feature, double logCap);

    bool m_exactMoments;
    GaussianMeasure m_p;
    LogMean m_q;
    gp::GpRegression m_log;
    gp::GpRegression m_lbar;
    double m_shift = 0;
    double m_z0 = 0;
    double m_linearised = 0, m_directZ = 0, m_exactVariance = 0;
};

// The same acquisition with ℓ̄ replaced by the m_exp it interpolates, from the log-GP alone
// (no candidates, no second GP): what active sampling evaluates at every step. mean and
// variance are the log-GP's prediction of log ℓ − q at x (a FixedPointPredictor's, as the grid
// is fixed); values are times exp(−2 shift); shift must be the largest observed log ℓ.
// varianceFactor multiplies the variances (ĥ when the log-GP runs at unit output scale).
std::vector<double> logGpAcquisition(const Eigen::VectorXd& mean, const Eigen::VectorXd& variance,
                                     double varianceFactor, const LogMean& q, const GaussianMeasure& p,
                                     const std::vector<double>& x, double shift);

} // namespace evx::bq
