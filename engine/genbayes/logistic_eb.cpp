// Empirical-Bayes logistic regression by the Laplace approximation (MacKay 1992; Bishop,
// PRML §4.5 and §3.5.2): for the current precision α, the MAP weights by Newton's method on
//   −log p(w | y) = Σ_n logloss_n(w) + ½ α ‖w_w‖² (+ a nearly flat 1e-6 on the intercept),
// then α ← γ / ‖w_w‖² with γ = Σ_j (1 − α (A⁻¹)_jj), A the Hessian at the MAP; until α settles.
#include "genbayes/logistic.h"
#include "genbayes/outer_products.h"

#include "core/errors.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>

namespace evx::genbayes {
namespace {

constexpr double kInterceptPrecision = 1e-6;
constexpr double kMaxPrecision = 1e10; // weights all but zero: α has no finite optimum

} // namespace

LogisticFit fitLogisticEb(const LogisticData& data, const EbOptions& options)
{
    const Eigen::Index n = data.features.rows(), d = data.features.cols();
    Eigen::MatrixXd z(n, d + 1);
    z.col(0).setOnes();
    z.rightCols(d) = data.features;
    const Eigen::MatrixXd outer = packedOuterProducts(z);

    Eigen::VectorXd w = Eigen::VectorXd::Zero(d + 1);
    double alpha = options.initialPrecision;
    LogisticFit fit;
    for (fit.iterations = 1; fit.iterations <= options.maxIterations; ++fit.iterations) {
        Eigen::VectorXd prior = Eigen::VectorXd::Constant(d + 1, alpha);
        prior(0) = kInterceptPrecision;
        Eigen::LLT<Eigen::MatrixXd> hessian;
        for (int newton = 0; newton < 100; ++newton) {
            const Eigen::ArrayXd p = 1 / (1 + (-(z * w).array()).exp());
            const Eigen::VectorXd gradient =
                z.transpose() * (p - data.labels.array()).matrix() + prior.cwiseProduct(w);
            Eigen::MatrixXd h = unpackSymmetric(outer.transpose() * (p * (1 - p)).matrix(), d + 1);
            h.diagonal() += prior;
            hessian.compute(h);
            if (hessian.info() != Eigen::Success)
                throw NumericalError(
                    "empirical-Bayes logistic regression: the Hessian is not positive definite");
            const Eigen::VectorXd step = hessian.solve(gradient);
            w -= step;
            if (step.cwiseAbs().maxCoeff() < 1e-12 * std::max(1.0, w.cwiseAbs().maxCoeff()))
                break;
        }
        const Eigen::VectorXd covarianceDiagonal =
            hessian.solve(Eigen::MatrixXd::Identity(d + 1, d + 1)).diagonal();
        const double gamma = (1 - alpha * covarianceDiagonal.tail(d).array()).sum();
        const double norm2 = w.tail(d).squaredNorm();
        const double alphaNew =
            norm2 > 0 ? std::min(kMaxPrecision, std::max(gamma, 0.0) / norm2) : kMaxPrecision;
        const double change = std::fabs(alphaNew - alpha) / alpha;
        alpha = std::max(alphaNew, 1e-12);
        if (change < options.tolerance) {
            fit.converged = true;
            break;
        }
    }
    fit.iterations = std::min(fit.iterations, options.maxIterations);
    fit.intercept = w(0);
    fit.weights = w.tail(d);
    fit.penalty = alpha;
    return fit;
}

} // namespace evx::genbayes
