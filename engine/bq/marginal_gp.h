#pragma once
// The marginal of a 2-D GP posterior over its nuisance input y (BQ paper Sec. 1.13):
//   f̄(x) = ∫ f(x, y) p(y) dy,  p(y) = N(μ_y, σ_y²),  kernel k = h N([x, y] | [x', y'], diag(w_x², w_y²)):
//   E[f̄(x)] = m + Σ_i β_i z_i(x),   z_i(x) = h N(x | X_i, w_x²) N(Y_i | μ_y, w_y² + σ_y²)     (1.104, 1.134)
//   V[f̄(x)] = h N(x | x, w_x²) N(0 | 0, w_y² + 2σ_y²) − z(x)ᵀ K⁻¹ z(x)                      (1.135)
// with β = K⁻¹(y − m). (The paper's t1 prints N(μ_y | μ_y, ·); it is N(0 | 0, w_y² + 2σ_y²).)

#include "gp/gp_regression.h"

namespace evx::bq {

class MarginalGp {
public:
    // gp: 2-D inputs (x, y), Gaussian kernel. Throws InvalidParameter otherwise.
    MarginalGp(const gp::GpRegression& gp, double yMean, double ySd);
    // E[f̄] and V[f̄] at every entry of xs: the z(x) as the columns of one n × m matrix and one
    // blocked triangular solve L⁻¹Z (a solve per point, for a curve of 161 points at n = 150,
    // was 7 % of a bq-2d-marginal run).
    void evaluate(const Eigen::VectorXd& xs, Eigen::VectorXd& means, Eigen::VectorXd& variances) const;

private:
    double priorVariance() const;

    const gp::GpRegression& m_gp;
    double m_yMean, m_yVar;
    Eigen::VectorXd m_yFactor; // h N(Y_i | μ_y, w_y² + σ_y²)
};

// The posterior mean of the same GP on the product grid xs × ys. The Gaussian kernel factorises,
// k([x, y], [X_i, Y_i]) = k₀ e_x(x, X_i) e_y(y, Y_i) with k₀ = k(x, x) and e_d = exp(−(d − D_i)²/(2w_d²)), so
//   E[f(xs_a, ys_b)] = m + Σ_i α_i k₀ e_x(xs_a, X_i) e_y(ys_b, Y_i) = m + (E_x diag(k₀α) E_yᵀ)_ab,
// one (n_x × n)(n × n_y) product and (n_x + n_y)·n exponentials instead of n_x·n_y·n.
// Returns an n_x × n_y matrix. gp: as for MarginalGp, without a constant term.
Eigen::MatrixXd productGridMean(const gp::GpRegression& gp, const Eigen::VectorXd& xs,
                                const Eigen::VectorXd& ys);

} // namespace evx::bq
