#pragma once
// The "Gen" baselines' estimate of g(y | x) for the regression (METHODS.md §4; paper Sec. 3.3:
// "Gaussian Process regression with a Matern32 kernel and constant kernel"), in two readings:
//
// Noise (ours, the default): y = f(x) + ε, f ~ GP(ȳ, h·Matérn-3/2), ε ~ N(0, σ_n²), every
//   hyperparameter by marginal likelihood; g(y_i | x_i) = N(y_i; μ(x_i), v(x_i) + σ_n²).
// Paper (literal): scikit-learn's GaussianProcessRegressor(ConstantKernel() * Matern(nu=1.5)),
//   zero prior mean (normalize_y=False), no noise term, only its jitter α = 1e-10 on the
//   diagonal, h and ℓ by marginal likelihood; g(y_i | x_i) = N(y_i; μ(x_i), v(x_i)) with the
//   latent variance v(x) = k(x, x) − k(x, X)(K + αI)⁻¹k(X, x) (sklearn's return_std).
//   With α this small the GP interpolates: v(x_i) ≤ α, and at the marginal-likelihood optimum
//   (ℓ at or below the typical spacing of the x's: 5e-5 by scikit-learn, 0.0075 by us on the
//   reference data, test_genbayes_generative_g) μ(x_i) = y_i,
//   so log g(y_i | x_i) = −½ log(2π α) ≈ 10.59 at every point. Every log r_i = log p(y_i | x_i, θ)
//   − log g_i on the paper's box (log p ≤ 0.58 there, log σ² ≥ −3) is then below the clip at
//   −5: D̂_f(θ) is the same constant at every θ and the "posterior" is the prior.

#include <Eigen/Dense>

namespace evx::genbayes {

enum class GenerativeG { Noise, Paper };

constexpr double kSklearnJitter = 1e-10; // GaussianProcessRegressor's default alpha

struct PaperGp {
    double outputScale = 0; // h of ConstantKernel
    double lengthscale = 0; // ℓ of Matern(nu=1.5)
    double logMarginalLikelihood = 0;
};

// The paper's GP at given hyperparameters: log g(y_i | x_i) at the training points, and its
// log marginal likelihood (with the jitter α in K, as scikit-learn computes it).
Eigen::VectorXd paperGpLogDensity(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double outputScale,
                                  double lengthscale, double* logMarginalLikelihood = nullptr);

// h and ℓ by marginal likelihood (L-BFGS-B) within scikit-learn's default bounds [1e-5, 1e5],
// from scikit-learn's start h = ℓ = 1 (its n_restarts_optimizer = 0), α fixed; hyperparameters
// where K + αI is not numerically positive definite are rejected, as scikit-learn does.
PaperGp fitPaperGp(const Eigen::VectorXd& x, const Eigen::VectorXd& y);

// log g(y_i | x_i) at the training points under the chosen reading (see above).
Eigen::VectorXd regressionGenerativeLogDensity(const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                                               GenerativeG kind);

} // namespace evx::genbayes
