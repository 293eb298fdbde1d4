#pragma once
// Predictions of one growing GP at a fixed set of points xs (an acquisition grid). With
// K = L Lᵀ and V = L⁻¹ k(X, xs),
//   mean(xs) = m + k(xs, X) α,   var(xs) = k(x, x) − colwise ‖V‖²,
// and appending an observation appends a row [lᵀ d] to L and the row (k(x, xs) − lᵀV)/d to V:
// O(n·m) per sample instead of the O(n²·m) solve and n·m kernel evaluations of
// GpRegression::predict. A refactorisation (refit, jitter, new kernel, another GP) is detected
// through CheckedCholesky::revision() and the inputs, and recomputes V in full.

#include "gp/gp_regression.h"

#include <cstdint>

namespace evx::gp {

class FixedPointPredictor {
public:
    explicit FixedPointPredictor(Eigen::MatrixXd points) : m_xs(std::move(points)) {}

    const Eigen::MatrixXd& points() const { return m_xs; }
    // Brings V up to date with gp.
    void update(const GpRegression& gp);
    // Mean and variance of gp at the points (updates first).
    void predict(const GpRegression& gp, Eigen::VectorXd& mean, Eigen::VectorXd& variance);
    // L⁻¹ k(X, xs) and k(X, xs) as of the last update (n × m).
    auto whitened() const { return m_v.topRows(m_n); }
    auto cross() const { return m_k.topRows(m_n); }

private:
    void reserve(int rows);

    Eigen::MatrixXd m_xs;
    Eigen::MatrixXd m_x; // the inputs the rows belong to (top m_n rows)
    Eigen::MatrixXd m_k;
    Eigen::MatrixXd m_v;
    int m_n = 0;
    std::uint64_t m_revision = 0;
};

} // namespace evx::gp
