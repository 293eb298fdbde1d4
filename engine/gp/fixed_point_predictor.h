#pragma once
// Predictions of one growing GP at a fixed set of points xs (an acquisition grid). With
// K = L Lᵀ and V = L⁻¹ k(X, xs),
//   mean(xs) = m + Vᵀ L⁻¹(y − m),   var(xs) = k(x, x) − colwise ‖V‖²,
// and appending an observation appends a row [lᵀ d] to L and the row (k(x, xs) − lᵀV)/d to V:
// O(n·m) per sample instead of the O(n²·m) solve and n·m kernel evaluations of
// GpRegression::predict. A refactorisation (refit, jitter, new kernel, another GP) is detected
// through CheckedCholesky::revision() and the inputs, and recomputes V in full.

#include "gp/gp_regression.h"

namespace evx::gp {

class FixedPointPredictor {
public:
    explicit FixedPointPredictor(Eigen::MatrixXd points) : m_xs(std::move(points)) {}

    const Eigen::MatrixXd& points() const { return m_xs; }
    // Room for V with this many rows, allocated now: a caller that knows how many samples a run
    // will add saves the regrowths (their page faults were a sixth of an active bq-2d-marginal run).
    void reserve(int rows);
    // Brings V up to date with gp.
    void update(const GpRegression& gp);
    // Mean and variance of gp at the points (updates first).
    void predict(const GpRegression& gp, Eigen::VectorXd& mean, Eigen::VectorXd& variance);
    // Vᵀ = (L⁻¹ k(X, xs))ᵀ as of the last update (m × n): a sample's row of V is a contiguous
    // column here, so an append writes one column and its product lᵀV reads Vᵀ column by column.
    auto whitenedTransposed() const { return m_vt.leftCols(m_covered.rows()); }

private:
    Eigen::MatrixXd m_xs;
    Eigen::MatrixXd m_x; // the inputs the columns of m_vt belong to (its top rows)
    Eigen::MatrixXd m_vt;
    FactorRows m_covered; // the columns of m_vt that are current
};

} // namespace evx::gp
