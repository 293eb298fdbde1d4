#pragma once
// Log-GP BQ with the lengthscale of the GP on log ℓ integrated out (BQ paper Sec. 1.10, as for
// GP BQ in bq/lengthscale_mixture_bq.h). Every LogGpBq builds a second GP and a variance grid,
// so the posterior over log w is not summed over its whole grid but discretised into three
// equally likely nodes, its 1/6 and 5/6 quantiles and its mode (the maximum-likelihood w, or
// else its median; one node when the quantiles lie within 10 %):
//   π(log w) ∝ p(r | w) ∝ |K₁|^{-1/2} S^{-n/2} on G log-spaced values (flat prior on log w,
//   r = log ℓ − q the residuals, h integrated out under p(h) ∝ 1/h), and with Ẑ_k from the
//   LogGpBq at node k, h = S/(n − 2) (its posterior mean),
// The estimate is the central node's E_c (the nodes with short lengthscales inflate m_exp
// between samples, and their average was measured to be less accurate), and its variance the
// mean squared error about it under the mixture:
//   Ẑ = E_c,   V[Z] = Σ_k (V_k + (E_k − E_c)²)/3.
// A given lengthscale is one node.

#include "bq/log_gp_bq.h"

#include <memory>
#include <vector>

namespace evx::bq {

struct LogGpMixtureOptions {
    double minLengthscale = 0, maxLengthscale = 0; // equal: one given lengthscale
    // 17 values over the log-GP's range of 200 (neighbours 39 % apart). 25 took a third of a
    // bq-1d run and were less conservative (coverage active 87/91/97 %, mc 89/84/74 % at
    // n = 10/25/50, against 88/95/97 % and 90/88/86 % with 17).
    int gridPoints = 17;
    double minOutputScale = 0; // floor of h for a node of lengthscale w: minOutputScale·w
    bool exactMoments = false; // the central node also computes the log-GP's exact V[Z]
    // The central node: the maximum-likelihood lengthscale when known (the posterior's mode under
    // the flat prior, found more finely than the grid does), else the posterior median.
    double centralLengthscale = 0;
};

// The posterior over the lengthscale grid, kept across samples: one unit-h kernel factor per
// grid value, grown by row appends (O(n²) each), so that a new posterior costs G solves, not G
// factorisations (most of a run's time when refactored at every trace point). Factors, not
// GpRegressions: a GP's append also solves for its weights, which only posterior() needs (two
// of the three O(n²) solves of every append of every grid value, 850 per bq-1d run).
class LogLengthscaleGrid {
public:
    LogLengthscaleGrid(double minLengthscale, double maxLengthscale, int points);
    void add(double x); // a sample, to every grid value's factor
    // Mass on each grid value for residuals r at the samples added so far (flat prior on log w,
    // h integrated out).
    std::vector<double> posterior(const Eigen::VectorXd& r) const;
    const std::vector<double>& logLengthscales() const { return m_logW; }

private:
    std::vector<double> m_logW;
    std::vector<gp::Kernel> m_kernels;
    std::vector<gp::CheckedCholesky> m_factors;
    Eigen::MatrixXd m_x; // the samples, one column
};

class LogGpMixture {
public:
    // grid: the samples' posterior over lengthscales, if kept across samples (else one is built).
    LogGpMixture(const Eigen::MatrixXd& x, const Eigen::VectorXd& logL, const GaussianMeasure& p,
                 const LogGpMixtureOptions& options, LogLengthscaleGrid* grid = nullptr);

    ZEstimate estimate() const;
    // Linearised V[Ẑ] alone (Sec. 1.2.2) at the central node: the sd before issue 13.
    ZEstimate linearisedEstimate() const;
    // The central node's exact log-normal V[Z] (0 unless options.exactMoments).
    double exactVariance() const;
    // Pointwise mixture mean and variance of ℓ̄ (each node's band V_logℓ·ℓ̄², eq. 1.58).
    void evaluate(const std::vector<double>& x, std::vector<double>& mean,
                  std::vector<double>& variance) const;
    double jitter() const;
    const std::vector<double>& nodeLengthscales() const { return m_nodes; }
    double lowerBoundShare() const { return m_lowerShare; } // posterior mass at the grid's ends
    double upperBoundShare() const { return m_upperShare; }
    const LogGpBq& central() const { return *m_models[m_models.size() / 2]; }

private:
    std::vector<double> m_nodes;
    std::vector<std::unique_ptr<LogGpBq>> m_models;
    double m_lowerShare = 0, m_upperShare = 0;
};

} // namespace evx::bq
