#pragma once
// GP regression with a constant prior mean m (GPML, ch. 2; BQ paper eq. 1.60–1.62), the
// covariance k(x, x') + c + σ_n² δ(x, x'): a kernel, an optional constant term c (a prior
// variance of the mean level) and an optional white noise σ_n²:
//   mean(x*) = m + k*(x*, X) K⁻¹ (y − m),   var(x*) = k*(x*, x*) − k*(x*, X) K⁻¹ k*(X, x*)
//   with k* = k + c (the latent function: no noise at x*), K = k(X, X) + c 11ᵀ + σ_n² I,
//   log p(y | θ) = −½ (y−m)ᵀK⁻¹(y−m) − ½ log|K| − n/2 log 2π,
//   ∂/∂θ_j = ½ tr((ααᵀ − K⁻¹) ∂K/∂θ_j),  α = K⁻¹(y − m),
// over θ = logHyperparameters() = (log h, log w_1, …, [log σ_n²], [log c]), the bracketed
// ones only when enabled. K carries the jitter CheckedCholesky had to add (jitter()): with
// noise that is rare, without it (BQ's interpolation) it is the only regularisation.
//
// Output scale integrated out (BQ paper Sec. 1.10): with K = h K₁ and a flat prior on log h,
// the variances use ĥ = (y−m)ᵀK₁⁻¹(y−m)/n in place of h; profiledOutputScale() returns ĥ for
// the current kernel, and setting h = ĥ gives V[Z] = (1/n)[yᵀK₁⁻¹y][V₁ − zᵀK₁⁻¹z] of Sec. 1.10.

#include "gp/checked_cholesky.h"
#include "gp/kernel.h"

#include <vector>

namespace evx::gp {

class GpRegression {
public:
    explicit GpRegression(Kernel kernel, double priorMean = 0)
        : m_kernel(std::move(kernel)), m_mean(priorMean)
    {
    }

    // Full fit: factors K(X, X).
    void setData(const Eigen::MatrixXd& x, const Eigen::VectorXd& y);
    // One more observation by extending the Cholesky factor (O(n²)), not a refit.
    void addObservation(const Eigen::VectorXd& x, double y);
    // New values at the same inputs: α = K⁻¹(y − m) by two triangular solves (O(n²)).
    void setTargets(const Eigen::VectorXd& y);
    // Room for n observations (CheckedCholesky::reserve); changes nothing else.
    void reserve(int n) { m_chol.reserve(n); }
    // Changes the kernel (or mean) and refactors.
    void setKernel(const Kernel& kernel);
    void setPriorMean(double m);
    // h → c·h without refactoring (K, its factor and α scale exactly); only without noise
    // or constant terms, which do not scale with h.
    void scaleOutput(double c);

    // A white-noise variance σ_n² on the diagonal, a hyperparameter from then on; refactors.
    void enableNoise(double variance);
    // A constant term c in every covariance (a prior variance of the mean level); refactors.
    void enableConstant(double variance);
    bool hasNoise() const { return m_hasNoise; }
    bool hasConstant() const { return m_hasConstant; }
    double noiseVariance() const { return m_noise; }
    double constantVariance() const { return m_constant; }
    Eigen::VectorXd logHyperparameters() const;
    void setLogHyperparameters(const Eigen::VectorXd& theta); // refactors

    const Kernel& kernel() const { return m_kernel; }
    double priorMean() const { return m_mean; }
    const Eigen::MatrixXd& inputs() const { return m_x; }
    const Eigen::VectorXd& targets() const { return m_y; }
    int size() const { return int(m_y.size()); }
    const CheckedCholesky& factor() const { return m_chol; }
    double jitter() const { return m_chol.jitter(); }
    // K⁻¹(y − m), solved when first asked for after anything that changes it: an active BQ run
    // adds samples, and a fit tries kernels, without reading α at each. This cache is written on
    // a read, so one object must not be read from several threads at once.
    const Eigen::VectorXd& alpha() const;

    double mean(const double* x) const;
    double variance(const double* x) const;
    // Means and variances at the rows of xs.
    void predict(const Eigen::MatrixXd& xs, Eigen::VectorXd& mean, Eigen::VectorXd& variance) const;
    Eigen::VectorXd predictMean(const Eigen::MatrixXd& xs) const; // without the O(n²) variances

    double logMarginalLikelihood() const;
    Eigen::VectorXd logMarginalLikelihoodGradient() const; // w.r.t. logHyperparameters()
    double profiledOutputScale() const;                    // ĥ, see above

private:
    void refresh();
    Eigen::VectorXd crossCovariance(const double* x) const; // k*(X, x)

    Kernel m_kernel;
    double m_mean;
    bool m_hasNoise = false, m_hasConstant = false;
    double m_noise = 0, m_constant = 0;
    Eigen::MatrixXd m_x;
    Eigen::VectorXd m_y;
    CheckedCholesky m_chol;
    mutable Eigen::VectorXd m_alpha;
    mutable bool m_alphaCurrent = true;
};

struct FitOptions {
    // h = ĥ at every step (Sec. 1.10) instead of optimising log h; ignored (off) when the GP
    // has noise or a constant term, whose variances do not scale with h.
    bool profileOutputScale = true;
    double minLengthscale = 1e-3;
    double maxLengthscale = 1e3;
    int maxIterations = 40;
    double tolerance = 1e-6; // LBFGS++ epsilon: stop at |∇| ≤ tolerance·max(1, |u|)
    // Also stop once an iteration changes log p by less than this times max(1, |log p|)
    // (LBFGS++'s delta test over one iteration; 0: off). Beyond n ≈ 100 the likelihood of an
    // interpolating GP is only known to ~1e-6 of its size (rounding in log|K| and rᵀK⁻¹r), so the
    // gradient test cannot be met: without this the line search hunts through rounding noise
    // until it gives up (10–40 evaluations at O(n³) each).
    double relativeImprovement = 0;
    int maxLineSearch = 40; // trial points per line search before LBFGS++ gives up
    // Hyperparameter sets closer than this in every log hyperparameter count as one: a trial
    // step that small and no better ends the fit as converged (optim::MinimiseOptions::
    // resolution; 0: off). Past n ≈ 100 an interpolating GP's log p can jump by tenths of a nat
    // between points 1e-9 apart, and a line search otherwise spends its whole budget in that noise.
    double resolution = 0;
    // A start closer than this fraction of a bounded range to a bound begins this far in. The
    // bounds are a logistic change of variables whose slope vanishes at the ends: a warm start
    // from a fit that ended on a bound (1e-6 in) sees a gradient scaled by ~1e-6 and stays there,
    // whatever the new data say (bq-2d-marginal: a lengthscale stuck at its lower bound from
    // n = 5 on, log p 663 nats below the optimum at n = 150).
    double boundMargin = 1e-6;
    // One lengthscale, h profiled: instead of L-BFGS from the current kernel, evaluate this
    // many log-spaced lengthscales across the bounds and refine the best (or the current
    // kernel, if better) by Brent's method between its neighbours (0: off).
    int startGrid = 0;
    // Lengthscales to start from instead of the current kernel's where the profiled likelihood
    // is higher (h profiled only; one factorisation each). A warm start from a fit to fewer
    // samples can sit in a basin the new ones rule out, which L-BFGS leaves slowly or not at all
    // (bq-2d-marginal: w = (10, 0.02) fitted to points that had missed the bumps, and Z 65 % off
    // at n = 30; or 14 ms of an 18 ms run spent leaving w ≈ (0.1, 15) at n = 50).
    std::vector<Eigen::VectorXd> otherStarts = {};
};

struct FitResult {
    double logMarginalLikelihood = 0;
    int iterations = 0;
    int evaluations = 0; // of log p and its gradient, by L-BFGS (0 for the scan)
    bool converged = false;
};

// Maximises log p(y | θ) over θ = logHyperparameters() with L-BFGS (optim::minimise), starting
// from the current values (or by a scan and Brent's method, see startGrid); leaves the best in gp.
// Lengthscales are bounded to [minLengthscale, maxLengthscale]; σ_n² to [1e-10, 10]·var(y),
// c to [1e-10, 1e4]·(var(y) + mean(y)²). `converged` is optim::minimise's verdict: false when it
// stopped at its iteration limit, on a failed line search, or (without relativeImprovement)
// where the gradient test does not hold at the best point.
FitResult fitHyperparameters(GpRegression& gp, const FitOptions& options = {});

} // namespace evx::gp
