#pragma once
// The general numerical path: the posterior over x under each reading of uncertain
// evidence, on grids, for any BaseModel and EvidenceDensity (METHODS.md §1).
//
//   exact         p(x | y0)                                   ∝ p(x) p(y0 | x)
//   Jeffrey       p_J(x) = ∫ p(x | y) q(y | ζ) dy, p(x | y) normalised for every y (eq. 1)
//   virtual       p_V(x) ∝ p(x) ∫ p(y | x) q(ζ | y) dy                              (eq. 4)
//   distributional p_D(x) ∝ p(x) exp(∫ ln p(y | x) q(y) dy)                          (eq. 5)
//
// The distributional posterior here is the pseudo-likelihood form; it equals the
// normalised one of Sec. 3.3 whenever Z(x) is constant, i.e. when Var[y | x] does not
// depend on x, which holds for every model in this file's scenarios. For noise that depends
// on x, distributional_evidence.h gives Z(x) and both the exact and the implied posteriors.
//
// Gaussian noise (BaseModel::hasGaussianNoise) with Gaussian evidence q = N(ζ, σ_q²) takes a
// faster path with the same values: virtual and distributional evidence in closed form over y,
//   virtual        p(x) N(ζ; μ(x), s(x)² + σ_q²)
//   distributional p(x) exp(−ln s(x) − ((ζ − μ(x))² + σ_q²) / (2 s(x)²))   (up to a constant)
// (exact, where the grid sum over y truncates q at the y grid's ends), and Jeffrey's rule summed
// over a band of each column when μ is monotone (banded_jeffrey.h).

#include "core/grid.h"
#include "core/run_context.h"
#include "evidence/base_model.h"

namespace evx::evidence {

// Thm 3.3 (III): Jeffrey's rule can only be consistent with the base model if
// Var[y] ≥ E[Var[y | ζ]].
struct ConsistencyCheck {
    double varY = 0;                 // Var[y] under the base model
    double expectedVarGivenZeta = 0; // E[Var[y | ζ]] under the evidence
    bool consistent() const { return varY >= expectedVarGivenZeta; }
};

struct Readings {
    GridDensity prior; // on the prior grid
    GridDensity exact; // the rest on the latent grid
    GridDensity jeffrey;
    GridDensity virtualEvidence;
    GridDensity distributional;
    ConsistencyCheck consistency;
};

struct ReadingGrids {
    UniformGrid prior;      // covers the prior's mass: prior moments and the consistency check
    UniformGrid latent;     // covers every posterior's mass, finely enough to resolve the narrowest
    UniformGrid observable; // covers q's support, resolving p(y | x) in y
};

// y0 is the value "exact evidence" conditions on. Polls context for cancellation.
Readings computeReadings(const BaseModel& model, const EvidenceDensity& q, double y0,
                         const ReadingGrids& grids, const RunContext& context = {});

// Var[y] = E[Var[y | x]] + Var[E[y | x]] under the prior, on the prior grid.
ConsistencyCheck checkConsistency(const BaseModel& model, const EvidenceDensity& q,
                                  const UniformGrid& priorGrid);

} // namespace evx::evidence
