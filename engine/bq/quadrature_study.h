#pragma once
// One run of 1-D Bayesian quadrature as the scenarios show it: build a design sample by
// sample (Monte Carlo, quasi-random or active), estimate Z = ∫ ℓ(x) p(x) dx with GP BQ,
// log-GP BQ or plain Monte Carlo, and record the estimate as samples are added.
//
// Active sampling: GP BQ takes the x that removes the most V[Z] (IncrementalBq::
// varianceReduction); log-GP BQ the x maximising V_logℓ(x)·ℓ̄(x)²·p(x)² (uncertainty sampling)
// with ℓ̄ ≈ m_exp, the values it interpolates (logGpAcquisition: one GP per step, not two);
// both over a grid of 101 points on p's ±4 sd. The first three samples are quasi-random.
// Hyperparameters: a given lengthscale is used as it is, with the output scale integrated out
// (Sec. 1.10); lengthscale 0 fits it by maximum marginal likelihood at n = 3, 6, 12, 24, …
// (×2), each fit using only the samples so far. So the design of n samples is always a
// prefix of the design of n + 1 (nested), whatever the strategy.

#include "bq/bayes_quadrature.h"
#include "bq/gaussian_measure.h"
#include "core/run_context.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace evx::bq {

enum class Method { GpBq, LogGpBq, MonteCarlo };
enum class Strategy { MonteCarlo, QuasiRandom, Active };

struct StudySettings {
    Method method = Method::LogGpBq;
    Strategy strategy = Strategy::Active;
    int samples = 20;       // from the strategy, after the user's points
    double lengthscale = 0; // 0 = fitted
    std::uint64_t seed = 1;
    std::vector<double> userPoints; // sampled first, in order
    int traceLimit = 25;            // at most this many points on the convergence trace
};

struct TracePoint {
    int n = 0;
    double mean = 0;
    double sd = 0;
};

struct StudyResult {
    std::vector<double> x, logL; // the design, in sampling order
    ZEstimate estimate;          // with all samples
    // GP BQ: at the maximum-likelihood lengthscale with ĥ (no Student-t); log-GP BQ: the
    // linearised variance alone (Sec. 1.2.2). What the band was before issue 13.
    ZEstimate pluginEstimate;
    std::vector<std::string> warnings; // when the band is not to be trusted (bq/band_diagnostics.h)
    std::vector<TracePoint> trace;     // the chosen method against the number of samples
    std::vector<TracePoint> mcTrace;   // Monte Carlo from p with the same seed
    double jitter = 0;                 // absolute jitter the final model's Cholesky needed
    double lengthscale = 0;            // of the GP on ℓ or on log ℓ
    // The model on a plotting grid: mean and ±2 sd (for Monte Carlo: empty).
    std::vector<double> gridX, modelMean, modelLower, modelUpper;
};

using LogIntegrand = std::function<double(double)>; // log ℓ(x), finite

StudyResult runStudy(const LogIntegrand& logL, const GaussianMeasure& p, const StudySettings& s,
                     double plotLo, double plotHi, int plotPoints, const RunContext& context);

// Monte Carlo estimate from the first k values of ℓ: the mean and its standard error.
TracePoint monteCarloEstimate(const std::vector<double>& values, int k);

} // namespace evx::bq
