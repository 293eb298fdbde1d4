#pragma once
// Bayesian quadrature of Z = ∫ ℓ(x) p(x) dx with a GP on ℓ (BQ paper eq. 1.63–1.66):
//   E[Z] = m + zᵀK⁻¹(y − m),   V[Z] = V_prior − zᵀK⁻¹z,
// with z and V_prior from bq/kernel_means.h (closed form for the Gaussian kernel).
// With the output scale integrated out (Sec. 1.10) the GP is kept at h = 1 and
//   V[Z] = ĥ (V₁ − z₁ᵀK₁⁻¹z₁),   ĥ = (y−m)ᵀK₁⁻¹(y−m)/n,
// while E[Z] does not depend on h.

#include "bq/gaussian_measure.h"
#include "gp/fixed_point_predictor.h"
#include "gp/gp_regression.h"

#include <optional>

namespace evx::bq {

struct ZEstimate {
    double mean = 0;
    double variance = 0;
    double sd() const;
};

ZEstimate bqEstimate(const gp::GpRegression& gp, const GaussianMeasure& p);

// BQ that grows one sample at a time: each add() extends the Cholesky factor (O(n²)) and
// updates z; estimate() is O(n²) (one triangular solve), never a refit.
class IncrementalBq {
public:
    IncrementalBq(const gp::Kernel& kernel, GaussianMeasure p, bool integrateOutputScale,
                  double priorMean = 0);

    void add(const Eigen::VectorXd& x, double y);
    // All samples at once (replacing any): one blocked factorisation instead of n row appends
    // (a refit's rebuild at n = 150 was 7 % of a bq-2d-marginal run). The same model as adding
    // the rows one by one, to rounding, unless K needs jitter: a full factorisation adds it only
    // when Cholesky fails, an append already when a pivot falls below 1e-13 k(x, x).
    void setData(const Eigen::MatrixXd& x, const Eigen::VectorXd& y);
    // A new kernel and all samples: a new IncrementalBq given setData, but the acquisition grid's
    // storage is kept. Allocated anew at each refit of an active bq-2d-marginal run, its 2 MB
    // were a sixth of the run in page faults alone.
    void setKernelAndData(const gp::Kernel& kernel, const Eigen::MatrixXd& x, const Eigen::VectorXd& y);
    // How many samples the run will hold, if known: the factor's and the acquisition grid's
    // storage are then allocated once rather than regrown (FixedPointPredictor::reserve).
    void expectSamples(int n);
    ZEstimate estimate() const;
    const gp::GpRegression& gp() const { return m_gp; }
    double outputScale() const; // ĥ when integrated out, else the kernel's h
    // V[Z] removed by sampling at each row of xs (the value there need not be known):
    //   (z(x) − k(x, X)K⁻¹z)² / var(x), scaled like V[Z]. Active GP-BQ picks its maximum.
    // Asked again with the same xs (a fixed acquisition grid), it updates L⁻¹k(X, xs) by the
    // rows added since (FixedPointPredictor) instead of solving anew.
    Eigen::VectorXd varianceReduction(const Eigen::MatrixXd& xs) const;
    // Mean and variance of the GP on ℓ at the rows of xs (variance scaled like V[Z]).
    void predict(const Eigen::MatrixXd& xs, Eigen::VectorXd& mean, Eigen::VectorXd& variance) const;

private:
    double varianceFactor() const;

    gp::GpRegression m_gp;
    GaussianMeasure m_p;
    bool m_integrate;
    int m_expectedSamples = 0; // a storage hint (expectSamples), 0 if none
    double m_priorVariance;
    Eigen::VectorXd m_z;
    // The last acquisition grid and its kernel means z(xs): a cache, hence mutable.
    mutable std::optional<gp::FixedPointPredictor> m_grid;
    mutable Eigen::VectorXd m_gridMeans;
    // Vᵀa and the column norms ‖V_{:,s}‖² over the rows of V = L⁻¹k(X, xs) that m_gridCovered
    // covers, a = L⁻¹z. A row append leaves the earlier rows of V and entries of a as they were,
    // so each sample adds its row's terms: O(m) instead of the O(n·m) products (a fifth of an
    // active bq-2d-marginal run at n = 150, m = 961).
    mutable Eigen::VectorXd m_gridProjection, m_gridNorms;
    mutable gp::FactorRows m_gridCovered;
    // L⁻¹z and L⁻¹(y − m): V[Z] and, with h integrated out, ĥ = h‖L⁻¹(y − m)‖²/n at each
    // acquisition without a triangular solve (nor α, which ĥ = h(y − m)ᵀα/n would need).
    mutable gp::WhitenedVector m_whitenedMeans, m_whitenedResidual;
};

} // namespace evx::bq
