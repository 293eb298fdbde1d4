#pragma once
// A general-purpose, gradient-free MCMC sampler: the affine-invariant ensemble sampler
// with the stretch move (Goodman & Weare 2010), as in emcee. Its samples feed every
// scenario without a closed form or a grid.

#include "core/run_context.h"

#include <Eigen/Core>
#include <cstdint>
#include <functional>

namespace evx::sampling {

struct EnsembleOptions {
    int walkers = 32; // ≥ 2 × dimension
    int steps = 2000; // per walker, after burn-in
    int burnIn = 500; // per walker, discarded
    int thin = 1;
    double stretch = 2.0; // the move's scale a
    std::uint64_t seed = 1;
    int progressEvery = 100; // steps between calls of onProgress (0: never)
    // Whether the results passed to onProgress carry autocorrelation times and the ESS (an
    // FFT over every chain so far, per call); without, they hold NaN and 0. (Addition to the
    // original contract; the default keeps its behaviour.)
    bool progressDiagnostics = true;
};

struct EnsembleResult {
    Eigen::MatrixXd samples;    // one draw per row (after burn-in and thinning), dimensions in columns
    Eigen::VectorXd logDensity; // at each row of samples
    double acceptanceRate = 0;
    Eigen::VectorXd autocorrelationTime; // integrated, per dimension, in steps
    double effectiveSampleSize = 0;      // min over dimensions
};

using LogDensity = std::function<double(const Eigen::VectorXd&)>; // -inf outside the support
using EnsembleProgress = std::function<void(const EnsembleResult& soFar, double fraction)>;

// initialWalkers: one walker per row, each with finite log density. Polls context for
// cancellation (throws Cancelled); calls onProgress with the draws so far.
EnsembleResult runEnsemble(const LogDensity& logDensity, const Eigen::MatrixXd& initialWalkers,
                           const EnsembleOptions& options, const RunContext& context,
                           const EnsembleProgress& onProgress = {});

} // namespace evx::sampling
