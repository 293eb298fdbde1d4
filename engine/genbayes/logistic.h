#pragma once
// Logistic-regression classifiers for density-ratio estimation (METHODS.md §4, Algorithm 1).
// Trained on balanced classes, the decision function δ(x) = b + wᵀφ(x) (the logit) estimates
// log r(x) = log p(x | θ) / g(x) directly. One solver per file, data in, weights and a
// convergence report out (STYLE.md):
//   logistic_vb.cpp  variational Bayes, Jaakkola–Jordan bound, Gamma(a0, b0) on the precision
//   logistic_eb.cpp  empirical-Bayes Laplace, the precision re-estimated by MacKay's update
//   logistic_l1.cpp  L1 penalty by coordinate descent, C chosen by k-fold cross-validation
// The intercept b is never penalised: a shared prior that shrinks it shifts the whole
// log-ratio curve (METHODS §4, lead 1).

#include <Eigen/Core>

#include <string>

namespace evx::genbayes {

struct LogisticData {
    Eigen::MatrixXd features; // one row per point, without a constant column
    Eigen::VectorXd labels;   // 1 for simulated from p(· | θ), 0 for observed
};

// z_n = (1, x_n) for every row: the features with the intercept's constant column first.
inline Eigen::MatrixXd withInterceptColumn(const Eigen::MatrixXd& x)
{
    Eigen::MatrixXd z(x.rows(), x.cols() + 1);
    z.col(0).setOnes();
    z.rightCols(x.cols()) = x;
    return z;
}

// log(1 + e^{−m}) for each margin m = s δ (s = ±1 the label's sign): the log loss, computed
// without overflow for any m.
inline Eigen::ArrayXd logLoss(const Eigen::ArrayXd& margin)
{
    return margin.max(0) - margin + (-margin.abs()).exp().log1p();
}

struct LogisticFit {
    double intercept = 0;
    Eigen::VectorXd weights;
    int iterations = 0;
    bool converged = false;
    double penalty = 0; // VB, EB: the fitted prior precision E[α]; L1: the chosen C

    double decision(const Eigen::Ref<const Eigen::RowVectorXd>& x) const
    {
        return intercept + x.dot(weights);
    }
    Eigen::VectorXd decisions(const Eigen::MatrixXd& x) const;
};

struct VbOptions {
    double a0 = 0.01, b0 = 0.01; // Gamma hyperprior on the weight precision
    // δ matters to far below the simulation noise (~0.05), and on separable classes (θ far
    // from the data) the weights creep outwards for hundreds of iterations: stop at 1e-7.
    int maxIterations = 200;
    double tolerance = 1e-7; // on the largest change of a weight
};
LogisticFit fitLogisticVb(const LogisticData& data, const VbOptions& options = {});

struct EbOptions {
    double initialPrecision = 1;
    // > 0: the MAP weights under this prior precision, not re-estimated by the evidence. At
    // each θ the evidence shrinks the weights the more, the harder the simulations are to tell
    // from the data, so near the optimum δ ≈ 0 and D̂ comes out flat (docs/gb-tables.md).
    double fixedPrecision = 0;
    int maxIterations = 200;
    double tolerance = 1e-8; // relative change MacKay's update would make to the precision
};
LogisticFit fitLogisticEb(const LogisticData& data, const EbOptions& options = {});

struct L1Options {
    int folds = 5;
    int gridSize = 10; // C ∈ logspace(−4, 4, gridSize), as scikit-learn's LogisticRegressionCV
    double tolerance = 1e-8;
    // Outer (IRLS) iterations per fit. Near-separable folds (θ far from the data) at large C
    // never converge: their weights creep outwards, 1000 iterations cost 100 ms per
    // cross-validated regression fit, and the logits they would reach lie far beyond the
    // clipping of log r to [−5, 3]. 100 changed no clipped δ on 20 folds across the box.
    int maxIterations = 100;
    // > 0: fitLogisticL1Cv fits this C instead of cross-validating one (as EbOptions::
    // fixedPrecision: a C chosen at each θ is smallest where the classes are hardest to tell
    // apart, which flattens D̂ near its minimum).
    double fixedC = 0;
};
// Minimises ‖w‖₁ + C Σ_i logloss_i (scikit-learn's parametrisation) for a given C.
LogisticFit fitLogisticL1(const LogisticData& data, double c, const L1Options& options = {});
// Chooses C by stratified k-fold cross-validated log loss (ties: the smaller C), then refits.
LogisticFit fitLogisticL1Cv(const LogisticData& data, const L1Options& options = {});

} // namespace evx::genbayes
