#pragma once
// Jeffrey's rule on grids for a model with Gaussian noise, p(y | x) = N(y; μ(x), s(x)²), whose
// mean μ is monotone over the latent grid (uncertain-evidence paper, eq. 1; METHODS.md §1):
//
//   p_J(x_i) = Σ_j q̃_j p(x_i) p(y_j | x_i) / Σ_k w_k p(x_k) p(y_j | x_k)
//
// (q̃_j: q as normalised quadrature weights on the y grid, w_k: trapezoid weights on the x grid).
// The full double sum costs n_x·n_y exponentials; a narrow model error (σ_model ≪ σ_obs) makes
// both grids long. Column j only needs the rows whose joint p(x_k) p(y_j | x_k) lies within
// e^-kBandDepth of the column's largest: those left out hold less than n_x·e^-kBandDepth (< 1e-18)
// of the column's mass, below rounding. Because μ is monotone, |y_j − μ_k| grows as k walks
// away from y_j, so the rows of a block of the grid are bounded by
//   max_{k in block} (ln p(x_k) − ln s_k) − min_{k in block} (y_j − μ_k)² / (2 s_max²),
// and everything beyond a block by the same with the largest peak beyond it. A column fills the
// blocks around y_j, then walks outwards filling each block whose bound is within kBandDepth of
// its top and stops where the bound on everything beyond falls below that: its value is the full
// sum's. Columns the prior dominates (the timing far in its tail) reach the prior's mass so.
// Columns with q̃_j < 1e-17, at most n_y·1e-17 of q's mass together, are skipped.

#include "core/grid.h"
#include "core/run_context.h"

#include <optional>
#include <vector>

namespace evx::evidence {

inline constexpr double kBandDepth = 50; // nats below a column's largest joint value

// The row-wise Gaussian noise of the model on the latent grid.
struct GaussianNoiseRows {
    std::vector<double> logPrior; // ln p(x_i) up to a constant (may be −∞)
    std::vector<double> mean;     // μ(x_i)
    std::vector<double> sd;       // s(x_i) > 0
};

// ln p_J(x_i) up to a constant (−∞ where no column reaches), or nullopt when μ is not monotone
// on the grid. qWeight: q̃_j on y's grid, summing to 1. Polls context for cancellation.
std::optional<std::vector<double>> bandedJeffrey(const GaussianNoiseRows& rows, const UniformGrid& xg,
                                                 const UniformGrid& yg, const std::vector<double>& qWeight,
                                                 const RunContext& context);

} // namespace evx::evidence
