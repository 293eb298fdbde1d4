#pragma once
// The weighted-virtual-observation objective (METHODS.md §3; paper Thm 3, eq. 11/16):
//
//   L(w) = (1/M) Σ_m Σ_i w_i a_mi − log (1/M) Σ_m exp( Σ_i w_i a_mi − b_m ),
//
// with a_mi = log p(ỹ_i | θ_m) (a virtual observation, or a whole virtual group in the
// multi-level form of Thm 4 / Cor. 1) and b_m = Σ_j log p(y_j | θ_m) at posterior draws
// θ_m ~ p(θ | y). Maximising L over w ≥ 0, Σ w = N minimises KL(p(θ|y) ‖ p(θ|ỹ,w)).
// The second term is a log-mean-exp, evaluated stably (shifted by its maximum).

#include <Eigen/Core>

namespace evx::wvo {

struct WvoProblem {
    Eigen::MatrixXd logLikVirtual;  // M × K: a_mi = log p(ỹ_i | θ_m)
    Eigen::VectorXd logLikOriginal; // M: b_m = Σ_j log p(y_j | θ_m)
    double totalWeight = 0;         // N, the number of original observations (or groups)
};

// L(w); when gradient is not null it receives ∂L/∂w:
//   ∂L/∂w_i = (1/M) Σ_m a_mi − Σ_m s_m a_mi,  s = softmax_m(Σ_i w_i a_mi − b_m).
double objective(const WvoProblem& problem, const Eigen::VectorXd& w, Eigen::VectorXd* gradient = nullptr);

// Throws InvalidParameter when the shapes disagree or an entry is not finite.
void checkProblem(const WvoProblem& problem);

} // namespace evx::wvo
