#include "models/discrete_model.h"

#include "core/errors.h"

#include <cmath>
#include <string>

namespace evx::models {

DiscreteModel::DiscreteModel(const Eigen::VectorXd& priorWeights, const Eigen::MatrixXd& likelihoodRows)
{
    if (priorWeights.size() < 1 || likelihoodRows.rows() != priorWeights.size() || likelihoodRows.cols() < 1)
        throw InvalidParameter("the discrete model needs one likelihood row per latent state");
    if (!priorWeights.allFinite() || (priorWeights.array() < 0).any())
        throw InvalidParameter("the prior weights of x must be non-negative numbers");
    if (!likelihoodRows.allFinite() || (likelihoodRows.array() < 0).any())
        throw InvalidParameter("the likelihood weights p(y | x) must be non-negative numbers");
    const double total = priorWeights.sum();
    if (!(total > 0))
        throw InvalidParameter("the prior weights of x sum to 0: give at least one state a positive weight");
    m_prior = priorWeights / total;
    m_likelihood = likelihoodRows;
    for (Eigen::Index i = 0; i < likelihoodRows.rows(); ++i) {
        const double rowSum = likelihoodRows.row(i).sum();
        if (!(rowSum > 0))
            throw InvalidParameter("the likelihood row p(y | x_" + std::to_string(i + 1) +
                                   ") sums to 0: give at least one y a positive weight");
        m_likelihood.row(i) /= rowSum;
    }
}

Eigen::MatrixXd DiscreteModel::joint() const
{
    return m_prior.asDiagonal() * m_likelihood;
}

Eigen::VectorXd DiscreteModel::marginalY() const
{
    return m_likelihood.transpose() * m_prior;
}

Eigen::VectorXd DiscreteModel::posteriorGivenY(int k) const
{
    const Eigen::VectorXd column = joint().col(k);
    const double py = column.sum();
    if (!(py > 0))
        throw InvalidParameter("p(x | y_" + std::to_string(k + 1) + ") is undefined: the model gives y_" +
                               std::to_string(k + 1) + " probability 0");
    return column / py;
}

} // namespace evx::models
