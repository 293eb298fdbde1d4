#include "gp/fixed_point_predictor.h"

namespace evx::gp {

void FixedPointPredictor::reserve(int rows)
{
    if (m_vt.cols() >= rows)
        return;
    // Geometric growth: one sample at a time must not copy the matrices every step.
    const int cap = std::max(rows, 2 * int(m_vt.cols()) + 8);
    const int kept = m_covered.rows();
    Eigen::MatrixXd x(cap, m_xs.cols()), vt(m_xs.rows(), cap);
    x.topRows(kept) = m_x.topRows(kept);
    vt.leftCols(kept) = m_vt.leftCols(kept);
    m_x.swap(x);
    m_vt.swap(vt);
}

void FixedPointPredictor::update(const GpRegression& gp)
{
    const int n = gp.size();
    const Eigen::MatrixXd& x = gp.inputs();
    int from = m_x.cols() == x.cols() ? m_covered.firstNew(gp.factor()) : 0;
    for (int i = 0; i < from; ++i)
        if (m_x.row(i) != x.row(i))
            from = 0; // the same factor revision for other inputs: another GP
    if (from == n) {
        m_covered.cover(gp.factor());
        return;
    }
    reserve(n);
    const auto l = gp.factor().matrixL();
    const auto lm = l.nestedExpression();
    m_x.middleRows(from, n - from) = x.middleRows(from, n - from);
    // k(xs, X) for the new samples, a few at a time: a rebuild with one kernel call per sample
    // made the kernel a sixth of an active bq-2d-marginal run, and all at once is a temporary of
    // n·m doubles to page in.
    constexpr int kBlock = 16;
    for (int j = from; j < n; j += kBlock) {
        const int rows = std::min(kBlock, n - j);
        m_vt.middleCols(j, rows) = gp.kernel().matrix(x.middleRows(j, rows), m_xs).transpose();
    }
    if (from == 0) {
        // Everything anew: one blocked triangular solve, Vᵀ Lᵀ = k(xs, X), in place.
        l.transpose().solveInPlace<Eigen::OnTheRight>(m_vt.leftCols(n));
    } else {
        // In place: a product into a temporary first was a zeroed 961-vector per acquisition.
        for (int j = from; j < n; ++j) {
            m_vt.col(j).noalias() -= m_vt.leftCols(j) * lm.row(j).head(j).transpose();
            m_vt.col(j) /= lm(j, j);
        }
    }
    m_covered.cover(gp.factor());
}

void FixedPointPredictor::predict(const GpRegression& gp, Eigen::VectorXd& mean, Eigen::VectorXd& variance)
{
    update(gp);
    const Eigen::Index m = m_xs.rows();
    if (m_covered.rows() == 0) {
        mean = Eigen::VectorXd::Constant(m, gp.priorMean());
        variance = Eigen::VectorXd::Constant(m, gp.kernel().diagonal());
        return;
    }
    // k(xs, X) K⁻¹(y − m) = Vᵀ L⁻¹(y − m): the cross-covariances need not be kept.
    const Eigen::VectorXd residual = gp.targets().array() - gp.priorMean();
    mean = (whitenedTransposed() * gp.factor().solveL(residual)).array() + gp.priorMean();
    variance =
        (gp.kernel().diagonal() - whitenedTransposed().rowwise().squaredNorm().array()).max(0.0).matrix();
}

} // namespace evx::gp
