#include "gp/fixed_point_predictor.h"

namespace evx::gp {

void FixedPointPredictor::reserve(int rows)
{
    if (m_v.rows() >= rows)
        return;
    // Geometric growth: one sample at a time must not copy the matrices every step.
    const int cap = std::max(rows, 2 * int(m_v.rows()) + 8);
    const Eigen::Index m = m_xs.rows();
    Eigen::MatrixXd x(cap, m_xs.cols()), k(cap, m), v(cap, m);
    x.topRows(m_n) = m_x.topRows(m_n);
    k.topRows(m_n) = m_k.topRows(m_n);
    v.topRows(m_n) = m_v.topRows(m_n);
    m_x.swap(x);
    m_k.swap(k);
    m_v.swap(v);
}

void FixedPointPredictor::update(const GpRegression& gp)
{
    const int n = gp.size();
    const Eigen::MatrixXd& x = gp.inputs();
    bool same = gp.factor().revision() == m_revision && n >= m_n && m_x.cols() == x.cols();
    for (int i = 0; same && i < m_n; ++i)
        same = m_x.row(i) == x.row(i);
    if (!same) {
        m_n = 0;
        m_revision = gp.factor().revision();
    }
    if (n == m_n)
        return;
    reserve(n);
    const auto l = gp.factor().matrixL();
    if (m_n == 0) {
        // Everything anew: one kernel matrix and one blocked triangular solve.
        m_x.topRows(n) = x;
        m_k.topRows(n) = gp.kernel().matrix(x, m_xs);
        m_v.topRows(n) = l.solve(m_k.topRows(n));
        m_n = n;
        return;
    }
    const auto lm = l.nestedExpression();
    for (int j = m_n; j < n; ++j) {
        m_x.row(j) = x.row(j);
        m_k.row(j) = gp.kernel().matrix(x.row(j), m_xs);
        m_v.row(j) = (m_k.row(j) - lm.row(j).head(j) * m_v.topRows(j)) / lm(j, j);
    }
    m_n = n;
}

void FixedPointPredictor::predict(const GpRegression& gp, Eigen::VectorXd& mean, Eigen::VectorXd& variance)
{
    update(gp);
    const Eigen::Index m = m_xs.rows();
    if (m_n == 0) {
        mean = Eigen::VectorXd::Constant(m, gp.priorMean());
        variance = Eigen::VectorXd::Constant(m, gp.kernel().diagonal());
        return;
    }
    mean = (cross().transpose() * gp.alpha()).array() + gp.priorMean();
    variance =
        (gp.kernel().diagonal() - whitened().colwise().squaredNorm().array()).max(0.0).matrix().transpose();
}

} // namespace evx::gp
