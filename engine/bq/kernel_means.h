#pragma once
// The two integrals BQ needs (BQ paper eq. 1.65–1.66):
//   z_n = ∫ k(x, x_n) p(x) dx,   V_prior = ∬ k(x, x') p(x) p(x') dx dx'.
// Gaussian kernel h N(x | x', A) with p = N(b, B), A and B diagonal (eq. 1.36–1.39):
//   z_n = h N(x_n | b, A + B),   V_prior = h N(b | b, A + 2B)   (any dimension, closed form).
// Matérn-3/2: numerically, by adaptive Gauss–Kronrod (Boost.Math) in 1-D only, split at the
// kernel's kink x_n; V_prior by the same rule nested. Other dimensions throw InvalidParameter.

#include "bq/gaussian_measure.h"
#include "gp/kernel.h"

namespace evx::bq {

Eigen::VectorXd kernelMeans(const gp::Kernel& k, const Eigen::MatrixXd& x, const GaussianMeasure& p);
double kernelMean(const gp::Kernel& k, const double* x, const GaussianMeasure& p);
double priorVariance(const gp::Kernel& k, const GaussianMeasure& p);

} // namespace evx::bq
