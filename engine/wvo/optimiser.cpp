#include "wvo/optimiser.h"

#include "optim/minimise.h"

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
    const Eigen::VectorXd u0 = Eigen::VectorXd::Zero(k);
    result.initialObjective = objective(problem, softmaxWeights(u0, n));

    // The minimiser sees −L.
    auto f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
        const Eigen::VectorXd w = softmaxWeights(x, n);
        Eigen::VectorXd g;
        const double value = -objective(problem, w, &g);
        const double gBar = w.dot(g) / n;
        grad = -(w.array() * (g.array() - gBar)).matrix();
        return value;
    };
    optim::MinimiseOptions o;
    o.gradientTolerance = options.gradientTolerance;
    o.maxIterations = options.maxIterations;
    o.maxLineSearch = 60;
    // Line searches fail near the optimum, where the softmax leaves flat directions and progress
    // is limited by rounding: a few restarts with a fresh memory while they still improve L.
    o.restarts = 4;
    const optim::MinimiseResult m = optim::minimise(f, u0, o);
    result.iterations = m.iterations;
    result.weights = softmaxWeights(m.x, n);
    result.objective = objective(problem, result.weights);
    return result;
}

} // namespace evx::wvo
