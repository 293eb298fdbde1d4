// Variational Bayesian logistic regression with the Jaakkola–Jordan bound (Bishop, PRML
// §10.6; Drugowitsch 2013) and a Gamma(a0, b0) hyperprior on the precision α of the weights:
//   λ(ξ) = tanh(ξ/2) / (4ξ)
//   S⁻¹ = diag(p) + 2 Σ_n λ(ξ_n) z_n z_nᵀ,   m = S Σ_n (y_n − ½) z_n,   z_n = (1, x_n)
//   ξ_n² = z_nᵀ (S + m mᵀ) z_n,              E[α] = (a0 + d/2) / (b0 + ½ (‖m_w‖² + tr S_ww))
// with p = (p_b, E[α], …, E[α]); the intercept's p_b is a fixed, nearly flat 1e-6.
#include "genbayes/logistic.h"
#include "genbayes/outer_products.h"

#include "core/errors.h"

#include <Eigen/Cholesky>

#include <cmath>

namespace evx::genbayes {
namespace {

constexpr double kInterceptPrecision = 1e-6;

// λ(ξ) for every point at once: tanh(ξ/2) = (1 − e^−ξ)/(1 + e^−ξ) through Eigen's vectorised
// exp (a scalar tanh per point cost as much as the matrix algebra of an iteration); near 0
// the series 1/8 − ξ²/192 + … avoids 0/0.
Eigen::ArrayXd jaakkolaLambda(const Eigen::ArrayXd& xi)
{
    const Eigen::ArrayXd e = (-xi).exp();
    return (xi < 1e-6).select(0.125 - xi.square() / 192, (1 - e) / ((1 + e) * 4 * xi));
}

} // namespace

Eigen::VectorXd LogisticFit::decisions(const Eigen::MatrixXd& x) const
{
    return (x * weights).array() + intercept;
}

LogisticFit fitLogisticVb(const LogisticData& data, const VbOptions& options)
{
    const Eigen::Index n = data.features.rows(), d = data.features.cols();
    Eigen::MatrixXd z(n, d + 1);
    z.col(0).setOnes();
    z.rightCols(d) = data.features;
    const Eigen::VectorXd target = z.transpose() * (data.labels.array() - 0.5).matrix();

    const Eigen::MatrixXd outer = packedOuterProducts(z);

    Eigen::VectorXd xi = Eigen::VectorXd::Ones(n), m = Eigen::VectorXd::Zero(d + 1);
    double alpha = options.a0 / options.b0;
    LogisticFit fit;
    for (fit.iterations = 1; fit.iterations <= options.maxIterations; ++fit.iterations) {
        const Eigen::VectorXd lambda = jaakkolaLambda(xi.array()).matrix();
        Eigen::MatrixXd precision = unpackSymmetric(2 * outer.transpose() * lambda, d + 1);
        precision(0, 0) += kInterceptPrecision;
        precision.diagonal().tail(d).array() += alpha;
        const Eigen::LLT<Eigen::MatrixXd> llt(precision);
        if (llt.info() != Eigen::Success)
            throw NumericalError(
                "variational logistic regression: the posterior precision is not positive definite");
        const Eigen::MatrixXd s = llt.solve(Eigen::MatrixXd::Identity(d + 1, d + 1));
        const Eigen::VectorXd mNew = s * target;
        const Eigen::MatrixXd second = s + mNew * mNew.transpose();
        xi = (outer * packForQuadraticForm(second)).array().max(0.0).sqrt().matrix();
        const double bN = options.b0 + 0.5 * (mNew.tail(d).squaredNorm() + s.diagonal().tail(d).sum());
        alpha = (options.a0 + 0.5 * double(d)) / bN;
        const double change = (mNew - m).cwiseAbs().maxCoeff();
        m = mNew;
        if (change < options.tolerance) {
            fit.converged = true;
            break;
        }
    }
    fit.iterations = std::min(fit.iterations, options.maxIterations);
    fit.intercept = m(0);
    fit.weights = m.tail(d);
    fit.penalty = alpha;
    return fit;
}

} // namespace evx::genbayes
