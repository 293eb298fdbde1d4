#pragma once
// Kraskov–Stögbauer–Grassberger mutual information, estimator 1 (Kraskov et al. 2004, eq. 8):
//   I(X; Y) ≈ ψ(k) + ψ(N) − ⟨ψ(n_x + 1) + ψ(n_y + 1)⟩,
// with ε_i the max-norm distance from point i to its k-th neighbour in the joint space and
// n_x(i), n_y(i) the points strictly closer than ε_i in each marginal (max-norm there too).
// Every column of x and y is first scaled to unit variance (METHODS.md §5): with the max-norm
// the estimate otherwise depends on the units of each marginal.
// In nats; it can come out slightly negative for independent variables — not clamped. The
// BNN+LV metrics use it between the inputs x and the latent means μ_z (METHODS.md §5).
// Brute force, O(N²(d_x + d_y)): a few ms at N = 750.

#include <Eigen/Core>

namespace evx::stats {

// x: N × d_x, y: N × d_y (one row per observation); N > k ≥ 1.
double ksgMutualInformation(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y, int k = 5);

} // namespace evx::stats
