#pragma once
// The structures that BQ over nonparametric models integrates over (BQ paper Sec. 1.7–1.8,
// METHODS.md §2b), shared by the models, their samplers and the kernels between them.

#include <Eigen/Dense>

#include <vector>

namespace evx::bq::structured {

// A discrete mixing measure G = Σ_j π_j δ_{u_j} of a DP mixture, its atoms in standardised units:
// component j has mean μ_j = λ + σ_p u_j. Under the DP prior with base N(λ, σ_p²), G in these
// units is DP(α, N(0, 1)) whatever λ and σ_p, so one set of draws serves every λ and σ_p, and
// moving λ changes only the likelihood p(x | G) (Fig. 1.5: kernel, z and V stay as they are).
// The weights sum to 1 up to what a truncation leaves out (its mass is reported where made).
struct MixingMeasure {
    std::vector<double> weights;
    std::vector<double> atoms;
};

// An IBP feature matrix: N × K of 0/1 (as doubles, so ZZᵀ is one product). The linear-Gaussian
// likelihood depends on Z only through ZZᵀ, and so do the kernels that work.
using FeatureMatrix = Eigen::MatrixXd;

} // namespace evx::bq::structured
