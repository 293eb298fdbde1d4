#pragma once
// Integrated autocorrelation time of an MCMC chain, as in emcee (Foreman-Mackey et al.
// 2013, after Sokal 1997 and Goodman & Weare 2010):
//   ρ(t) = autocorrelation at lag t, averaged over the walkers' chains;
//   τ(M) = 1 + 2 Σ_{t=1}^{M} ρ(t), with the automatic window: the smallest M ≥ c·τ(M), c = 5.
// The chains of several walkers share one estimate of ρ (averaging the normalised
// autocorrelation functions), which is what makes short ensemble runs usable.

#include <Eigen/Core>

namespace evx::sampling {

// chains: one walker per column, one step per row (n ≥ 2). Returns τ in steps, ≥ 1.
// A constant chain (no variance at all) has no meaningful τ and returns n.
double integratedAutocorrelationTime(const Eigen::MatrixXd& chains, double window = 5.0);

// The normalised autocorrelation function of one chain, ρ(0) = 1, lags 0..n−1 (by FFT).
Eigen::VectorXd autocorrelationFunction(const Eigen::VectorXd& chain);

} // namespace evx::sampling
