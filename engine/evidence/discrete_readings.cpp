#include "evidence/discrete_readings.h"

#include "core/errors.h"

#include <string>

namespace evx::evidence {
namespace {

void checkSize(const models::DiscreteModel& model, const Eigen::VectorXd& v)
{
    if (v.size() != model.observableStates())
        throw InvalidParameter("the evidence needs one value per state of y");
    if (!v.allFinite() || (v.array() < 0).any())
        throw InvalidParameter("the evidence values must be non-negative numbers");
}

Eigen::VectorXd normalisedTarget(const models::DiscreteModel& model, const Eigen::VectorXd& q)
{
    checkSize(model, q);
    const double total = q.sum();
    if (!(total > 0))
        throw InvalidParameter("the target marginal q(y) sums to 0: give at least one y a positive value");
    return q / total;
}

} // namespace

DiscreteReading discreteVirtualEvidence(const models::DiscreteModel& model, const Eigen::VectorXd& lambda)
{
    checkSize(model, lambda);
    const Eigen::MatrixXd joint = model.joint();
    const double evidence = (model.marginalY().array() * lambda.array()).sum(); // Σ_j λ_j p(y_j)
    if (!(evidence > 0))
        throw InvalidParameter("the likelihood ratios give every possible y weight 0 (Σ λ_j p(y_j) = 0)");
    DiscreteReading r;
    r.posteriorX = joint * lambda / evidence;
    r.marginalY = (model.marginalY().array() * lambda.array()).matrix() / evidence;
    return r;
}

DiscreteReading discreteJeffrey(const models::DiscreteModel& model, const Eigen::VectorXd& q)
{
    const Eigen::VectorXd target = normalisedTarget(model, q);
    DiscreteReading r;
    r.posteriorX = Eigen::VectorXd::Zero(model.latentStates());
    for (int k = 0; k < model.observableStates(); ++k)
        if (target[k] > 0)
            r.posteriorX += target[k] * model.posteriorGivenY(k);
    r.marginalY = target;
    return r;
}

Eigen::VectorXd equivalentLambda(const models::DiscreteModel& model, const Eigen::VectorXd& q)
{
    const Eigen::VectorXd target = normalisedTarget(model, q);
    const Eigen::VectorXd py = model.marginalY();
    Eigen::VectorXd lambda(target.size());
    for (Eigen::Index k = 0; k < target.size(); ++k) {
        if (target[k] > 0 && !(py[k] > 0))
            throw InvalidParameter("q puts mass on y_" + std::to_string(k + 1) +
                                   ", which the model rules out: no likelihood ratio reproduces it");
        lambda[k] = target[k] > 0 ? target[k] / py[k] : 0;
    }
    return lambda / lambda.maxCoeff();
}

Eigen::VectorXd equivalentTarget(const models::DiscreteModel& model, const Eigen::VectorXd& lambda)
{
    return discreteVirtualEvidence(model, lambda).marginalY;
}

ConsistencyCheck discreteConsistency(const models::DiscreteModel& model, const Eigen::VectorXd& q)
{
    const Eigen::VectorXd target = normalisedTarget(model, q);
    return {1 - model.marginalY().squaredNorm(), 1 - target.squaredNorm()};
}

} // namespace evx::evidence
