#pragma once
// The exact evidence of a DP mixture (dp_mixture.h) for n ≤ 14 points (METHODS.md §2b): a sum over
// the set partitions of the points,
//   p(x) = Σ_partitions CRP(partition | α) Π_{B} m(B),
//   CRP(partition | α) = α^K Γ(α)/Γ(α + n) Π_B Γ(|B|),
// by the subset recursion F(S) = Σ_{B ⊆ S, B ∋ min S} α Γ(|B|) m(B) F(S \ B), F(∅) = 1,
// p(x) = F(all) Γ(α)/Γ(α + n): O(3ⁿ) after log m(B) is tabulated for all 2ⁿ subsets. Fixing the
// lowest remaining point in the next block counts every partition once. Carrying the number of
// blocks K along, F_K(S) = Σ_B α Γ(|B|) m(B) F_{K−1}(S \ B), gives P(K | x) = F_K(all)/F(all).
// The recursion runs on exp(log w(B) − c|B|) with c the largest log w(B)/|B| (every factor ≤ 1,
// the constant e^{−cn} shared by all partitions) and falls back to log space if that underflows.
// Student-t tables integrate every subset's m(B) with one composite 8-point Gauss–Legendre rule
// over μ (panels 0.2σ wide at the points, 0.2σ_p over the base means, widening away from both),
// the per-node sums built subset by subset; tests hold it to the per-block adaptive quadrature.

#include "bq/structured/dp_mixture.h"

#include <vector>

namespace evx::bq::structured {

inline constexpr int kDpExactMaxPoints = 14;
inline constexpr int kDpEnumerationMaxPoints = 10;

// Throws InvalidParameter naming the limit when x has more than kDpExactMaxPoints points (or none).
void checkDpExactSize(int n);

// log m(B) for every subset B of x as a bit mask (index 0, the empty set, holds 0).
std::vector<double> dpLogBlockMarginals(const std::vector<double>& x, const DpSettings& settings);

// log p(x) from a table of log m(B) over the 2ⁿ subsets.
double dpLogEvidenceFromBlocks(const std::vector<double>& logBlockMarginals, int n, double alpha);

double dpExactLogEvidence(const std::vector<double>& x, const DpSettings& settings);

// The exact log evidence over a grid of base means λ (other settings as given). Gaussian components
// reuse each subset's sums, so a 41-point grid at n = 14 costs 41 recursions.
std::vector<double> dpExactLogEvidenceOverBaseMeans(const std::vector<double>& x, const DpSettings& settings,
                                                    const std::vector<double>& baseMeans);
// The exact log evidence with Student-t components over a grid of dof values.
std::vector<double> dpExactLogEvidenceOverDofs(const std::vector<double>& x, const DpSettings& settings,
                                               const std::vector<double>& dofs);

// P(K = k | x) for k = 0..n (entry 0 is 0).
std::vector<double> dpBlockCountPosterior(const std::vector<double>& x, const DpSettings& settings);

// log CRP(partition | α) for block labels (any labelling; blocks are the distinct labels).
double dpLogCrp(const std::vector<int>& labels, double alpha);

// The same evidence by listing every set partition (restricted growth strings) and each block's
// marginal computed on its own, n ≤ kDpEnumerationMaxPoints: an independent check for tests.
double dpEnumeratedLogEvidence(const std::vector<double>& x, const DpSettings& settings);

} // namespace evx::bq::structured
