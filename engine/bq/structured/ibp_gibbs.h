#pragma once
// Collapsed Gibbs sampling for the linear-Gaussian IBP (Griffiths & Ghahramani 2005; BQ paper
// Sec. 1.8; METHODS.md §2b), the sample designs of bq-ibp, and the short-chain lower bound.
//
// Row n, shared features (m_{−n,k} > 0), the likelihood through the predictive of x_n given the
// other rows (A integrated out; p(X_{−n} | Z_{−n}) does not depend on z_n):
//   P(z_nk = 1 | rest) ∝ m_{−n,k} · p(x_n | z_n, X_{−n}, Z_{−n}),  P(z_nk = 0 | rest) ∝ (N − m_{−n,k}) · …,
//   p(x_n | …) = Π_d N(x_nd | z_n Ā_d, σ_X² (1 + z_n G⁻¹ z_nᵀ)), G = Z_{−n}ᵀZ_{−n} + (σ_X²/σ_A²) I,
//   Ā = G⁻¹ Z_{−n}ᵀ X_{−n}.
// Row n's singleton features stay in place while the shared ones are updated (dropping them first
// is a classic bug: P(K₊ | X) goes wrong). Then they are removed and their number k is drawn
// from its exact conditional, truncated where Poisson(α/N) leaves < 1e-12:
//   P(k) ∝ Poisson(k; α/N) · Π_d N(x_nd | μ_d, s₀ + k σ_A²)   (a singleton adds σ_A² to the variance).
//
// Lower bound (the diagnostic of §2b): the classes a chain visits are distinct terms of
// p(X) = Σ_[Z] P([Z]) p(X | Z), so their sum is a lower bound on p(X).

#include "bq/structured/ibp_model.h"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace evx::bq::structured {

class IbpGibbs {
public:
    // Starts from Z with no features.
    IbpGibbs(Eigen::MatrixXd x, double sigmaX, double sigmaA, double alpha, std::uint64_t seed);

    void sweep();
    const FeatureMatrix& z() const { return m_z; }
    int features() const { return int(m_z.cols()); }

private:
    void updateRow(Eigen::Index n);

    Eigen::MatrixXd m_x;
    double m_sigmaX, m_sigmaA, m_alpha;
    std::mt19937_64 m_rng;
    FeatureMatrix m_z;
};

enum class IbpDesign { Posterior, Prior, Mixed };

struct IbpDesignOptions {
    IbpDesign design = IbpDesign::Mixed;
    int samples = 100;
    int sweepsBetween = 5;                      // Gibbs sweeps between kept posterior samples
    int burnIn = 50;                            // sweeps before the first kept posterior sample
    double sigmaX = 0.5, sigmaA = 1, alpha = 1; // where the chain runs; the prior draws use α
    std::uint64_t seed = 1;
};

// Posterior: Gibbs samples; prior: buffet draws; mixed: alternating, posterior first, so every
// prefix is half of each (± 1). progress(k) is called after the k-th sample (it may throw to
// cancel).
std::vector<FeatureMatrix> ibpDesignSamples(const Eigen::MatrixXd& x, const IbpDesignOptions& options,
                                            const std::function<void(int)>& progress = {});

struct IbpChainBound {
    double logLowerBound = 0; // log Σ over distinct visited classes of P([Z]) p(X | Z)
    int classes = 0;
};
IbpChainBound ibpChainLowerBound(const Eigen::MatrixXd& x, double sigmaX, double sigmaA, double alpha,
                                 int sweeps, std::uint64_t seed);

} // namespace evx::bq::structured
