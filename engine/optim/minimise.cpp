#include "optim/minimise.h"

#include "core/errors.h"
#include "optim/wolfe_line_search.h"

#include <LBFGS.h>
#include <LBFGSB.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace evx::optim {
namespace {

// What LBFGS++ sees at a rejected point: large enough to fail any sufficient-decrease test,
// finite so that its interpolating line searches stay finite.
constexpr double kRejected = 1e300;

// Thrown by the tracker at a trial point within MinimiseOptions::resolution of the best one
// that is no better.
struct BelowResolution {};

// f wrapped once for every attempt: rejection of non-finite points, the best point, the memo
// of the last evaluation, and the first exception f threw (so that LBFGS++'s own exceptions
// can be told from the caller's).
struct Tracker {
    Tracker(const Objective& objective, const Eigen::VectorXd& start, const MinimiseOptions& o)
        : f(objective), best(start), lower(o.lower), upper(o.upper), resolution(o.resolution)
    {
    }

    const Objective& f;
    Eigen::VectorXd best, bestGrad;
    const Eigen::VectorXd &lower, &upper;
    double resolution;
    double bestValue = std::numeric_limits<double>::infinity();
    double startValue = 0; // value at the current attempt's first evaluation
    bool startSeen = false;
    int evaluations = 0;
    Eigen::VectorXd lastX, lastGrad;
    double lastValue = 0;
    std::exception_ptr thrown;

    double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad)
    {
        double value = kRejected;
        bool nearBest = false;
        if (lastX.size() == x.size() && lastX == x) {
            grad = lastGrad;
            value = lastValue;
        } else {
            nearBest =
                resolution > 0 && bestValue < kRejected && (x - best).cwiseAbs().maxCoeff() < resolution;
            grad.setZero(x.size());
            if (x.allFinite()) {
                try {
                    ++evaluations;
                    value = f(x, grad);
                } catch (...) {
                    thrown = std::current_exception();
                    throw;
                }
                if (!std::isfinite(value) || !grad.allFinite()) {
                    value = kRejected;
                    grad.setZero();
                }
            }
            lastX = x;
            lastGrad = grad;
            lastValue = value;
        }
        if (!startSeen) {
            startValue = value;
            startSeen = true;
        }
        // L-BFGS-B's line search can step a rounding error past a bound; such a point may look
        // better than every feasible one, but it is not an answer.
        const bool feasible =
            lower.size() == 0 || ((x.array() >= lower.array()).all() && (x.array() <= upper.array()).all());
        if (value < kRejected && value < bestValue && feasible) {
            bestValue = value;
            best = x;
            bestGrad = grad;
        } else if (nearBest) {
            // A short step that improves goes on (a steep valley can call for one); one that
            // does not has nowhere left to go at this resolution.
            throw BelowResolution{};
        }
        return value;
    }
};

void checkOptions(const Eigen::VectorXd& x0, const MinimiseOptions& o)
{
    if (x0.size() == 0)
        throw InvalidParameter("minimise: the start point is empty");
    if (!(o.maxIterations > 0) || !(o.maxLineSearch > 0) || o.restarts < 0)
        throw InvalidParameter("minimise: iteration and line-search limits must be positive, restarts ≥ 0");
    if (!(o.gradientTolerance >= 0) || !(o.relativeGradientTolerance >= 0) || !(o.valueTolerance >= 0) ||
        !(o.restartImprovement >= 0) || !(o.resolution >= 0))
        throw InvalidParameter("minimise: tolerances must be non-negative numbers");
    const bool bounded = o.lower.size() > 0 || o.upper.size() > 0;
    if (bounded && (o.lower.size() != x0.size() || o.upper.size() != x0.size()))
        throw InvalidParameter("minimise: the bounds must have the size of the start point");
    if (bounded && !(o.lower.array() <= o.upper.array()).all())
        throw InvalidParameter("minimise: a lower bound is above its upper bound (or NaN)");
}

template <class Param> Param parameters(const MinimiseOptions& o)
{
    Param p;
    p.epsilon = o.gradientTolerance;
    p.epsilon_rel = o.relativeGradientTolerance;
    p.max_iterations = o.maxIterations;
    p.max_linesearch = o.maxLineSearch;
    p.past = o.valueTolerance > 0 ? 1 : 0;
    p.delta = o.valueTolerance;
    return p;
}

// LBFGS++'s stopping test, redone at the best point: a strong-Wolfe search that ends on a rejected
// point sees its zero gradient and would stop there as if converged.
bool gradientTestHolds(const Tracker& t, const MinimiseOptions& o)
{
    if (t.bestGrad.size() != t.best.size())
        return false;
    const double norm =
        o.lower.size() > 0
            ? ((t.best - t.bestGrad).cwiseMax(o.lower).cwiseMin(o.upper) - t.best).cwiseAbs().maxCoeff()
            : t.bestGrad.norm();
    return norm <= o.gradientTolerance || norm <= o.relativeGradientTolerance * t.best.norm();
}

// One run of the solver from x; the number of iterations it reports.
int runSolver(Tracker& tracker, Eigen::VectorXd& x, const MinimiseOptions& o)
{
    double fx = 0;
    // LBFGS++'s solvers keep a reference to their parameters, so these must outlive the solver:
    // a temporary here was read after its end by every bounded run (AddressSanitizer,
    // stack-use-after-scope in LBFGSBSolver::reset).
    if (o.lower.size() > 0) {
        const auto p = parameters<LBFGSpp::LBFGSBParam<double>>(o);
        LBFGSpp::LBFGSBSolver<double> solver(p);
        return solver.minimize(tracker, x, fx, o.lower, o.upper);
    }
    auto p = parameters<LBFGSpp::LBFGSParam<double>>(o);
    if (o.lineSearch == LineSearch::StrongWolfe) {
        p.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_STRONG_WOLFE;
        LBFGSpp::LBFGSSolver<double, WolfeLineSearch> solver(p);
        return solver.minimize(tracker, x, fx);
    }
    LBFGSpp::LBFGSSolver<double> solver(p);
    return solver.minimize(tracker, x, fx);
}

} // namespace

MinimiseResult minimise(const Objective& f, const Eigen::VectorXd& x0, const MinimiseOptions& options)
{
    checkOptions(x0, options);
    // L-BFGS-B starts from the start point projected into the box; so does the best point.
    const Eigen::VectorXd start =
        options.lower.size() > 0 ? x0.cwiseMax(options.lower).cwiseMin(options.upper) : x0;
    Tracker tracker(f, start, options);
    MinimiseResult result;
    std::string failure;
    std::string convergedAtLimit; // why a run that ended by exception counts as converged
    for (int attempt = 0; attempt <= options.restarts; ++attempt) {
        Eigen::VectorXd x = tracker.best;
        tracker.startSeen = false;
        try {
            const int iterations = runSolver(tracker, x, options);
            result.iterations += iterations;
            if (iterations >= options.maxIterations)
                failure = "stopped at the iteration limit (" + std::to_string(options.maxIterations) + ")";
            else if (!gradientTestHolds(tracker, options) && options.valueTolerance == 0)
                failure = "stopped where the gradient is not small (a line search ended on a rejected point)";
            else
                failure.clear();
            result.converged = failure.empty();
            break;
        } catch (const BelowResolution&) {
            convergedAtLimit = "a trial within the resolution of the best point was no better";
            break;
        } catch (const StepBelowPrecision&) {
            convergedAtLimit = "no step that moves x decreases f beyond its rounding";
            break;
        } catch (const std::exception& e) {
            if (tracker.thrown)
                std::rethrow_exception(tracker.thrown);
            // A failed line search: usually progress limited by rounding near the optimum, or a
            // stale curvature pair. A fresh memory from the best point may still get further.
            failure = std::string("stopped: ") + e.what() + "; the best point seen is kept";
            const double before = tracker.startValue;
            if (!(tracker.bestValue < before - options.restartImprovement * std::max(1.0, std::abs(before))))
                break;
        }
    }
    if (!convergedAtLimit.empty()) {
        failure.clear(); // an earlier attempt's
        result.converged = true;
    }
    result.x = tracker.best;
    result.value = tracker.bestValue;
    result.evaluations = tracker.evaluations;
    if (!(result.value < kRejected)) {
        result.converged = false;
        result.message = "no point with a finite objective was found";
    } else if (!failure.empty())
        result.message = failure;
    else if (!convergedAtLimit.empty())
        result.message = "converged: " + convergedAtLimit;
    else
        result.message = "converged in " + std::to_string(result.iterations) + " iterations";
    return result;
}

} // namespace evx::optim
