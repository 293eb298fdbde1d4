#pragma once
// Kozachenko–Leonenko k-nearest-neighbour estimator of differential entropy (Kozachenko &
// Leonenko 1987; Kraskov et al. 2004, eq. 20), in nats:
//   Ĥ = ψ(N) − ψ(k) + log V_d + (d/N) Σ_i log r_i,
// r_i the Euclidean distance from x_i to its k-th nearest other point, V_d = π^{d/2}/Γ(d/2 + 1)
// the volume of the unit d-ball (V_1 = 2). It is consistent for any fixed k; its variance is
// about (Var[log p(X)] + ψ'(k))/N, and densities with edges (a uniform) bias it by O(k/N)
// because points near an edge find their neighbours on one side only. The BNN+LV uncertainty
// decomposition (Sec. 7.3, App. E: k = 5) applies it to predictive draws of y.
//
// Tied points make some r_i zero and the estimate −∞ (a distribution with atoms): refused with
// NumericalError rather than returned.

#include <Eigen/Core>

#include <vector>

namespace evx::stats {

// 1-D: sort and walk outwards from each point, O(N log N + N k). N > k ≥ 1.
double knnEntropy(std::vector<double> sample, int k = 5);
// d-D: x is N × d, one row per point; brute force O(N² d).
double knnEntropy(const Eigen::MatrixXd& x, int k = 5);

} // namespace evx::stats
