// Empirical-Bayes logistic regression by the Laplace approximation (MacKay 1992; Bishop,
// PRML §4.5 and §3.5.2): for the current precision α, the MAP weights by Newton's method
// (long steps halved until the loss falls) on
//   −log p(w | y) = Σ_n logloss_n(w) + ½ α ‖w_w‖² (+ a nearly flat 1e-6 on the intercept),
// then α ← γ / ‖w_w‖² with γ = Σ_j (1 − α (A⁻¹)_jj), A the Hessian at the MAP; until α settles.
// The fixed point of that update is found by a safeguarded secant on log α, warm-starting
// each Newton solve from the last MAP.
#include "genbayes/logistic.h"
#include "genbayes/logistic_small.h"
#include "genbayes/outer_products.h"

#include "core/errors.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <limits>

namespace evx::genbayes {
namespace {

constexpr double kInterceptPrecision = 1e-6;
constexpr double kMaxPrecision = 1e10; // weights all but zero: α has no finite optimum

// The iterations with (d + 1)-square matrices of at most maxP rows (logistic_small.h).
template <int maxP>
LogisticFit iterate(const Eigen::MatrixXd& z, const Eigen::VectorXd& labels, const EbOptions& options)
{
    using Matrix = SmallMatrix<maxP>;
    using Vector = SmallVector<maxP>;
    const Eigen::Index n = z.rows(), d = z.cols() - 1;
    const Eigen::MatrixXd outer = packedOuterProducts(z);

    Vector w = Vector::Zero(d + 1), prior(d + 1), gradient(d + 1), step(d + 1);
    Eigen::ArrayXd p(n);
    Eigen::VectorXd packed(outer.cols());
    Matrix h(d + 1, d + 1), lower(d + 1, d + 1), lInverse(d + 1, d + 1), covariance(d + 1, d + 1);
    Eigen::LLT<Matrix> hessian(d + 1);
    const Eigen::ArrayXd signs = 2 * labels.array() - 1;
    Eigen::ArrayXd logits(n), logitStep(n), margin(n);
    const bool fixed = options.fixedPrecision > 0;
    double alpha = fixed ? options.fixedPrecision : options.initialPrecision;
    // The previous point of the secant on u = log α (below).
    double previousU = 0, previousResidual = 0;
    bool havePrevious = false;
    LogisticFit fit;
    for (fit.iterations = 1; fit.iterations <= options.maxIterations; ++fit.iterations) {
        prior.setConstant(alpha);
        prior(0) = kInterceptPrecision;
        // The penalised loss at w − t·step from the logits z w and z·step: the log loss
        // + ½ Σ prior w².
        auto loss = [&](double t) {
            margin = signs * (logits - t * logitStep);
            return logLoss(margin).sum() + 0.5 * (prior.array() * (w - t * step).array().square()).sum();
        };
        for (int newton = 0; newton < 100; ++newton) {
            logits = (z * w).array();
            p = (1 + (-logits).exp()).inverse();
            gradient.noalias() = z.transpose() * (p - labels.array()).matrix();
            gradient += prior.cwiseProduct(w);
            packed.noalias() = outer.transpose() * (p * (1 - p)).matrix();
            unpackSymmetric(packed, 1, h);
            h.diagonal() += prior;
            hessian.compute(h);
            if (hessian.info() != Eigen::Success)
                throw NumericalError(
                    "empirical-Bayes logistic regression: the Hessian is not positive definite");
            step = gradient;
            hessian.solveInPlace(step);
            // Newton's full step can overshoot from a warm start whose points the last α left
            // saturated (p(1 − p) ≈ 0, so A ≈ α I): once it ran a regression fold's weights to
            // 1e13 and α to its floor. The log loss's curvature changes by at most e^{|u|} when
            // a logit moves by u, so a step that moves none by more than ½ keeps the Hessian
            // under e^{½} A along the way and lowers the loss by at least (1 − e^{½}/2) gᵀA⁻¹g:
            // Armijo's rule holds. A longer one is halved until the rule holds, give or take
            // the loss's last digits.
            logitStep = (z * step).array();
            if (logitStep.abs().maxCoeff() > 0.5) {
                const double now = loss(0), slope = gradient.dot(step);
                const double rounding = 64 * std::numeric_limits<double>::epsilon() * std::fabs(now);
                double t = 1;
                while (t > 1e-10 && loss(t) > now - 1e-4 * t * slope + rounding)
                    t /= 2;
                step *= t;
            }
            w -= step;
            if (step.cwiseAbs().maxCoeff() < 1e-12 * std::max(1.0, w.cwiseAbs().maxCoeff()))
                break;
        }
        if (fixed) {
            fit.converged = true;
            break;
        }
        lower = hessian.matrixL();
        inverseFromCholesky(lower, lInverse, covariance);
        const double gamma = (1 - alpha * covariance.diagonal().tail(d).array()).sum();
        const double norm2 = w.tail(d).squaredNorm();
        const double alphaNew =
            norm2 > 0 ? std::min(kMaxPrecision, std::max(gamma, 0.0) / norm2) : kMaxPrecision;
        if (std::fabs(alphaNew - alpha) / alpha < options.tolerance) {
            alpha = std::max(alphaNew, 1e-12);
            fit.converged = true;
            break;
        }
        // MacKay's update α ← F(α) = γ/‖w‖² converges only linearly (on the regression's
        // features ~0.8 a step: 90 steps to 1e-8). Its fixed point is the root of
        // r(u) = log F(eᵘ) − u, which the secant through the last two points finds
        // superlinearly. The plain step u + r is the fallback wherever the secant's slope does
        // not describe a contraction (s ≥ 0) or F hit a bound; a step moves α at most e² fold.
        const double u = std::log(alpha);
        double next = alphaNew > 0 ? std::log(alphaNew) : std::log(1e-12);
        if (alphaNew > 0 && alphaNew < kMaxPrecision) {
            const double residual = next - u;
            if (havePrevious) {
                const double slope = (residual - previousResidual) / (u - previousU);
                if (std::isfinite(slope) && slope < 0)
                    next = u + std::clamp(-residual / slope, -2.0, 2.0);
            }
            previousU = u;
            previousResidual = residual;
            havePrevious = true;
        } else {
            havePrevious = false;
        }
        const double alphaNext = std::clamp(std::exp(next), 1e-12, kMaxPrecision);
        // The MAP moves with α as dw/dα = −A⁻¹ (0, w_w): a first-order predictor saves a Newton
        // step per update; only for moderate moves, where the MAP is nearly linear in α.
        if (alphaNext < 2 * alpha && alphaNext > 0.5 * alpha) {
            step.setZero();
            step.tail(d) = w.tail(d);
            hessian.solveInPlace(step);
            w -= (alphaNext - alpha) * step;
        }
        alpha = alphaNext;
    }
    fit.iterations = std::min(fit.iterations, options.maxIterations);
    fit.intercept = w(0);
    fit.weights = w.tail(d);
    fit.penalty = alpha;
    return fit;
}

} // namespace

LogisticFit fitLogisticEb(const LogisticData& data, const EbOptions& options)
{
    const Eigen::MatrixXd z = withInterceptColumn(data.features);
    const Eigen::Index d = data.features.cols();
    return d + 1 <= kSmallSize ? iterate<kSmallSize>(z, data.labels, options)
                               : iterate<Eigen::Dynamic>(z, data.labels, options);
}

} // namespace evx::genbayes
