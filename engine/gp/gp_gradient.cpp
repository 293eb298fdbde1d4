// GpRegression::logMarginalLikelihoodGradient: ∂ log p / ∂θ_j = ½ Σ_ik W_ik ∂K_ik/∂θ_j with the
// symmetric W = ααᵀ − K⁻¹, summed over W's lower triangle (Σ_ik A_ik = Σ_i A_ii + 2 Σ_{i>k} A_ik)
// and with no ∂K/∂θ_j ever stored. Every L-BFGS step of a hyperparameter fit takes one; the n × n
// matrix per axis and the products over both triangles were a fifth of a gradient at n = 150
// (bq-2d-marginal), and the per-entry scalar loops of the Matérn path 12 % of a
// generalised-Bayes run.
#include "gp/gp_regression.h"

namespace evx::gp {
namespace {
constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kSqrt5 = 2.23606797749979;
} // namespace

Eigen::VectorXd GpRegression::logMarginalLikelihoodGradient() const
{
    // With S = W ∘ k(X, X), U_d = ((x_d − x_d')/w_d)² and r² = Σ_d U_d:
    //   ∂k/∂log h = k                              g_h = ½ ΣS
    //   Gaussian: ∂k/∂log w_d = (U_d − 1) k         g_d = ½ (Σ S∘U_d − ΣS)
    //   Matérn:   ∂k/∂log w_d = −k'(r) U_d / r      g_d = ½ Σ W∘q∘U_d
    // where −k'(r)/r = q is k's own exponential times a polynomial, written through k itself:
    // q = 3k/(1 + s) (3/2, s = √3 r) and q = (5/3) k (1 + s)/(1 + s + s²/3) (5/2, s = √5 r).
    const int n = size(), dims = m_kernel.dimension();
    const KernelKind kind = m_kernel.kind();
    const Eigen::VectorXd& a = alpha();
    const Eigen::MatrixXd kinv = m_chol.lowerInverse();
    const auto kStored = m_chol.kernelMatrix();
    Eigen::MatrixXd scaled(n, dims);
    for (int d = 0; d < dims; ++d)
        scaled.col(d) = m_x.col(d) / m_kernel.lengthscales()[d];
    double sumS = 0, traceW = 0, sumW = 0;
    Eigen::VectorXd sumQU = Eigen::VectorXd::Zero(dims);
    Eigen::ArrayXd w(n), sCol(n), u(n), r2(n), s(n), q(n);
    for (int j = 0; j < n; ++j) {
        const int m = n - j;
        w.head(m) = a[j] * a.tail(m).array() - kinv.col(j).tail(m).array();
        sCol.head(m) = w.head(m) * (kStored.col(j).tail(m).array() - m_constant);
        sCol[0] -= w[0] * m_noise; // the kernel's diagonal is the stored one less σ_n²
        sumS += 2 * sCol.head(m).sum() - sCol[0];
        traceW += w[0];
        sumW += 2 * w.head(m).sum() - w[0];
        if (kind == KernelKind::Gaussian) {
            for (int d = 0; d < dims; ++d) // U_d vanishes on the diagonal
                sumQU[d] +=
                    2 * (sCol.head(m) * (scaled.col(d).tail(m).array() - scaled(j, d)).square()).sum();
            continue;
        }
        r2.head(m) = 0;
        for (int d = 0; d < dims; ++d)
            r2.head(m) += (scaled.col(d).tail(m).array() - scaled(j, d)).square();
        if (kind == KernelKind::Matern52) {
            s.head(m) = kSqrt5 * r2.head(m).sqrt();
            q.head(m) =
                sCol.head(m) * (5.0 / 3.0) * (1 + s.head(m)) / (1 + s.head(m) + s.head(m).square() / 3);
        } else {
            s.head(m) = kSqrt3 * r2.head(m).sqrt();
            q.head(m) = sCol.head(m) * 3 / (1 + s.head(m));
        }
        for (int d = 0; d < dims; ++d) {
            u.head(m) = (scaled.col(d).tail(m).array() - scaled(j, d)).square();
            sumQU[d] += 2 * (q.head(m) * u.head(m)).sum();
        }
    }
    Eigen::VectorXd g(1 + dims + m_hasNoise + m_hasConstant);
    g[0] = 0.5 * sumS;
    for (int d = 0; d < dims; ++d)
        g[1 + d] = kind == KernelKind::Gaussian ? 0.5 * (sumQU[d] - sumS) : 0.5 * sumQU[d];
    Eigen::Index i = 1 + dims;
    // ∂K/∂log σ_n² = σ_n² I and ∂K/∂log c = c 11ᵀ.
    if (m_hasNoise)
        g[i++] = 0.5 * m_noise * traceW;
    if (m_hasConstant)
        g[i] = 0.5 * m_constant * sumW;
    return g;
}

} // namespace evx::gp
