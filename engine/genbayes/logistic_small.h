#pragma once
// Small dense helpers shared by the VB and EB logistic solvers, whose matrices are
// (d + 1)-square with d the number of features (at most 6 in every model).

#include <Eigen/Core>

namespace evx::genbayes {

// A matrix or vector of at most maxP rows kept on the stack (maxP = Eigen::Dynamic: the heap),
// so that an iteration allocates nothing.
template <int maxP> using SmallMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, maxP, maxP>;
template <int maxP> using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, maxP, 1>;

// The largest d + 1 served from the stack; solvers fall back to dynamic sizes above it.
constexpr int kSmallSize = 8;

// S = P⁻¹ from the Cholesky factor L of P = L Lᵀ: L⁻¹ by forward substitution, then
// S = L⁻ᵀ L⁻¹. By hand because Eigen sends a triangular solve with a matrix right-hand side
// through its blocked level-3 kernel, whose set-up costs more than the arithmetic at p ≤ 8.
template <class Matrix> void inverseFromCholesky(const Matrix& l, Matrix& lInverse, Matrix& s)
{
    const Eigen::Index p = l.rows();
    lInverse.setZero();
    for (Eigen::Index j = 0; j < p; ++j) {
        lInverse(j, j) = 1 / l(j, j);
        for (Eigen::Index i = j + 1; i < p; ++i) {
            double sum = 0;
            for (Eigen::Index k = j; k < i; ++k)
                sum += l(i, k) * lInverse(k, j);
            lInverse(i, j) = -sum / l(i, i);
        }
    }
    s.noalias() = lInverse.transpose() * lInverse;
}

} // namespace evx::genbayes
