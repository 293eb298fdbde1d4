#pragma once
// A small discrete base model p(y, x) = p(y | x) p(x): a latent cause x with n_x states and
// an observable y with n_y states (uncertain-evidence paper, Sec. 2 and eq. 3).

#include <Eigen/Core>

namespace evx::models {

class DiscreteModel {
public:
    // priorWeights: n_x non-negative weights; likelihoodRows: n_x × n_y non-negative weights,
    // row i the unnormalised p(y | x_i). Both are normalised here; throws InvalidParameter
    // when a weight is negative or not finite, or when the prior or a row sums to 0.
    DiscreteModel(const Eigen::VectorXd& priorWeights, const Eigen::MatrixXd& likelihoodRows);

    int latentStates() const { return int(m_prior.size()); }
    int observableStates() const { return int(m_likelihood.cols()); }
    const Eigen::VectorXd& prior() const { return m_prior; }           // p(x_i)
    const Eigen::MatrixXd& likelihood() const { return m_likelihood; } // (i, k): p(y_k | x_i)
    Eigen::MatrixXd joint() const;                                     // (i, k): p(x_i, y_k)
    Eigen::VectorXd marginalY() const;                                 // p(y_k)
    // p(x | y_k); throws InvalidParameter when p(y_k) = 0.
    Eigen::VectorXd posteriorGivenY(int k) const;

private:
    Eigen::VectorXd m_prior;
    Eigen::MatrixXd m_likelihood;
};

} // namespace evx::models
