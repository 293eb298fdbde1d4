#pragma once
// Tests of normality for the latent means of a BNN+LV (METHODS.md §5).
//
// Henze–Zirkler (1990): with the sample standardised by its mean and the biased (1/N)
// covariance S, D_ij = (x_i − x_j)ᵀ S⁻¹ (x_i − x_j), D_i = (x_i − x̄)ᵀ S⁻¹ (x_i − x̄) and the
// standard smoothing β = (1/√2)((2d + 1)N/4)^{1/(d+4)} (the BNN paper prints it wrongly),
//   HZ = (1/N) Σ_ij e^{−β² D_ij/2} − 2(1 + β²)^{−d/2} Σ_i e^{−β² D_i/(2(1 + β²))} + N(1 + 2β²)^{−d/2}.
// HZ ≥ 0 and grows with the departure from normality. The conventions match R's MVN and
// pingouin's multivariate_normality.
//
// Kolmogorov–Smirnov: sup_x |F_N(x) − F(x)| of a 1-D sample, taken exactly at both sides of
// every step of the empirical CDF.

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace evx::stats {

double henzeZirklerBeta(int n, int d);
// x: N × d, N > d.
double henzeZirkler(const Eigen::MatrixXd& x);
// The mean of HZ under normality in the lognormal approximation Henze and Zirkler use for
// p-values (it is asymptotic: a finite-sample Monte Carlo mean lies within a few percent).
double henzeZirklerNullMean(int n, int d);

double kolmogorovSmirnov(std::vector<double> sample, const std::function<double(double)>& cdf);
double kolmogorovSmirnovNormal(std::vector<double> sample, double sd); // against N(0, sd²)

} // namespace evx::stats
