#include "evidence/joint_table.h"

#include "core/errors.h"

#include <cmath>
#include <limits>

namespace evx::evidence {
namespace {

Eigen::ArrayXd weights(const UniformGrid& g)
{
    Eigen::ArrayXd w(g.size());
    for (int i = 0; i < g.size(); ++i)
        w[i] = g.weight(i);
    return w;
}

} // namespace

JointTable::JointTable(const BaseModel& model, const UniformGrid& x, const UniformGrid& y)
    : m_x(x), m_y(y), m_p(x.size(), y.size())
{
    // Logs first, scaled by their maximum, so a sharp model cannot underflow the whole table.
    Eigen::ArrayXXd logP(x.size(), y.size());
    for (int i = 0; i < x.size(); ++i) {
        const double lp = model.logPrior(x.at(i));
        for (int j = 0; j < y.size(); ++j)
            logP(i, j) = lp + model.logLikelihood(y.at(j), x.at(i));
    }
    const double top = logP.maxCoeff();
    if (!std::isfinite(top))
        throw NumericalError("the joint p(x, y) vanishes on the whole grid");
    m_p = (logP - top).exp();
    normalise();
}

JointTable::JointTable(const UniformGrid& x, const UniformGrid& y, Eigen::ArrayXXd density)
    : m_x(x), m_y(y), m_p(std::move(density))
{
    normalise();
}

void JointTable::normalise()
{
    const double total = (weights(m_x).matrix().transpose() * m_p.matrix() * weights(m_y).matrix())(0, 0);
    if (!(total > 0) || !std::isfinite(total))
        throw NumericalError("the updated joint p(x, y) vanishes on the whole grid");
    m_p /= total;
}

JointTable JointTable::jeffrey(const std::function<double(double)>& logQ) const
{
    const Eigen::ArrayXd wx = weights(m_x);
    Eigen::ArrayXXd next(m_p.rows(), m_p.cols());
    std::vector<double> lq(m_y.size());
    double top = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < m_y.size(); ++j) {
        lq[j] = logQ(m_y.at(j));
        top = std::max(top, lq[j]);
    }
    if (!std::isfinite(top))
        throw NumericalError("the evidence q(y) vanishes on the whole y grid");
    for (int j = 0; j < m_y.size(); ++j) {
        const double py = (wx * m_p.col(j)).sum();
        const double q = std::exp(lq[j] - top);
        // p(x | y) q(y); a y the current joint rules out cannot take mass (p(x | y) is undefined).
        next.col(j) = py > 0 ? Eigen::ArrayXd(m_p.col(j) * (q / py)) : Eigen::ArrayXd::Zero(m_p.rows());
    }
    return JointTable(m_x, m_y, std::move(next));
}

JointTable JointTable::virtualEvidence(const std::function<double(double)>& logLikelihoodOfY) const
{
    std::vector<double> ll(m_y.size());
    double top = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < m_y.size(); ++j) {
        ll[j] = logLikelihoodOfY(m_y.at(j));
        top = std::max(top, ll[j]);
    }
    if (!std::isfinite(top))
        throw NumericalError("the virtual evidence rules out every y on the grid");
    Eigen::ArrayXXd next = m_p;
    for (int j = 0; j < m_y.size(); ++j)
        next.col(j) *= std::exp(ll[j] - top);
    return JointTable(m_x, m_y, std::move(next));
}

std::vector<double> JointTable::marginalX() const
{
    const Eigen::VectorXd m = m_p.matrix() * weights(m_y).matrix();
    return {m.data(), m.data() + m.size()};
}

std::vector<double> JointTable::marginalY() const
{
    const Eigen::VectorXd m = m_p.matrix().transpose() * weights(m_x).matrix();
    return {m.data(), m.data() + m.size()};
}

} // namespace evx::evidence
