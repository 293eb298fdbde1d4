#pragma once
// Sums of per-point outer products for the logistic solvers (VB, EB), whose every iteration
// needs Σ_n c_n z_n z_nᵀ and the quadratic forms z_nᵀ M z_n for a small d + 1 ≤ 7: with the
// products z_n z_nᵀ packed once per fit (their (j, k), j ≤ k, entries column by column in a
// row per point), both become one matrix–vector product, half the work of forming Zᵀ C Z
// and Z M row by row.

#include <Eigen/Core>

namespace evx::genbayes {

// Row n: the packed entries of z_n z_nᵀ for the rows z_n of z.
Eigen::MatrixXd packedOuterProducts(const Eigen::MatrixXd& z);
// The symmetric p × p matrix from packed entries: unpackSymmetric(outerᵀ c) = Σ_n c_n z_n z_nᵀ.
Eigen::MatrixXd unpackSymmetric(const Eigen::VectorXd& packed, Eigen::Index p);
// The same into an existing p × p matrix (scaled by `factor`), for loops that allocate nothing.
void unpackSymmetric(const Eigen::VectorXd& packed, double factor, Eigen::Ref<Eigen::MatrixXd> out);
// w with (outer · w)_n = z_nᵀ M z_n for symmetric M: its packed entries, off-diagonals twice.
Eigen::VectorXd packForQuadraticForm(const Eigen::MatrixXd& m);
void packForQuadraticForm(const Eigen::Ref<const Eigen::MatrixXd>& m, Eigen::Ref<Eigen::VectorXd> out);

} // namespace evx::genbayes
