#pragma once
// The NCAI penalties of bnn-latent-variables-ncai, Eq. 27 (App. D), as corrected in METHODS.md §5,
// on the latent means μ = {μ_n} (one latent per datum):
//
//   λ1 N ⊕exp(HZ(μ)/ε_T) + λ2 N ‖offdiag Σ̂(μ)‖ + λ3 N ⊕exp(|PC(x, μ)|/ε_x + |PC(y, μ)|/ε_y)
//
// - HZ is the Henze–Zirkler statistic of stats/normality.h (biased covariance, the standard
//   β = (1/√2)((2k + 1)N/4)^{1/(k+4)}), here for k = 1 with its gradient. HZ depends on μ only
//   through u = (μ − μ̄)/sd(μ), so ∂HZ/∂μ_j = (g_j − ḡ − u_j·mean(g ⊙ u))/sd with g = ∂HZ/∂u.
//   It is undefined when the μ are all equal (the warm start's μ = 0): the term is then
//   skipped (value 0, no gradient) until the first step spreads them.
// - PC(a, μ) is Pearson's correlation, averaged over the columns of a as |corr| (the paper's
//   Eq. 24 averages signed correlations; without the absolute value the penalty rewards
//   negative correlation, and with D > 1 signed ones could cancel).
// - ‖offdiag Σ̂‖ is the Frobenius norm of the off-diagonal part of the K × K sample covariance
//   of the latent means. With one latent per datum (K = 1) Σ̂ is 1 × 1: the term is identically
//   zero and contributes nothing. It is implemented for K ≥ 1 so the formula is there and tested
//   if latents ever get more dimensions.
// - ⊕exp is the capped exponential: e^t up to t = cap, then e^cap (1 + t − cap), continuing
//   linearly with a continuous derivative. Uncapped, HZ/ε_T ≈ 137/0.01 makes the penalty and its
//   gradient overflow and fills Adam's second-moment estimate (METHODS.md §5).

#include <Eigen/Core>

namespace evx::bnn {

struct NcaiPenaltyOptions {
    double lambda1 = 1, lambda2 = 10, lambda3 = 1; // λ2 as the paper; λ1, λ3 not given there
    double epsT = 0.01, epsX = 0.5, epsY = 1.0;    // the paper's Depeweg values (Tables 15, 22)
    double expCap = 10;
    // The penalties' gradient on μ is rescaled so its root-mean-square over the N latents is at
    // most this (it preserves the direction): beyond the cap the penalty's slope is
    // e^10 λ N/ε_T ≈ 2e6 N per unit of HZ and would drown the likelihood's O(1–10) per datum.
    double gradientClip = 10;
};

double cappedExp(double t, double cap, double* derivative = nullptr);

struct DifferentiableValue {
    double value = 0;
    Eigen::VectorXd gradient; // with respect to the argument differentiated
    bool defined = true;
};

// Henze–Zirkler of a 1-D sample (N ≥ 2) and its gradient. O(N²) time, O(N) memory.
DifferentiableValue henzeZirkler1d(const Eigen::VectorXd& a, bool wantGradient = true);
// Pearson's correlation of a and b and its gradient with respect to b; undefined (0) when either
// is constant.
DifferentiableValue pearsonCorrelation(const Eigen::VectorXd& a, const Eigen::VectorXd& b);
// ‖offdiag Σ̂(m)‖_F of the rows of m (N × K) and its gradient, flattened column-major (N·K).
DifferentiableValue offDiagonalCovarianceNorm(const Eigen::MatrixXd& m);

struct NcaiPenaltyValue {
    double hz = 0, pcX = 0, pcY = 0, offDiagonal = 0; // the raw statistics
    bool hzDefined = false;
    double hzPenalty = 0, pcPenalty = 0, offDiagonalPenalty = 0;
    double total() const { return hzPenalty + pcPenalty + offDiagonalPenalty; }
};

// The three penalties at latent means mu (N), inputs x (N × D), targets y (N). Adds the exact
// (unclipped) gradient with respect to mu into *gradMu when given.
NcaiPenaltyValue ncaiPenalties(const Eigen::VectorXd& mu, const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                               const NcaiPenaltyOptions& options, Eigen::VectorXd* gradMu);

// Rescales g so that its RMS is at most maxRms; returns the factor applied (≤ 1).
double clipRms(Eigen::Ref<Eigen::VectorXd> g, double maxRms);

} // namespace evx::bnn
