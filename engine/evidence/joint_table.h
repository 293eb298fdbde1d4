#pragma once
// Sequential updates of a joint p(x, y) tabulated on a grid, for applying several pieces of
// uncertain evidence one after the other (uncertain-evidence paper, App. A):
//   Jeffrey's rule  p'(x, y) = p(x | y) q(y)       (keeps p(x | y), replaces the y marginal)
//   virtual         p'(x, y) ∝ p(x, y) q(ζ | y)    (multiplies by a likelihood of y)
// Two Jeffrey updates on the same y do not commute (the second overwrites the first); two
// virtual updates do (multiplication commutes).

#include "core/grid.h"
#include "evidence/base_model.h"

#include <Eigen/Core>
#include <functional>

namespace evx::evidence {

class JointTable {
public:
    // p(x, y) ∝ p(x) p(y | x) on the product grid, normalised as a density.
    JointTable(const BaseModel& model, const UniformGrid& x, const UniformGrid& y);

    // q is evaluated as a log density in y; both return the updated table.
    JointTable jeffrey(const std::function<double(double)>& logQ) const;
    JointTable virtualEvidence(const std::function<double(double)>& logLikelihoodOfY) const;

    std::vector<double> marginalX() const; // density on the x grid
    std::vector<double> marginalY() const; // density on the y grid
    const UniformGrid& xGrid() const { return m_x; }
    const UniformGrid& yGrid() const { return m_y; }

private:
    JointTable(const UniformGrid& x, const UniformGrid& y, Eigen::ArrayXXd logDensity);
    void normalise();

    UniformGrid m_x, m_y;
    // (i, j): log density at (x_i, y_j). Kept in logs: after evidence far out in y the mass
    // there is below 1e-308 of the peak, and a second update that moves it back must still
    // find it (ue-commutativity with ζ_a = −6, σ_a = 2 and ζ_b = 3, σ_b = 0.3).
    Eigen::ArrayXXd m_logP;
};

} // namespace evx::evidence
