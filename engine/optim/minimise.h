#pragma once
// The engine's one interface to numerical minimisation: min_x f(x), optionally subject to
// lower ≤ x ≤ upper, by limited-memory BFGS from LBFGS++ (L-BFGS, or L-BFGS-B with bounds;
// Nocedal & Wright, Numerical Optimization, 2nd ed., §7.2 and §18 for the box-constrained form).
//
// What every caller used to hand-write around LBFGS++ lives here once:
//   - the best point any evaluation saw is the answer, so a line search that fails or ends on a
//     worse trial loses no progress;
//   - a failed line search (LBFGS++ throws) is followed by a restart from that best point with a
//     fresh curvature memory, at most `restarts` times and only while restarts still improve it
//     by more than restartImprovement·max(1, |f|);
//   - a point where f or its gradient is not finite is rejected (seen by LBFGS++ as f = 1e300),
//     which makes a line search that overshoots into NaN back off instead of failing;
//   - `converged` is true only when LBFGS++ stopped on its gradient (or value) test: the iteration limit
//     or a failed line search is reported as such, never as convergence;
//   - an evaluation at the very point evaluated last (a strong-Wolfe search stuck at a flat
//     optimum asks for it again and again) is answered from memory;
//   - an exception thrown by f (Cancelled, NumericalError, …) leaves minimise unchanged.

#include <Eigen/Core>

#include <functional>
#include <string>

namespace evx::optim {

// f(x, grad): returns f(x) and writes ∇f(x) into grad (already sized like x).
using Objective = std::function<double(const Eigen::VectorXd& x, Eigen::VectorXd& grad)>;

enum class LineSearch {
    Backtracking, // Armijo backtracking (LBFGS++'s default for L-BFGS)
    StrongWolfe,  // Nocedal–Wright bracketing and safeguarded zoom (wolfe_line_search.h): keeps
                  // curvature pairs positive; a bracket narrower than x can resolve, with f flat
                  // across it, ends the run as converged
};

struct MinimiseOptions {
    int maxIterations = 300;
    // Stop when ‖∇f‖ ≤ gradientTolerance or ‖∇f‖ ≤ relativeGradientTolerance·‖x‖ (LBFGS++'s
    // epsilon and epsilon_rel; with bounds, the projected gradient's sup norm).
    double gradientTolerance = 1e-5;
    double relativeGradientTolerance = 1e-5;
    // Also stop when one iteration changes f by at most valueTolerance·max(1, |f|) (LBFGS++'s
    // delta with past = 1); 0 turns that test off, also for L-BFGS-B, whose own default is 1e-10.
    double valueTolerance = 0;
    int maxLineSearch = 20;
    LineSearch lineSearch = LineSearch::Backtracking; // L-BFGS only; L-BFGS-B uses Moré–Thuente
    int restarts = 0;
    double restartImprovement = 1e-10;
    // Points closer than this to the best point so far (in every coordinate) are taken to be
    // the same point: the first such trial that does not improve on it ends the run as
    // converged (0: off). For an f known only to within its rounding, where a line search would
    // otherwise shrink its steps through that noise until it gives up (a GP likelihood at
    // n = 150 jumps by 0.3 nats between points 1e-9 apart: bq-2d-marginal).
    double resolution = 0;
    // Box constraints: both empty (none) or both the size of x0, lower ≤ upper.
    Eigen::VectorXd lower, upper;
};

struct MinimiseResult {
    Eigen::VectorXd x;   // the best point evaluated
    double value = 0;    // f(x)
    int iterations = 0;  // summed over the attempts that returned (a failed one reports none)
    int evaluations = 0; // calls of f
    bool converged = false;
    std::string message; // what stopped it, for a warning or a log
};

// Throws InvalidParameter for options LBFGS++ would reject or bounds of the wrong size.
MinimiseResult minimise(const Objective& f, const Eigen::VectorXd& x0, const MinimiseOptions& options = {});

} // namespace evx::optim
