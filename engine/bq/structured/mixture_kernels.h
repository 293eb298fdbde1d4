#pragma once
// Kernels between mixing measures of a DP mixture (standardised atoms, structures.h), as GramSets
// for StructuredBq.
//
// The paper's (1.74) with the Gaussian atom kernel (1.78), in standardised units (base N(0, 1)):
//   k(G, G') = Σ_ij π_i π'_j N(u_i | u'_j, w²),  z(G) = Σ_i π_i N(u_i | 0, w² + 1) (1.79),
//   V = N(0 | 0, w² + 2) (1.80).
// Bilinear in G while p(x | G) has degree n in G: it cannot follow α, and fails (METHODS.md §2b).
//
// The kernel that works: k(G, G') = exp(−MMD²_w(G, G') / 2ℓ²), MMD²_w the squared RKHS distance of
// the two measures embedded with a Gaussian kernel of width w (permutation- and split-invariant, as
// Sec. 1.6 asks); z and V by Monte Carlo over prior draws of G (dp_prior.h).
//
// MMD² is computed from explicit features: since ∫ e^{−(x−t)²/w²} e^{−(y−t)²/w²} dt = w√(π/2)
// e^{−(x−y)²/2w²}, a measure's feature ψ_G(t_q) = c Σ_i π_i e^{−(u_i − t_q)²/w²} on nodes w/3 apart
// (trapezoid rule, error ~1e-16 relative) turns MMD²_w(G, G') into ‖ψ_G − ψ_G'‖², and all the
// S × S, S × M and M × M distances into matrix products.
// Lengthscales are relative: ℓ = ℓ_rel · d̄_w, d̄_w² the mean MMD²_w between prior draws, so one
// grid serves every w (GramSet::hyper = {w, ℓ_rel, ℓ}). z_s = (1/M) Σ_m k(G_s, g_m); V averages
// k over distinct pairs of draws (unbiased): all pairs for M ≤ 2·kMmdPairOffsets + 1, else the
// pairs (m, m + o mod M), o = 1..kMmdPairOffsets (an incomplete U-statistic). With withDraws,
// kDraws covers all M draws (weights 1/M) and kDrawsDraws the first kMmdVarianceDraws of them
// (structured_bq.h: the WSABI-L variance uses those).

#include "bq/structured/structured_bq.h"

namespace evx::bq::structured {

inline constexpr long kMmdPairOffsets = 64;
inline constexpr long kMmdVarianceDraws = 500;

// Defaults: atom kernel widths w (standardised units) for the paper's kernel; MMD widths w and
// relative lengthscales ℓ_rel for the MMD kernel. Log-spaced.
std::vector<double> defaultPaperWidths();
std::vector<double> defaultMmdWidths();
std::vector<double> defaultMmdLengthscales();

// MMD²_w by the direct double sum over atoms (for tests and checks; O(atoms²)).
double directMmdSquared(const MixingMeasure& a, const MixingMeasure& b, double w);

GramSet paperMixtureGram(const std::vector<MixingMeasure>& samples, double w);

// One GramSet per (w, ℓ) pair, w outer. withDraws adds kDraws, kDrawsDraws (WSABI-L).
std::vector<GramSet> mmdMixtureGrams(const std::vector<MixingMeasure>& samples,
                                     const std::vector<MixingMeasure>& priorDraws,
                                     const std::vector<double>& widths,
                                     const std::vector<double>& lengthscales, bool withDraws);

} // namespace evx::bq::structured
