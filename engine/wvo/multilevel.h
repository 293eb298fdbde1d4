#pragma once
// Building the WVO problem from posterior draws, for flat and multi-level models.
// Flat (Thm 3): a virtual observation's log-likelihood is log p(ỹ_i | θ).
// Multi-level (Thm 4, Cor. 1): a virtual observation is a whole group, and
//   p(ỹ_k | θ) = ∫ p(ỹ_k | φ) p(φ | θ) dφ,
// exact where the model is conjugate, otherwise estimated once, before the optimisation,
// by Monte Carlo over S forward draws φ_s ~ p(φ | θ_m):
//   log p(ỹ_k | θ_m) ≈ log (1/S) Σ_s p(ỹ_k | φ_s).

#include "wvo/objective.h"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace evx::wvo {

// log p(virtual observation or group `i` | θ)
using VirtualLogLik = std::function<double(const Eigen::VectorXd& theta, int i)>;
// Σ_j log p(y_j | θ) over the original data
using OriginalLogLik = std::function<double(const Eigen::VectorXd& theta)>;

// draws: one θ per row. totalWeight is N (observations, or groups).
WvoProblem buildProblem(const Eigen::MatrixXd& draws, int virtualCount, const VirtualLogLik& virtualLogLik,
                        const OriginalLogLik& originalLogLik, double totalWeight);

// log (1/S) Σ_s exp(v_s), stable; the Monte Carlo estimate of Thm 4 from the
// log-likelihoods log p(ỹ | φ_s) of one group at S forward draws of φ.
double logMeanExp(const std::vector<double>& values);

// Σ_i w_i log p(ỹ_i | θ): the weighted log-likelihood of weighted conditioning,
// p(θ | ỹ, w) ∝ p(θ) Π_i p(ỹ_i | θ)^{w_i}.
double weightedLogLik(const Eigen::VectorXd& logLikAtTheta, const Eigen::VectorXd& weights);

} // namespace evx::wvo
