#pragma once
// Uncertain evidence on a discrete observable (uncertain-evidence paper, eq. 1 and eq. 3).
//
//   virtual evidence  p(x | ζ)   = Σ_k λ_k p(x, y_k) / Σ_j λ_j p(y_j)            (eq. 3)
//                     p(y_k | ζ) = λ_k p(y_k) / Σ_j λ_j p(y_j)
//   Jeffrey's rule    p_J(x)     = Σ_k q(y_k) p(x | y_k),   p_J(y_k) = q(y_k)      (eq. 1)
//   equivalence       JR with q equals VE with λ_k ∝ q(y_k) / p(y_k), and
//                     VE with λ equals JR with q(y_k) ∝ λ_k p(y_k).
//
// Consistency (Thm 3.3 III) for a categorical y: encode y as the one-hot vector e_k, whose
// covariance has trace 1 − Σ_k p(y_k)² (it does not depend on how the states are numbered).
// Summing the per-component condition Var[Y_k] ≥ E[Var[Y_k | ζ]] over k gives the necessary
//   Var[y] := 1 − Σ_k p(y_k)²  ≥  E[Var[y | ζ]] := 1 − Σ_k q(y_k)²,
// the expectation over ζ reduced to the one evidence at hand, as σ_q² is for a Gaussian q.

#include "evidence/readings.h"
#include "models/discrete_model.h"

namespace evx::evidence {

struct DiscreteReading {
    Eigen::VectorXd posteriorX; // p(x_i | evidence)
    Eigen::VectorXd marginalY;  // p(y_k | evidence)
};

// Throws InvalidParameter when a λ is negative or Σ_j λ_j p(y_j) = 0.
DiscreteReading discreteVirtualEvidence(const models::DiscreteModel& model, const Eigen::VectorXd& lambda);
// q is normalised here; throws InvalidParameter when it sums to 0 or puts mass on a y the
// model rules out (p(y_k) = 0, where p(x | y_k) is undefined).
DiscreteReading discreteJeffrey(const models::DiscreteModel& model, const Eigen::VectorXd& q);

// λ_k ∝ q(y_k) / p(y_k), scaled so that the largest is 1 (λ only matters up to a factor).
Eigen::VectorXd equivalentLambda(const models::DiscreteModel& model, const Eigen::VectorXd& q);
// q(y_k) ∝ λ_k p(y_k), normalised.
Eigen::VectorXd equivalentTarget(const models::DiscreteModel& model, const Eigen::VectorXd& lambda);

ConsistencyCheck discreteConsistency(const models::DiscreteModel& model, const Eigen::VectorXd& q);

} // namespace evx::evidence
