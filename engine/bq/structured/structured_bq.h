#pragma once
// Bayesian quadrature over a structured domain from kernel matrices alone (BQ paper Sec. 1.5,
// 1.10; METHODS.md §2b). The integrand f(x) = p(data | x) is known at samples x_1..x_S (Gibbs
// draws, prior draws or both); the measure p(x) is the prior. Everything the GP needs is
//   K = k(X, X), z_s = ∫ k(x_s, g) p(g) dg, V = ∬ k(g, g') p(g) p(g') dg dg',
// given per hyperparameter setting (GramSet) by the kernels (paper_kernels.h, mmd/gram kernels),
// in closed form or by Monte Carlo over prior draws g_1..g_M (then also k(X, g) and k(g, g') for
// WSABI-L).
//
// Transform None: a GP on f (scaled by exp(−max log f)), output scale h integrated out:
//   E[Z] = zᵀK⁻¹f,  V[Z] = (fᵀK⁻¹f / n)(V − zᵀK⁻¹z) · n/(n − 2)   (Student-t, as LengthscaleMixtureBq).
// Transform Wsabi (WSABI-L, Gunter et al. 2014): a GP on f̃ = √(2(f − a)), a = 0.8 min f, and
//   f ≈ a + ½ m̃², so E[Z] = a + ½ ∫ m̃(g)² p(g) dg and V[Z] = ∬ m̃(g) C(g, g') m̃(g') p p, both by
//   Monte Carlo over the prior draws (C the GP's posterior covariance, h integrated out likewise).
//   The constant a integrates to a over the whole prior, whatever mass the draws' weights carry.
// Hyperparameters: a discrete grid (one GramSet each) averaged by marginal likelihood
//   π_w ∝ |K_w|^{-1/2} (yᵀK_w⁻¹y)^{-n/2}, E = Σ π_w E_w, V = Σ π_w (V_w + E_w²) − E².
// Each K is factored once (gp::CheckedCholesky); a new f costs one solve per grid point, and
// the first n samples' estimate uses the leading n × n block of each factor (no refactoring),
// except where the full factor needed jitter: the leading block is then refactored on its own
// (once per n, cached), so the estimate equals that of a StructuredBq built on those n samples.
// WSABI-L's sums over the draws (O(nM) per grid point) are skipped for grid points whose weight
// is below e^{-40} of the largest: the weights come first, from the one solve each needs anyway.

#include "bq/structured/structures.h"

#include <Eigen/Dense>

#include <memory>
#include <string>
#include <vector>

namespace evx::bq::structured {

struct GramSet {
    std::vector<double> hyper; // the hyperparameters, for display and tests (e.g. {w, ℓ})
    Eigen::MatrixXd k;         // k(x_s, x_t), S × S, output scale 1
    Eigen::VectorXd z;         // ∫ k(x_s, g) p(g) dg, S
    double v = 0;              // ∬ k(g, g') p(g) p(g')
    // WSABI-L only (empty otherwise): k(x_s, g_m) (S × M) and k(g_m, g_m') (M_v × M_v) over the
    // prior draws, with their weights (1/M each for Monte Carlo, P(g) for an enumeration).
    // kDrawsDraws may cover only the first M_v ≤ M draws (memory: M × M at M = 2000 is 32 MB per
    // grid point); the variance then uses those, their weights scaled up to all the draws' mass.
    Eigen::MatrixXd kDraws;
    Eigen::MatrixXd kDrawsDraws;
    Eigen::VectorXd drawWeights;
    // The draws are independent prior draws (Monte Carlo), not an enumeration: WSABI-L's E[Z] is
    // then itself a Monte Carlo average, and its variance Σ_m W_m² (h_m − h̄)², h = a + ½m̃², is
    // added to V[Z] (the GP's linearised variance alone covered 66–76 % on bq-dp-mixture).
    bool monteCarloDraws = false;
};

enum class Transform { None, Wsabi };

struct StructuredEstimate {
    // The estimates are of Z·exp(−logScale), logScale = the largest log f among the samples used.
    double logScale = 0;
    double mean = 0;
    double variance = 0;
    std::vector<double> weights; // posterior weight of each GramSet, summing to 1
    double sd() const;
    bool negative() const { return !(mean > 0); }
    double logMean() const; // logScale + log(mean); NaN when the mean is not positive
    double jitter = 0;      // the largest jitter a factor needed among the weighted sets
};

class StructuredBq {
public:
    StructuredBq(std::vector<GramSet> grid, Transform transform);

    int samples() const;
    Transform transform() const { return m_transform; }
    const std::vector<GramSet>& grid() const { return m_grid; }

    // logF[s] = log f(x_s) for the first n = logF.size() samples (n ≤ samples(), n ≥ 3).
    StructuredEstimate estimate(const Eigen::VectorXd& logF) const;

private:
    std::vector<GramSet> m_grid;
    Transform m_transform;
    struct Factor; // one CheckedCholesky per grid point, kept behind a pointer
    std::vector<std::shared_ptr<const Factor>> m_factors;
};

} // namespace evx::bq::structured
