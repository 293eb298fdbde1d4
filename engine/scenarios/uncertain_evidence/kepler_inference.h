#pragma once
// Posterior sampling for the Kepler transit-time experiment (uncertain-evidence paper,
// Sec. 4.3) under the three readings of transit times t̂ given with error σ_e:
//   virtual evidence    ∝ p(θ) Π_n N(t̂_n; t_n(θ), σ_m² + σ_e²)
//   distributional      ∝ p(θ) Π_n N(t̂_n; t_n(θ), σ_m²)   (σ_m constant: Z is constant and
//                       distributional evidence is exact evidence at t = t̂)
//   Jeffrey's rule      ∫ p(θ | t) q(t | t̂) dt, estimated by n_e outer draws t^(s) ~ N(t̂, σ_e²),
//                       one ensemble run on p(θ | t^(s)) each, pooled with equal weight.
// θ = (P [d], e, ω [deg], ω + M [deg]); priors P ~ N(210, 1²), e ~ U(0, 0.15), angles ~ U(0, 360).
//
// The sampler runs in φ = (P, t_0, h, k) with t_0 the first transit after t = 0 and
// (h, k) = √e (cos ω, sin ω). One Keplerian planet transits strictly periodically,
// t_n = t_0 + n P, so the likelihood depends on (P, t_0) alone and is nearly Gaussian there,
// while e and ω are left to their prior, a uniform disk of radius √0.15 in (h, k) (the
// Jacobian of (h, k) → (e, ω) is the constant 2). ω + M follows from (P, t_0, e, ω) by
// Kepler's equation; the Jacobian |∂(ω + M)/∂t_0| = 360°/P enters the prior. In (P, e, ω,
// ω + M) the posterior is a thin curved ridge (ω + M moves with e cos ω), which a stretch
// move crosses slowly; in φ it is an ellipse times a disk.

#include "core/run_context.h"
#include "sampling/ensemble_sampler.h"

#include <Eigen/Core>
#include <random>
#include <vector>

namespace evx::scenarios {

struct KeplerPriors {
    double periodMean = 210, periodSd = 1; // days
    double eMax = 0.15;
};

// ln p(θ) + Σ_n ln N(times_n; t_n(θ), noiseSd²) (up to a constant), in the orbital elements
// θ = (P, e, ω, ω + M); −inf outside the prior's support. (The reference for the sampler's
// parameterisation, which tests compare with.)
double keplerLogPosterior(const Eigen::VectorXd& theta, const std::vector<double>& times, double noiseSd,
                          const KeplerPriors& priors);

// The same posterior in the sampler's coordinates φ = (P, t_0, h, k), Jacobian included.
double keplerLogPosteriorPhi(const Eigen::VectorXd& phi, const std::vector<double>& times, double noiseSd,
                             const KeplerPriors& priors);
// φ → θ.
Eigen::Vector4d keplerElementsFromPhi(const Eigen::VectorXd& phi);

// Walkers in φ: P and t_0 from a least-squares linear ephemeris of the times, jittered by
// their standard errors; (h, k) uniform on the prior's disk.
Eigen::MatrixXd keplerInitialWalkers(const std::vector<double>& times, double noiseSd,
                                     const KeplerPriors& priors, int walkers, std::mt19937_64& rng);

struct SampledPosterior {
    Eigen::MatrixXd samples; // rows: draws; columns P, e, ω, ω + M (converted from φ)
    double effectiveSampleSize = 0;
    double acceptanceRate = 0;
    long long evaluations = 0;
    double seconds = 0;
};

// onProgress receives draws already converted to θ, at most ten times a second.
SampledPosterior sampleKepler(const std::vector<double>& times, double noiseSd, const KeplerPriors& priors,
                              const sampling::EnsembleOptions& options, const RunContext& context,
                              const sampling::EnsembleProgress& onProgress = {});

} // namespace evx::scenarios
