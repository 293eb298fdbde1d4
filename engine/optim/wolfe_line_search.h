#pragma once
// The strong-Wolfe line search of Nocedal & Wright (Numerical Optimization, 2nd ed., Algorithms
// 3.5 and 3.6), for LBFGS++'s L-BFGS solver, with the safeguards the book asks for and LBFGS++'s
// own LineSearchNocedalWright leaves out:
//   - the zoom's trial minimises the cubic through both ends of the bracket (values and slopes),
//     or the quadratic through the near end's value and slope and the far end's value where the
//     cubic has no minimum inside, and is then kept at least a tenth of the bracket away from
//     either end. A far end high up a wall (or rejected: minimise's 1e300) pulls the quadratic's
//     minimiser to within a few per cent of the near end; unguarded, the search then creeps along
//     a valley floor in 4 % steps until it runs out of trials (a bq-2d-marginal fit at 62
//     samples spent 10 of its 21 evaluations so);
//   - running out of trials is a failure (LBFGS++ throws std::runtime_error), not an answer: the
//     last trial need not satisfy either condition, and its curvature pair could be negative;
//   - a bracket too narrow to move x ends the search with StepBelowPrecision when f differs
//     across it by at most 1e-10 of its size (rounding): no step x can resolve gets f below its
//     rounding. A GP likelihood near its optimum, where the search direction promises a
//     decrease of 1e-13 and the value's rounding is 1e-12, ends so (scikit-learn's seed 2 in
//     test_gp_sklearn). Noise far above rounding is MinimiseOptions::resolution's business.
// Other parts as LBFGS++'s: LBFGSParam's ftol, wolfe and max_linesearch; bracketing doubles the
// step.

#include <LBFGSpp/Param.h>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace evx::optim {

struct StepBelowPrecision : std::runtime_error {
    StepBelowPrecision() : std::runtime_error("the line search's bracket is narrower than x can resolve") {}
};

template <class Scalar> class WolfeLineSearch {
    using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

    struct Trial {
        Scalar step, value, slope; // slope: the directional derivative ∇f·d at the step
    };

    // The minimiser of the cubic through a and b (Nocedal & Wright eq. 3.59), else of the
    // quadratic through a's value and slope and b's value, else the midpoint; then at least a
    // tenth of |b − a| inside the bracket.
    static Scalar interpolate(const Trial& a, const Trial& b)
    {
        const Scalar width = b.step - a.step;
        Scalar t = std::numeric_limits<Scalar>::quiet_NaN();
        const Scalar d1 = a.slope + b.slope - 3 * (a.value - b.value) / (a.step - b.step);
        const Scalar discriminant = d1 * d1 - a.slope * b.slope;
        if (std::isfinite(discriminant) && discriminant >= 0) {
            const Scalar d2 = std::copysign(std::sqrt(discriminant), width);
            t = b.step - width * (b.slope + d2 - d1) / (b.slope - a.slope + 2 * d2);
        }
        const auto inside = [&](Scalar s) { return std::isfinite(s) && (s - a.step) * (s - b.step) < 0; };
        if (!inside(t)) {
            const Scalar curvature = b.value - a.value - a.slope * width;
            t = curvature > 0 ? a.step - a.slope * width * width / (2 * curvature)
                              : Scalar(0.5) * (a.step + b.step);
        }
        if (!inside(t))
            t = Scalar(0.5) * (a.step + b.step);
        const Scalar margin = Scalar(0.1) * std::abs(width);
        return std::clamp(t, std::min(a.step, b.step) + margin, std::max(a.step, b.step) - margin);
    }

public:
    template <class Objective>
    static void LineSearch(Objective& f, Scalar& fx, Vector& x, Vector& grad, Scalar& step, const Vector& drt,
                           const Vector& xp, const LBFGSpp::LBFGSParam<Scalar>& param)
    {
        if (!(step > 0))
            throw std::invalid_argument("the initial step must be positive");
        const Scalar f0 = fx, slope0 = grad.dot(drt);
        if (!(slope0 < 0))
            throw std::logic_error("the search direction does not decrease the objective");
        const Scalar decrease = param.ftol * slope0, curvature = -param.wolfe * slope0;

        int trials = 0;
        const auto evaluate = [&](Scalar s) {
            if (trials++ >= param.max_linesearch)
                throw std::runtime_error("the line search found no strong-Wolfe point in " +
                                         std::to_string(param.max_linesearch) + " trials");
            x.noalias() = xp + s * drt;
            fx = f(x, grad);
            step = s;
            return Trial{s, fx, grad.dot(drt)};
        };
        const auto sufficient = [&](const Trial& t) { return t.value - f0 <= t.step * decrease; };

        // Bracketing: lo is the best step with sufficient decrease so far, hi the step beyond it.
        Trial lo{0, f0, slope0}, hi{};
        for (Scalar s = step;; s *= 2) {
            const Trial t = evaluate(s);
            if (!sufficient(t) || (lo.step > 0 && t.value >= lo.value)) {
                hi = t;
                break;
            }
            if (std::abs(t.slope) <= curvature)
                return;
            if (t.slope >= 0) {
                hi = lo;
                lo = t;
                break;
            }
            lo = t;
        }
        // Zoom: shrink [lo, hi] (in either order) until a trial satisfies both conditions.
        for (;;) {
            const Scalar s = interpolate(lo, hi);
            if (xp + s * drt == xp + lo.step * drt || xp + s * drt == xp + hi.step * drt) {
                // The bracket is as narrow as x can resolve. A jump in f across it bigger than
                // its rounding is a wall (a rejected point beside lo) or noise the caller knows
                // of (MinimiseOptions::resolution), not the limit of precision.
                if (std::abs(hi.value - lo.value) <= Scalar(1e-10) * std::max(Scalar(1), std::abs(f0)))
                    throw StepBelowPrecision();
                throw std::runtime_error("the line search's bracket shrank to one point, beside a jump in f");
            }
            const Trial t = evaluate(s);
            if (!sufficient(t) || t.value >= lo.value) {
                hi = t;
                continue;
            }
            if (std::abs(t.slope) <= curvature)
                return;
            if (t.slope * (hi.step - lo.step) >= 0)
                hi = lo;
            lo = t;
        }
    }
};

} // namespace evx::optim
