#pragma once
// Distributional evidence with its normaliser Z(x) (uncertain-evidence paper, Sec. 3.3 and
// App. C.1, with the correction of METHODS.md §1).
//
// For p(y | x) = N(m(x), s(x)²) and q(y) = N(μ_q, σ_q²):
//   pseudo-likelihood  f(x) = exp(∫ ln p(y | x) q(y) dy) = N(μ_q; m(x), s(x)²) · Z(x)
//   normaliser         Z(x) = ∫ f(x) dμ_q = exp(−σ_q² / (2 s(x)²))   (the paper prints s, not s²)
//   exact  (Z known)   p(x | Y~Q) ∝ p(x) f(x) / Z(x) = p(x) N(μ_q; m(x), s(x)²)
//   implied (Z ignored) p(x | Y~Q) ∝ p(x) f(x) = p_a(x) N(μ_q; m(x), s(x)²),
//   adjusted prior     p_a(x) ∝ p(x) Z(x)                                (eq. 7, Thm 3.4)
// When s does not depend on x, Z is constant and both equal exact evidence at y = μ_q.

#include "core/grid.h"
#include "evidence/base_model.h"

#include <vector>

namespace evx::evidence {

// ln Z(x) for Gaussian noise of sd noiseSd and Gaussian evidence of sd evidenceSd.
double gaussianLogNormaliser(double noiseSd, double evidenceSd);

struct DistributionalPosteriors {
    std::vector<double> logZ;  // ln Z(x) on the grid
    GridDensity adjustedPrior; // p_a(x) ∝ p(x) Z(x)
    GridDensity exact;         // Z known
    GridDensity implied;       // pseudo-likelihood, Z ignored
};

// On a grid of x; the model must have Gaussian noise (hasGaussianNoise()), else throws
// InvalidParameter. Uses the closed forms above: no integral over y is needed.
DistributionalPosteriors distributionalPosteriors(const BaseModel& model, const GaussianEvidence& q,
                                                  const UniformGrid& grid);

} // namespace evx::evidence
