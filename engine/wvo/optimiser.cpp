#include "wvo/optimiser.h"

#include <LBFGS.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace evx::wvo {

Eigen::VectorXd softmaxWeights(const Eigen::VectorXd& u, double total)
{
    const Eigen::ArrayXd e = (u.array() - u.maxCoeff()).exp();
    return (total * e / e.sum()).matrix();
}

WeightResult optimiseWeights(const WvoProblem& problem, const OptimiserOptions& options)
{
    checkProblem(problem);
    const Eigen::Index k = problem.logLikVirtual.cols();
    const double n = problem.totalWeight;

    WeightResult result;
    Eigen::VectorXd u = Eigen::VectorXd::Zero(k);
    result.initialObjective = objective(problem, softmaxWeights(u, n));

    // LBFGS++ minimises, so it sees −L. Keep the best point seen: a line search that gives
    // up near the optimum (flat directions of the softmax) must not lose the progress made.
    Eigen::VectorXd best = u;
    double bestValue = -result.initialObjective;
    auto f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
        const Eigen::VectorXd w = softmaxWeights(x, n);
        Eigen::VectorXd g;
        const double value = -objective(problem, w, &g);
        const double gBar = w.dot(g) / n;
        grad = -(w.array() * (g.array() - gBar)).matrix();
        if (value < bestValue) {
            bestValue = value;
            best = x;
        }
        return value;
    };

    LBFGSpp::LBFGSParam<double> param;
    param.epsilon = options.gradientTolerance;
    param.max_iterations = options.maxIterations;
    param.max_linesearch = 60;
    // A line search that fails (LBFGS++ throws) usually means rounding-limited progress near
    // the optimum, or a stale curvature pair; restart from the best point with a fresh memory
    // while that still improves the objective.
    for (int attempt = 0; attempt < 5; ++attempt) {
        const double before = bestValue;
        LBFGSpp::LBFGSSolver<double> solver(param);
        u = best;
        double fx = 0;
        try {
            result.iterations += solver.minimize(f, u, fx);
            break;
        } catch (const std::exception&) {
            if (!(bestValue < before - 1e-10 * std::max(1.0, std::abs(before))))
                break;
        }
    }
    result.weights = softmaxWeights(best, n);
    result.objective = objective(problem, result.weights);
    return result;
}

} // namespace evx::wvo
