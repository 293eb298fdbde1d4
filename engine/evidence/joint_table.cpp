#include "evidence/joint_table.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <cmath>
#include <limits>

namespace evx::evidence {
namespace {

Eigen::ArrayXd logWeights(const UniformGrid& g)
{
    Eigen::ArrayXd w(g.size());
    for (int i = 0; i < g.size(); ++i)
        w[i] = std::log(g.weight(i));
    return w;
}

// Trapezoid marginal over the other axis, as a log density on this one.
Eigen::ArrayXd logMarginal(const Eigen::ArrayXXd& logP, const Eigen::ArrayXd& logW, bool overColumns)
{
    const Eigen::Index m = overColumns ? logP.rows() : logP.cols();
    Eigen::ArrayXd out(m);
    for (Eigen::Index k = 0; k < m; ++k)
        out[k] = stats::logSumExp(overColumns ? Eigen::ArrayXd(logP.row(k).transpose() + logW)
                                              : Eigen::ArrayXd(logP.col(k) + logW));
    return out;
}

std::vector<double> exponentiated(const Eigen::ArrayXd& logValues)
{
    std::vector<double> out(static_cast<std::size_t>(logValues.size()));
    for (Eigen::Index i = 0; i < logValues.size(); ++i)
        out[std::size_t(i)] = std::exp(logValues[i]);
    return out;
}

} // namespace

JointTable::JointTable(const BaseModel& model, const UniformGrid& x, const UniformGrid& y)
    : m_x(x), m_y(y), m_logP(x.size(), y.size())
{
    for (int i = 0; i < x.size(); ++i) {
        const double lp = model.logPrior(x.at(i));
        for (int j = 0; j < y.size(); ++j)
            m_logP(i, j) = lp + model.logLikelihood(y.at(j), x.at(i));
    }
    if (!std::isfinite(m_logP.maxCoeff()))
        throw NumericalError("the joint p(x, y) vanishes on the whole grid");
    normalise();
}

JointTable::JointTable(const UniformGrid& x, const UniformGrid& y, Eigen::ArrayXXd logDensity)
    : m_x(x), m_y(y), m_logP(std::move(logDensity))
{
    normalise();
}

void JointTable::normalise()
{
    const Eigen::ArrayXd logPy = logMarginal(m_logP, logWeights(m_x), false);
    const double logTotal = stats::logSumExp(logPy + logWeights(m_y));
    if (!std::isfinite(logTotal))
        throw NumericalError("the updated joint p(x, y) vanishes on the whole grid");
    m_logP -= logTotal;
}

JointTable JointTable::jeffrey(const std::function<double(double)>& logQ) const
{
    Eigen::ArrayXd lq(m_y.size());
    for (int j = 0; j < m_y.size(); ++j)
        lq[j] = logQ(m_y.at(j));
    if (!std::isfinite(lq.maxCoeff()))
        throw NumericalError("the evidence q(y) vanishes on the whole y grid");
    const Eigen::ArrayXd logPy = logMarginal(m_logP, logWeights(m_x), false);
    Eigen::ArrayXXd next(m_logP.rows(), m_logP.cols());
    for (int j = 0; j < m_y.size(); ++j) {
        // p(x | y) q(y); a y the current joint rules out cannot take mass (p(x | y) is undefined).
        next.col(j) = std::isfinite(logPy[j])
                          ? Eigen::ArrayXd(m_logP.col(j) - logPy[j] + lq[j])
                          : Eigen::ArrayXd::Constant(m_logP.rows(), -std::numeric_limits<double>::infinity());
    }
    return JointTable(m_x, m_y, std::move(next));
}

JointTable JointTable::virtualEvidence(const std::function<double(double)>& logLikelihoodOfY) const
{
    Eigen::ArrayXXd next = m_logP;
    double top = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < m_y.size(); ++j) {
        const double ll = logLikelihoodOfY(m_y.at(j));
        top = std::max(top, ll);
        next.col(j) += ll;
    }
    if (!std::isfinite(top))
        throw NumericalError("the virtual evidence rules out every y on the grid");
    return JointTable(m_x, m_y, std::move(next));
}

std::vector<double> JointTable::marginalX() const
{
    return exponentiated(logMarginal(m_logP, logWeights(m_y), true));
}

std::vector<double> JointTable::marginalY() const
{
    return exponentiated(logMarginal(m_logP, logWeights(m_x), false));
}

} // namespace evx::evidence
