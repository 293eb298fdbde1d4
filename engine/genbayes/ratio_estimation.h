#pragma once
// Estimates of log r_i(θ) = log p(x_i | θ) − log g(x_i) at every observed point
// (METHODS.md §4): by classifiers (Algorithm 1), by a generative estimate of g ("Gen"
// baselines), or exactly with the true g (the reference update and an oracle for tests).

#include "genbayes/divergence.h"
#include "genbayes/gb_model.h"
#include "genbayes/generative_density.h"
#include "genbayes/logistic.h"

#include <cstdint>

namespace evx::genbayes {

enum class Classifier { Cv, Eb, Vb };

// The classifier's features: the model's (the paper's), the same whitened by the observed
// sample (Principal, below), or the model's residual features at θ (GbModel::residualFeatures).
enum class FeatureBasis { Paper, Principal, Residual };

// Algorithm 1 with K folds: n_sim = n (K − 1)/K simulations from p(· | θ) (label 1) against
// the observed points outside fold k (label 0), balanced, so the classifier's logit at the
// held-out points of fold k is δ_i ≈ log r_i. The simulations are drawn once per θ from
// simulationSeed, by the given design (the same seed at two θ's: common random numbers).
// Returns all n per-point δ_i.
// Principal: the classifiers see the features in the observed sample's principal coordinates,
// φ ↦ Λ^(−1/2) Vᵀ (φ − mean), Σ_obs = V Λ Vᵀ. The same span, so the same maximum-likelihood
// logit; but a shared prior precision (VB, EB) or L1 penalty then shrinks every direction
// alike relative to its spread in the data (Zellner's g-prior), instead of crushing a weak
// signal that lives in a low-variance combination of collinear features (the regression's
// residual², y² + 2xy + x² up to centring, against the features' variances of about 2).
Eigen::VectorXd classifierLogRatios(const GbModel& model, const Points& observed,
                                    const Eigen::VectorXd& theta, Classifier classifier, int folds,
                                    std::uint64_t simulationSeed,
                                    SimulationDesign design = SimulationDesign::Stratified,
                                    FeatureBasis basis = FeatureBasis::Paper, const EbOptions& eb = {},
                                    const L1Options& l1 = {});

// log p(x_i | θ) − logG_i for given log g at the observed points: the exact log-ratios when
// logG is the truth's, the "Gen" baselines' when it is an estimate.
Eigen::VectorXd modelLogRatios(const GbModel& model, const Points& observed, const Eigen::VectorXd& theta,
                               const Eigen::VectorXd& logG);

// log g(x_i) under the truth.
Eigen::VectorXd truthLogDensity(const Truth& truth, const Points& observed);

// The generative estimate of g at the observed points: a Gaussian KDE of the sample
// (bandwidth 1.0 in the paper) for one-column data; for (x, y) data the predictive density
// of y given x under a GP regression, with a fitted noise term (default), the paper's
// literal one without, or that one cross-fitted in `folds` folds (generative_density.h).
Eigen::VectorXd generativeLogDensity(const Points& observed, double bandwidth = 1.0,
                                     GenerativeG regressionG = GenerativeG::Noise, int folds = 10);

// D̂_f = (1/n) Σ_i f(clip(δ_i)).
double divergenceEstimate(Divergence d, const Eigen::VectorXd& logRatios);

} // namespace evx::genbayes
