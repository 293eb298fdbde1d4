#pragma once
// From divergence estimates to a posterior on the grid (METHODS.md §4):
//   p(θ | X) ∝ exp(−τ n D_f(θ)) on a uniform prior over the box (τ = 1: the paper's update),
// with D_f either computed at every grid point (the reference, Gen grid) or smoothed by a GP
// over θ from evaluations chosen by UCB (classifiers, Gen BayesOpt): σ²·Matérn + constant
// + white noise on the unit box (Matérn-5/2 by default, the paper's 3/2 on request: n = 90
// multiplies the surface, so its curvature near the minimum sets the posterior's width, and
// the rougher 3/2 paths turn evaluation noise into wiggles there), refitted after every acquisition, each
// acquisition the grid point maximising the UCB of the log posterior, −n μ_D + β n σ_D (n only scales it: the
// point minimising μ_D − β σ_D).

#include "core/run_context.h"
#include "genbayes/divergence.h"
#include "genbayes/gb_model.h"
#include "gp/kernel.h"

#include <functional>
#include <vector>

namespace evx::genbayes {

// Normalised weights ∝ exp(−tempering · n · D) over the grid.
Eigen::VectorXd gridPosterior(const Eigen::VectorXd& divergenceOnGrid, int n, double tempering);

struct Moments {
    double mean = 0, sd = 0;
};
// Mean and sd of each coordinate under grid weights.
std::vector<Moments> gridMoments(const Eigen::MatrixXd& grid, const Eigen::VectorXd& weights);

struct BayesOptOptions {
    int initial = 10;       // uniform draws in the box
    int acquisitions = 100; // UCB steps after them
    double beta = 5;
    std::uint64_t seed = 1;   // of the initial points and of the candidate subsets
    int maxCandidates = 4096; // larger grids are searched on a fresh random subset each step
    gp::KernelKind kernel = gp::KernelKind::Matern52; // of the surface GP (σ² · k + constant + noise)
    // Whether partial figures need the surface's sd. Without it a point costs a kernel row, not
    // a triangular solve too: on the regression's 51³ grid, a partial surface at 110
    // evaluations took up to 92 ms with it and 40 ms without.
    bool partialSd = true;
};

struct BayesOptState {
    Eigen::MatrixXd thetas;               // evaluated θ, one row each
    Eigen::VectorXd divergences;          // D̂_f at each
    Eigen::VectorXd meanOnGrid, sdOnGrid; // the GP's D_f and its sd over the whole grid
    int step = 0;                         // evaluations so far
    double noiseSd = 0;                   // the GP's fitted noise sd of D̂_f
    // The GP's hyperparameters behind meanOnGrid and sdOnGrid: (log σ², log w_1, …, log w_d,
    // log σ_n², log c) on the unit box, as gp::GpRegression::logHyperparameters().
    Eigen::VectorXd logHyperparameters;
};

// Runs the loop; evaluate(θ, repeat) returns D̂_f(θ) for the repeat-th evaluation at that θ
// (so a caller can vary its simulation seed on repeats). progress(state) is called after the
// first evaluation and then at most every `progressSeconds`: before the GP's first fit with no
// grid predictions, later with predictions (the sd only if options.partialSd) that on a large
// grid (box.grid() with over 20 000 points) come from every other point per axis, interpolated,
// and, while the final surface is predicted at every point, from the blocks done so far. A new
// evaluation may first show on the surface fitted before it. The returned state always has the
// predictions at every point, the same with or without progress. Cancellable through context.
BayesOptState runBayesOpt(const ParameterBox& box, const Eigen::MatrixXd& grid,
                          const std::function<double(const Eigen::VectorXd& theta, int repeat)>& evaluate,
                          const BayesOptOptions& options, const RunContext& context,
                          const std::function<void(const BayesOptState&)>& progress = {},
                          double progressSeconds = 0.1);

// The loop's GP fitted once to evaluations made elsewhere (e.g. the θ's of a run under another
// divergence, rescored), predicted over the grid: a surface without new evaluations, for a
// partial figure (so on a large box grid interpolated from every other point, as runBayesOpt's;
// withSd false leaves the sd empty, as BayesOptOptions::partialSd).
BayesOptState smoothEvaluations(const ParameterBox& box, const Eigen::MatrixXd& grid,
                                const Eigen::MatrixXd& thetas, const Eigen::VectorXd& values,
                                gp::KernelKind kernel, bool withSd = true);

// Surfaces for other values at the same θ's without a refit (issue 11: a new divergence
// rescores the last loop's evaluations and must show them at once). The GP keeps its shape
// — the lengthscales and the ratios ρ_n = σ_n²/σ², ρ_c = c/σ² of the given hyperparameters —
// and only its output scale follows the new values y (one column of `values` each). With
// K = σ² K₁, K₁ = k₁(X, X) + ρ_c 11ᵀ + ρ_n I, k₁* = k₁(X, x) + ρ_c and the prior mean
// m = mean(y), as the loop's fit uses:
//   mean(x) = m + k₁*ᵀ K₁⁻¹ (y − m)          (σ² cancels: linear in y)
//   σ̂²     = (y − m)ᵀ K₁⁻¹ (y − m) / n       (the zero of ∂ log p(y | σ²)/∂σ²)
//   var(x)  = σ̂² (k₁(x, x) + ρ_c − k₁*ᵀ K₁⁻¹ k₁*)
// The bracket does not depend on y: the sd of every column is the given GP's sd times σ̂/σ,
// so the O(n²)-per-point variances are never recomputed, and the means of all columns share
// one pass of kernel rows over the grid (O(grid · n · (1 + columns))). Cancellable.
struct ShapedSurfaces {
    Eigen::MatrixXd means;   // grid rows × columns of values
    Eigen::VectorXd sdRatio; // σ̂/σ per column: its sd on the grid is sdRatio · (the given GP's sd)
};
ShapedSurfaces smoothWithShape(const ParameterBox& box, const Eigen::MatrixXd& grid,
                               const Eigen::MatrixXd& thetas, const Eigen::MatrixXd& values,
                               gp::KernelKind kernel, const Eigen::VectorXd& logHyperparameters,
                               const RunContext& context);

} // namespace evx::genbayes
