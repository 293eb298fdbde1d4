// Variational Bayesian logistic regression with the Jaakkola–Jordan bound (Bishop, PRML
// §10.6; Drugowitsch 2013) and a Gamma(a0, b0) hyperprior on the precision α of the weights:
//   λ(ξ) = tanh(ξ/2) / (4ξ)
//   S⁻¹ = diag(p) + 2 Σ_n λ(ξ_n) z_n z_nᵀ,   m = S Σ_n (y_n − ½) z_n,   z_n = (1, x_n)
//   ξ_n² = z_nᵀ (S + m mᵀ) z_n,              E[α] = (a0 + d/2) / (b0 + ½ (‖m_w‖² + tr S_ww))
// with p = (p_b, E[α], …, E[α]); the intercept's p_b is a fixed, nearly flat 1e-6.
// E[α] is stepped by a safeguarded secant on log α towards the fixed point of its update.
#include "genbayes/logistic.h"
#include "genbayes/logistic_small.h"
#include "genbayes/outer_products.h"

#include "core/errors.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>

namespace evx::genbayes {
namespace {

constexpr double kInterceptPrecision = 1e-6;

// λ(ξ) for every point at once: tanh(ξ/2) = (1 − e^−ξ)/(1 + e^−ξ) through Eigen's vectorised
// exp (a scalar tanh per point cost as much as the matrix algebra of an iteration); near 0
// the series 1/8 − ξ²/192 + … avoids 0/0.
void jaakkolaLambda(const Eigen::ArrayXd& xi, Eigen::ArrayXd& e, Eigen::ArrayXd& lambda)
{
    e = (-xi).exp();
    lambda = (xi < 1e-6).select(0.125 - xi.square() / 192, (1 - e) / ((1 + e) * 4 * xi));
}

// The iterations with (d + 1)-square matrices of at most maxP rows (logistic_small.h): with
// dynamic ones, allocations and the inverse cost a third of an iteration.
template <int maxP>
LogisticFit iterate(const Eigen::MatrixXd& z, const Eigen::VectorXd& labels, const VbOptions& options)
{
    using Matrix = SmallMatrix<maxP>;
    using Vector = SmallVector<maxP>;
    const Eigen::Index n = z.rows(), p = z.cols(), d = p - 1;
    const Vector target = z.transpose() * (labels.array() - 0.5).matrix();
    const Eigen::MatrixXd outer = packedOuterProducts(z);

    Eigen::ArrayXd xi = Eigen::ArrayXd::Ones(n), e(n), lambda(n);
    Eigen::VectorXd packed(outer.cols());
    Vector m = Vector::Zero(p), mNew(p);
    Matrix precision(p, p), s(p, p), lower(p, p), lInverse(p, p);
    Eigen::LLT<Matrix> llt(p);
    double alpha = options.a0 / options.b0;
    double previousU = 0, previousResidual = 0; // the secant's last point
    LogisticFit fit;
    for (fit.iterations = 1; fit.iterations <= options.maxIterations; ++fit.iterations) {
        jaakkolaLambda(xi, e, lambda);
        packed.noalias() = outer.transpose() * lambda.matrix();
        unpackSymmetric(packed, 2, precision);
        precision(0, 0) += kInterceptPrecision;
        precision.diagonal().tail(d).array() += alpha;
        llt.compute(precision);
        if (llt.info() != Eigen::Success)
            throw NumericalError(
                "variational logistic regression: the posterior precision is not positive definite");
        lower = llt.matrixL();
        inverseFromCholesky(lower, lInverse, s);
        mNew.noalias() = s * target;
        const double bN = options.b0 + 0.5 * (mNew.tail(d).squaredNorm() + s.diagonal().tail(d).sum());
        s.noalias() += mNew * mNew.transpose();
        packForQuadraticForm(s, packed);
        xi = (outer * packed).array().max(0.0).sqrt();
        // The update α ← (a0 + d/2)/bN converges only linearly, ~0.7 a step on the regression's
        // features (40 iterations), while (m, S, ξ) at fixed α settle at ~0.2 a step. As in
        // logistic_eb.cpp, the secant through the last two points of r(u) = log(update) − u
        // with u = log α takes the slow direction in a few steps (16 iterations, and closer to
        // the fixed point than the plain update at the same tolerance); the plain step is the
        // fallback when the secant's slope does not describe a contraction.
        const double u = std::log(alpha), residual = std::log((options.a0 + 0.5 * double(d)) / bN) - u;
        double step = residual;
        if (fit.iterations > 1) {
            const double slope = (residual - previousResidual) / (u - previousU);
            if (std::isfinite(slope) && slope < 0)
                step = std::clamp(-residual / slope, -2.0, 2.0);
        }
        previousU = u;
        previousResidual = residual;
        alpha = std::exp(u + step);
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

} // namespace

Eigen::VectorXd LogisticFit::decisions(const Eigen::MatrixXd& x) const
{
    return (x * weights).array() + intercept;
}

LogisticFit fitLogisticVb(const LogisticData& data, const VbOptions& options)
{
    const Eigen::MatrixXd z = withInterceptColumn(data.features);
    const Eigen::Index d = data.features.cols();
    return d + 1 <= kSmallSize ? iterate<kSmallSize>(z, data.labels, options)
                               : iterate<Eigen::Dynamic>(z, data.labels, options);
}

} // namespace evx::genbayes
