#pragma once
// Covariance functions for GP regression and Bayesian quadrature (BQ paper, Sec. 1.2.1).
//
// Gaussian:   k(x, x') = h · N(x | x', diag(w²)) = h · Π_d (2π w_d²)^{-1/2} exp(-½ Σ_d (x_d − x'_d)² / w_d²)
//             written as a normalised density so that its integrals against a Gaussian measure
//             are Gaussian integrals in closed form (eq. 1.36–1.39).
// Matérn-3/2: k(x, x') = h · (1 + √3 r) exp(−√3 r), r² = Σ_d (x_d − x'_d)² / w_d²; its integrals
//             against a Gaussian are done numerically (bq/kernel_means.h).
// Matérn-5/2: k(x, x') = h · (1 + √5 r + 5r²/3) exp(−√5 r): twice differentiable paths, for
//             surfaces whose curvature matters (the generalised-Bayes divergence surfaces).
//
// Hyperparameters live in log space: θ = (log h, log w_1, …, log w_d).
// Points are the rows of a matrix (n × d).

#include <Eigen/Dense>

namespace evx::gp {

enum class KernelKind { Gaussian, Matern32, Matern52 };

class Kernel {
public:
    Kernel() = default;
    Kernel(KernelKind kind, double outputScale, Eigen::VectorXd lengthscales);

    KernelKind kind() const { return m_kind; }
    double outputScale() const { return m_h; }
    const Eigen::VectorXd& lengthscales() const { return m_w; }
    int dimension() const { return int(m_w.size()); }
    void setOutputScale(double h) { m_h = h; }
    void setLengthscales(const Eigen::VectorXd& w) { m_w = w; }

    double operator()(const double* x, const double* y) const;
    double diagonal() const; // k(x, x)
    Eigen::MatrixXd matrix(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) const;
    Eigen::MatrixXd matrix(const Eigen::MatrixXd& x) const; // k(X, X), symmetric: half the work
    Eigen::VectorXd column(const Eigen::MatrixXd& x, const double* y) const; // k(x_i, y)

    Eigen::VectorXd logParameters() const; // (log h, log w_1, …)
    void setLogParameters(const Eigen::VectorXd& theta);

private:
    KernelKind m_kind = KernelKind::Gaussian;
    double m_h = 1;
    Eigen::VectorXd m_w = Eigen::VectorXd::Ones(1);
};

} // namespace evx::gp
