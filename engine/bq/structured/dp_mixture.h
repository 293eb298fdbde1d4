#pragma once
// A Dirichlet-process mixture of 1-D components (BQ paper Sec. 1.7, Fig. 1.5; METHODS.md §2b):
//   x_i ~ Σ_j π_j Comp(μ_j, σ),  G = Σ_j π_j δ_{μ_j} ~ DP(α, N(λ, σ_p²)),
// Comp a Gaussian N(μ, σ²) or a Student-t with location μ, scale σ and ν degrees of freedom.
// Mixing measures are kept in standardised units u = (μ − λ)/σ_p (structures.h).
//
// The marginal of a block B of points sharing one component,
//   m(B) = ∫ Π_{i∈B} Comp(x_i | μ, σ) N(μ | λ, σ_p²) dμ,
// is for Gaussian components the conjugate closed form
//   log m(B) = −½|B| log 2π − (|B| − 1) log σ − ½ log(σ² + |B|σ_p²)
//              − [Σ(x_i − λ)² − σ_p² (Σ(x_i − λ))² / (σ² + |B|σ_p²)] / 2σ²,
// and for Student-t components a 1-D adaptive Gauss–Kronrod quadrature over μ, split at the
// block's points and the prior mean (where its modes are) and scaled by the integrand's largest
// value there, so that it is done in log space.
//
// The likelihood of a mixing measure: log p(x | G) = Σ_i log Σ_j π_j Comp(x_i | λ + σ_p u_j, σ).

#include "bq/structured/structures.h"

#include <cstdint>
#include <vector>

namespace evx::bq::structured {

enum class DpComponents { Gaussian, StudentT };

struct DpSettings {
    double componentSd = 1; // σ
    double baseMean = 0;    // λ
    double baseSd = 3;      // σ_p
    double alpha = 1;       // α
    DpComponents components = DpComponents::Gaussian;
    double dof = 5; // ν, Student-t only
};

// n points drawn from the model at fixed generating settings (σ = 1, λ = 0, σ_p = 3, α = 1,
// Gaussian components) by the CRP, so that the data depend on n and seed only.
std::vector<double> simulateDpData(int n, std::uint64_t seed);

// Throws InvalidParameter when a setting is out of its domain (σ, σ_p, α, ν ≤ 0, non-finite).
void validateDpSettings(const DpSettings& settings);

double dpLogComponentDensity(double x, double mu, const DpSettings& settings);

// log m(B) for the points `block` (any order, at least one point).
double dpLogBlockMarginal(const std::vector<double>& block, const DpSettings& settings);

// log p(x | G) for each measure: for many measures at one setting.
std::vector<double> dpLogLikelihoods(const std::vector<double>& x, const std::vector<MixingMeasure>& measures,
                                     const DpSettings& settings);
double dpLogLikelihood(const std::vector<double>& x, const MixingMeasure& measure,
                       const DpSettings& settings);

// log p(x | G_m) at every base mean λ_g of `baseMeans` (other settings as given): result[g][m].
std::vector<std::vector<double>> dpLogLikelihoodsOverBaseMeans(const std::vector<double>& x,
                                                               const std::vector<MixingMeasure>& measures,
                                                               const DpSettings& settings,
                                                               const std::vector<double>& baseMeans);

} // namespace evx::bq::structured
