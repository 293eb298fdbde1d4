#pragma once
// Kernels between IBP feature matrices, as GramSets for StructuredBq.
//
// The paper's (1.70): k(Z, Z') = Σ_k Σ_k' Σ_n Z_nk Z'_nk' = Σ_n r_n r'_n (r_n: ones in row n), with
// z(Z) = α Σ_n r_n (1.72, K' → ∞) and V = α² N (1.73). Rank ≤ N, and Z = I₂ and Z = [1; 1] correlate
// 1 while their likelihoods differ by 6 nats: it breaks Sec. 1.6's own rule (METHODS.md §2b).
//
// The kernel that works: the likelihood depends on Z only through ZZᵀ, so
//   k(Z, Z') = exp(−‖ZZᵀ − Z'Z'ᵀ‖²_F / 2ℓ²),
// z and V over a weighted prior support: Monte Carlo draws (weight 1/M each) or, for N ≤ 5, the
// exact enumeration of ZZᵀ with its prior probability (ibp_enumeration.h).

#include "bq/structured/structured_bq.h"

namespace evx::bq::structured {

// Distances: ‖ZZᵀ − Z'Z'ᵀ‖²_F from one product of the N²-vectors. Lengthscales are relative:
// ℓ = ℓ_rel · d̄, d̄² = E‖A − B‖²_F for A, B independent prior draws of ZZᵀ (GramSet::hyper =
// {ℓ_rel, ℓ}). z_s = Σ_g w_g k(Z_s, g). Exact prior: V = Σ_gg' w_g w_g' k (every pair). Monte
// Carlo (weights 1/M): V averages k over distinct pairs, all for M ≤ 2·kGramPairOffsets + 1, else
// (m, m + o mod M), o = 1..kGramPairOffsets. withDraws: kDraws over all M support points,
// kDrawsDraws over the first kGramVarianceDraws (an enumeration sorted heaviest first).
inline constexpr long kGramPairOffsets = 64;
inline constexpr long kGramVarianceDraws = 500;

std::vector<double> defaultGramLengthscales();

GramSet paperFeatureGram(const std::vector<FeatureMatrix>& samples, double alpha);

// A point of the prior's support in the only form the likelihood sees: ZZᵀ (N × N) and its weight.
struct WeightedGram {
    Eigen::MatrixXd zzt;
    double weight = 0;
};

// One GramSet per ℓ. exactPrior: the support is an enumeration (V sums every pair, the diagonal
// included); otherwise independent Monte Carlo draws (V over distinct pairs, unbiased).
std::vector<GramSet> gramFeatureGrams(const std::vector<FeatureMatrix>& samples,
                                      const std::vector<WeightedGram>& prior,
                                      const std::vector<double>& lengthscales, bool withDraws,
                                      bool exactPrior);

} // namespace evx::bq::structured
