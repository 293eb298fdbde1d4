#pragma once
// Maximisation of the WVO objective L(w) over the scaled simplex w ≥ 0, Σ w = N, through
// the softmax parameterisation w = N·softmax(u) and L-BFGS (optim::minimise): the constraint
// holds by construction, so an unconstrained quasi-Newton method suffices. By the chain rule
//   ∂L/∂u_k = w_k (g_k − Σ_i (w_i/N) g_i),  g = ∂L/∂w.

#include "wvo/objective.h"

namespace evx::wvo {

struct OptimiserOptions {
    int maxIterations = 300;
    double gradientTolerance = 1e-7; // stop at ‖∂L/∂u‖ ≤ this, or ≤ 1e-5‖u‖ (LBFGS++'s defaults)
};

struct WeightResult {
    Eigen::VectorXd weights;     // K, ≥ 0, summing to N
    double objective = 0;        // L at the weights
    double initialObjective = 0; // L at uniform weights N/K
    int iterations = 0;
};

// Starts from uniform weights N/K. Throws InvalidParameter for an ill-formed problem.
WeightResult optimiseWeights(const WvoProblem& problem, const OptimiserOptions& options = {});

// w = N·softmax(u), stable.
Eigen::VectorXd softmaxWeights(const Eigen::VectorXd& u, double total);

} // namespace evx::wvo
