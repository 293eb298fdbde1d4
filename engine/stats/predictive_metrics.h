#pragma once
// Metrics of a posterior predictive given by draws (bnn-latent-variables-ncai, App. F.2 and
// Sec. 7.3; METHODS.md §5). The caller draws W_s ~ q(W) and z_s ~ p(z) and passes the S × N
// matrix f(s, n) = f(x_n; W_s, z_s) with the noise sd σ_ε; given the draws the predictive at
// x_n is the Gaussian mixture p̂(y | x_n) = (1/S) Σ_s N(y; f(s, n), σ_ε²), and every metric
// here is computed from that mixture exactly (no noise is drawn), except the nearest-neighbour
// entropies, which need samples of y.
//
//   log-likelihood (Eq. 34)  (1/N) Σ_n log p̂(y_n | x_n), by log-sum-exp. The log of a Monte
//                            Carlo average is biased low: use S ≥ 2000 draws (METHODS.md §5).
//   RMSE                     √((1/N) Σ_n (y_n − ȳ_n)²), ȳ_n = (1/S) Σ_s f(s, n) (Eq. 35).
//   PICP, MPIW (95 %)        the central interval [q_{α/2}, q_{1−α/2}] of p̂(y | x_n): roots of
//                            the mixture CDF (1/S) Σ_s Φ((t − f(s, n))/σ_ε) − q, bracketed by the
//                            components' own quantiles and found by Boost's TOMS 748 to 1e-13 σ_ε,
//                            so exact given the draws; PICP the fraction of y_n inside (a
//                            fraction, not a percentage), MPIW the mean width.
// Output scale: when f, y and σ_ε are standardised (y_std = (y − m)/s) and a metric is wanted
// on raw y, pass s: the log-likelihood becomes LL − log s, RMSE and MPIW are multiplied by s;
// PICP does not change.
//
// Uncertainty decomposition (Sec. 7.3, Eqs. 6–7; Depeweg et al. 2018), per x_n:
//   total      H[p(y | x)]                 p(y | x) = E_{W,z} N(y; f(x; W, z), σ_ε²)
//   aleatoric  E_W H[p(y | x, W)]           p(y | x, W) = E_z N(y; f(x; W, z), σ_ε²)
//   epistemic  total − aleatoric            (≥ 0 in truth; an estimate can dip below 0)
// from draws arranged as S_W × S_z: row w·S_z + j of f holds f(x_n; W_w, z_wj). Two estimators:
//   NearestNeighbour  the paper's: one y = f + σ_ε ε per row, Kozachenko–Leonenko entropies
//                     (k = 5, stats/knn_entropy.h) of all S_W S_z values and of each W's S_z.
//                     Small S_z bias the aleatoric term low (about −0.01 nats at S_z = 200 for
//                     Gaussians), and so the epistemic one high.
//   MixtureQuadrature the entropy of each Gaussian mixture itself, −∫ p̂ log p̂ dy, by the
//                     trapezoid rule on a grid of step σ_ε/4 (spectrally accurate for these
//                     smooth, Gaussian-tailed integrands: error < 1e-9 nats against adaptive
//                     quadrature); exact given the draws, deterministic, but its cost grows
//                     like S_W S_z (about 140 S_W S_z exponentials per point once the draws
//                     spread over many σ_ε; the nearest-neighbour path is ~10× cheaper).

#include <Eigen/Core>

#include <cstdint>
#include <functional>

namespace evx::stats {

// log p̂(y_n | x_n) for each n. f: S × N, y: N, σ_ε > 0.
Eigen::VectorXd predictiveLogDensities(const Eigen::MatrixXd& f, const Eigen::VectorXd& y, double sigmaEps);
double predictiveLogLikelihood(const Eigen::MatrixXd& f, const Eigen::VectorXd& y, double sigmaEps,
                               double outputScale = 1);
double predictiveRmse(const Eigen::MatrixXd& f, const Eigen::VectorXd& y, double outputScale = 1);

// The p-quantile of (1/S) Σ_s N(means_s, sd²), 0 < p < 1, to about 1e-12 of sd.
double gaussianMixtureQuantile(const Eigen::VectorXd& means, double sd, double p);
// −∫ p log p of (1/S) Σ_s N(means_s, sd²), by MixtureQuadrature.
double gaussianMixtureEntropy(const Eigen::VectorXd& means, double sd);

struct PredictiveIntervals {
    Eigen::VectorXd lower, upper; // per test point, in the units of f
};
// afterEachPoint, when given, runs after each test point's interval: a caller can publish progress
// or stop there (each interval is a root search over the S draws; at S = 2000 and a few hundred
// points they take a quarter of a second).
PredictiveIntervals predictiveIntervals(const Eigen::MatrixXd& f, double sigmaEps, double level = 0.95,
                                        const std::function<void()>& afterEachPoint = {});

struct PredictiveSummary {
    double logLikelihood = 0, rmse = 0, picp = 0, mpiw = 0;
    int draws = 0; // S, to state with the log-likelihood
};
PredictiveSummary summarisePredictive(const Eigen::MatrixXd& f, const Eigen::VectorXd& y, double sigmaEps,
                                      double outputScale = 1, double level = 0.95,
                                      const std::function<void()>& afterEachPoint = {});

enum class EntropyEstimator { NearestNeighbour, MixtureQuadrature };

struct UncertaintyDecomposition {
    Eigen::VectorXd total, aleatoric, epistemic; // nats, per test point, in the units of f
};
// f: (S_W · S_z) × N as above; drawsOfW = S_W ≥ 1 divides the rows, S_z = rows/S_W (> k for
// NearestNeighbour). seed drives the noise draws of NearestNeighbour. On raw y every entropy
// (not the epistemic difference) grows by log outputScale. afterEachPoint (if any) runs after
// each test point.
UncertaintyDecomposition decomposeUncertainty(const Eigen::MatrixXd& f, int drawsOfW, double sigmaEps,
                                              EntropyEstimator estimator = EntropyEstimator::NearestNeighbour,
                                              std::uint64_t seed = 1, int k = 5, double outputScale = 1,
                                              const std::function<void()>& afterEachPoint = {});

} // namespace evx::stats
