#include "gp/gp_regression.h"

#include "core/errors.h"
#include "optim/minimise.h"
#include "stats/densities.h"

#include <boost/math/tools/minima.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace evx::gp {

void GpRegression::setData(const Eigen::MatrixXd& x, const Eigen::VectorXd& y)
{
    m_x = x;
    m_y = y;
    refresh();
}

void GpRegression::setKernel(const Kernel& kernel)
{
    m_kernel = kernel;
    refresh();
}

void GpRegression::setPriorMean(double m)
{
    m_mean = m;
    m_alphaCurrent = false;
}

void GpRegression::setTargets(const Eigen::VectorXd& y)
{
    m_y = y;
    m_alphaCurrent = false;
}

void GpRegression::scaleOutput(double c)
{
    if (m_hasNoise || m_hasConstant)
        throw std::logic_error("GpRegression::scaleOutput: noise and constant terms do not scale with h");
    m_kernel.setOutputScale(m_kernel.outputScale() * c);
    m_chol.scale(c);
    if (m_alphaCurrent)
        m_alpha /= c;
}

void GpRegression::enableNoise(double variance)
{
    m_hasNoise = true;
    m_noise = variance;
    refresh();
}

void GpRegression::enableConstant(double variance)
{
    m_hasConstant = true;
    m_constant = variance;
    refresh();
}

Eigen::VectorXd GpRegression::logHyperparameters() const
{
    const Eigen::VectorXd k = m_kernel.logParameters();
    Eigen::VectorXd theta(k.size() + m_hasNoise + m_hasConstant);
    theta.head(k.size()) = k;
    Eigen::Index i = k.size();
    if (m_hasNoise)
        theta[i++] = std::log(m_noise);
    if (m_hasConstant)
        theta[i] = std::log(m_constant);
    return theta;
}

void GpRegression::setLogHyperparameters(const Eigen::VectorXd& theta)
{
    const Eigen::Index nk = m_kernel.logParameters().size();
    m_kernel.setLogParameters(theta.head(nk));
    Eigen::Index i = nk;
    if (m_hasNoise)
        m_noise = std::exp(theta[i++]);
    if (m_hasConstant)
        m_constant = std::exp(theta[i]);
    refresh();
}

Eigen::VectorXd GpRegression::crossCovariance(const double* x) const
{
    Eigen::VectorXd k = m_kernel.column(m_x, x);
    if (m_hasConstant)
        k.array() += m_constant;
    return k;
}

void GpRegression::refresh()
{
    m_alphaCurrent = false;
    if (m_y.size() == 0) {
        m_chol.compute(Eigen::MatrixXd(0, 0));
        return;
    }
    Eigen::MatrixXd k = m_kernel.matrix(m_x);
    if (m_hasConstant)
        k.array() += m_constant;
    if (m_hasNoise)
        k.diagonal().array() += m_noise;
    m_chol.compute(k);
}

void GpRegression::addObservation(const Eigen::VectorXd& x, double y)
{
    if (m_x.cols() == 0)
        m_x.resize(0, x.size());
    const Eigen::VectorXd k = crossCovariance(x.data());
    m_chol.append(k, m_kernel.diagonal() + m_constant + m_noise);
    m_x.conservativeResize(m_x.rows() + 1, Eigen::NoChange);
    m_x.row(m_x.rows() - 1) = x.transpose();
    m_y.conservativeResize(m_y.size() + 1);
    m_y[m_y.size() - 1] = y;
    m_alphaCurrent = false;
}

const Eigen::VectorXd& GpRegression::alpha() const
{
    if (!m_alphaCurrent) {
        m_alpha = m_chol.solve((m_y.array() - m_mean).matrix());
        m_alphaCurrent = true;
    }
    return m_alpha;
}

double GpRegression::mean(const double* x) const
{
    if (size() == 0)
        return m_mean;
    return m_mean + crossCovariance(x).dot(alpha());
}

double GpRegression::variance(const double* x) const
{
    const double prior = m_kernel.diagonal() + m_constant;
    if (size() == 0)
        return prior;
    const Eigen::VectorXd v = m_chol.solveL(crossCovariance(x));
    return std::max(0.0, prior - v.squaredNorm());
}

void GpRegression::predict(const Eigen::MatrixXd& xs, Eigen::VectorXd& mean, Eigen::VectorXd& variance) const
{
    const int m = int(xs.rows());
    const double prior = m_kernel.diagonal() + m_constant;
    if (size() == 0) {
        mean = Eigen::VectorXd::Constant(m, m_mean);
        variance = Eigen::VectorXd::Constant(m, prior);
        return;
    }
    Eigen::MatrixXd ks = m_kernel.matrix(m_x, xs); // n × m
    if (m_hasConstant)
        ks.array() += m_constant;
    mean = (ks.transpose() * alpha()).array() + m_mean;
    const Eigen::MatrixXd v = m_chol.solveL(ks);
    variance = (prior - v.colwise().squaredNorm().array()).max(0.0).matrix().transpose();
}

Eigen::VectorXd GpRegression::predictMean(const Eigen::MatrixXd& xs) const
{
    if (size() == 0)
        return Eigen::VectorXd::Constant(xs.rows(), m_mean);
    const Eigen::VectorXd constantPart = Eigen::VectorXd::Constant(xs.rows(), m_constant * alpha().sum());
    return (m_kernel.matrix(xs, m_x) * alpha() + constantPart).array() + m_mean;
}

double GpRegression::logMarginalLikelihood() const
{
    const Eigen::VectorXd r = (m_y.array() - m_mean).matrix();
    return -0.5 * r.dot(alpha()) - 0.5 * m_chol.logDeterminant() - size() * stats::kHalfLog2Pi;
}

double GpRegression::profiledOutputScale() const
{
    // Exact only for K = h K₁; with noise or a constant term it is a scale estimate.
    // K = h K₁ ⇒ (y−m)ᵀK₁⁻¹(y−m) = h (y−m)ᵀα.
    const Eigen::VectorXd r = (m_y.array() - m_mean).matrix();
    return std::max(m_kernel.outputScale() * r.dot(alpha()) / std::max(size(), 1), 1e-300);
}

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// −log p(y) of gp's kernel with h moved to its profiled value ĥ (gp keeps ĥ).
double profiledNegLogLik(GpRegression& gp)
{
    gp.scaleOutput(gp.profiledOutputScale() / gp.kernel().outputScale());
    const double f = -gp.logMarginalLikelihood();
    return std::isfinite(f) ? f : kInfinity;
}

// The same for kernel k, which gp then holds; +∞ where K does not factorise even with jitter.
double profiledNegLogLik(GpRegression& gp, const Kernel& k)
{
    try {
        gp.setKernel(k);
    } catch (const NumericalError&) {
        return kInfinity;
    }
    return profiledNegLogLik(gp);
}

// Leaves gp at whichever of its kernel and these lengthscales has the highest profiled
// likelihood (FitOptions::otherStarts). Each alternative is tried on a copy, so that gp keeps its
// own factor when it stays.
void startFromBest(GpRegression& gp, const std::vector<Eigen::VectorXd>& starts)
{
    if (starts.empty())
        return;
    const Kernel current = gp.kernel();
    double bestF = profiledNegLogLik(gp);
    for (const Eigen::VectorXd& w : starts) {
        GpRegression trial = gp;
        Kernel k = current;
        k.setLengthscales(w);
        const double f = profiledNegLogLik(trial, k);
        if (f < bestF) {
            bestF = f;
            gp = std::move(trial);
        }
    }
}

// On a dense design the profiled likelihood of a Gaussian kernel can have a second, spurious
// maximum at long lengthscales: once w exceeds ~1.5× the sample spacing, K₁ is so ill
// conditioned that ĥ = rᵀK₁⁻¹r/n (1e8–1e14 for log ℓ residuals of ±12, two-mode integrand)
// is decided by K₁'s rounding-level eigenvalues, and so is the likelihood. L-BFGS started
// there (a warm start from a fit to fewer samples) stays there. A scan over the bounds
// finds the basin of the largest likelihood first; Brent's method (Boost) then refines
// log w within the neighbouring scan points, from likelihood values alone (no K⁻¹ for
// gradients, and no slow crawl of L-BFGS towards an optimum on a bound).
FitResult fitLengthscaleByScan(GpRegression& gp, const FitOptions& options)
{
    const Kernel initial = gp.kernel();
    Kernel k = initial;
    auto profiled = [&](double logW) {
        k.setLengthscales(Eigen::VectorXd::Constant(1, std::exp(logW)));
        return profiledNegLogLik(gp, k);
    };
    const double l0 = std::log(options.minLengthscale), l1 = std::log(options.maxLengthscale);
    const double step = (l1 - l0) / (options.startGrid - 1);
    double bestLog = std::clamp(std::log(k.lengthscales()[0]), l0, l1);
    double bestF = profiled(bestLog);
    for (int i = 0; i < options.startGrid; ++i) {
        const double f = profiled(l0 + step * i);
        if (f < bestF) {
            bestF = f;
            bestLog = l0 + step * i;
        }
    }
    // 10 bits: log w to ~1e-3 of the bracket, far below what changes a quadrature estimate.
    std::uintmax_t iterations = 30;
    const auto [logW, f] = boost::math::tools::brent_find_minima(
        profiled, std::max(l0, bestLog - step), std::min(l1, bestLog + step), 10, iterations);
    FitResult result;
    result.iterations = int(iterations);
    result.converged = std::isfinite(f) || std::isfinite(bestF);
    const double chosen = f <= bestF ? logW : bestLog;
    result.logMarginalLikelihood = -profiled(chosen);
    if (!std::isfinite(result.logMarginalLikelihood)) {
        gp.setKernel(initial); // nothing factorised: leave the kernel as it came
        result.converged = false;
    }
    return result;
}

} // namespace

FitResult fitHyperparameters(GpRegression& gp, const FitOptions& options)
{
    if (gp.size() < 2)
        return {};
    const int dims = gp.kernel().dimension();
    const bool profile = options.profileOutputScale && !gp.hasNoise() && !gp.hasConstant();
    if (profile)
        startFromBest(gp, options.otherStarts);
    if (options.startGrid > 1 && dims == 1 && profile)
        return fitLengthscaleByScan(gp, options);
    const Eigen::VectorXd start = gp.logHyperparameters();
    const int offset = profile ? 1 : 0; // with h profiled, θ holds the log lengthscales only
    const int p = int(start.size()) - offset;
    const Eigen::VectorXd& y = gp.targets();
    const double yMean = y.mean();
    const double yVar = std::max((y.array() - yMean).square().mean(), 1e-300);

    // Bounds by a smooth change of variables θ = lb + (ub − lb)·σ(u), optimised over u with
    // unconstrained L-BFGS (optim::minimise) with a strong-Wolfe line search (Nocedal–Wright),
    // which keeps the curvature pairs positive: LBFGS++'s L-BFGS-B stalled when a trial step
    // reached the jitter regime of a very long lengthscale, where the likelihood jumps. log h is
    // bounded to ±25 around its profiled value at the start.
    const double logHatH = std::log(gp.profiledOutputScale());
    Eigen::VectorXd lb(p), ub(p), u(p);
    const Eigen::VectorXd theta0 = start.tail(p);
    const int noiseAt = gp.hasNoise() ? 1 + dims : -1;
    const int constantAt = gp.hasConstant() ? 1 + dims + gp.hasNoise() : -1;
    for (int j = 0; j < p; ++j) {
        const int at = j + offset;
        if (at == 0) {
            lb[j] = logHatH - 25;
            ub[j] = logHatH + 25;
        } else if (at == noiseAt) {
            lb[j] = std::log(1e-10 * yVar);
            ub[j] = std::log(10 * yVar);
        } else if (at == constantAt) {
            lb[j] = std::log(1e-10 * yVar);
            ub[j] = std::log(1e4 * (yVar + yMean * yMean));
        } else {
            lb[j] = std::log(options.minLengthscale);
            ub[j] = std::log(options.maxLengthscale);
        }
        const double margin = std::clamp(options.boundMargin, 1e-6, 0.5);
        const double frac = std::clamp((theta0[j] - lb[j]) / (ub[j] - lb[j]), margin, 1 - margin);
        u[j] = std::log(frac / (1 - frac));
    }
    auto toTheta = [&](const Eigen::VectorXd& uu) {
        Eigen::VectorXd t(p);
        for (int j = 0; j < p; ++j)
            t[j] = lb[j] + (ub[j] - lb[j]) / (1 + std::exp(-uu[j]));
        return t;
    };
    Eigen::VectorXd work = start;
    // gp is left at the last point evaluated; optim::minimise keeps the best point, answers a
    // repeated point from memory (a strong-Wolfe search at a flat optimum asks for the same u
    // until max_linesearch) and rejects non-finite values, so a failed factorisation only has
    // to be reported as such. lastU is the point whose factor gp holds.
    Eigen::VectorXd lastU;
    double lastF = 0;
    auto objective = [&](const Eigen::VectorXd& uu, Eigen::VectorXd& grad) -> double {
        lastU.resize(0);
        work.tail(p) = toTheta(uu);
        double f = 0;
        Eigen::VectorXd gTheta;
        try {
            gp.setLogHyperparameters(work);
            if (profile) {
                // Profile h: set h = ĥ(w) by rescaling the factor; by the envelope theorem
                // ∂/∂log w of the profiled likelihood equals the partial derivative at h = ĥ.
                gp.scaleOutput(gp.profiledOutputScale() / gp.kernel().outputScale());
                work[0] = std::log(gp.kernel().outputScale());
            }
            f = -gp.logMarginalLikelihood();
            gTheta = -gp.logMarginalLikelihoodGradient().tail(p);
        } catch (const NumericalError&) {
            return std::numeric_limits<double>::infinity(); // not factorisable even with jitter
        }
        for (int j = 0; j < p; ++j) {
            const double sg = 1 / (1 + std::exp(-uu[j]));
            grad[j] = gTheta[j] * (ub[j] - lb[j]) * sg * (1 - sg);
        }
        lastU = uu;
        lastF = f;
        return f;
    };
    optim::MinimiseOptions mo;
    mo.maxIterations = options.maxIterations;
    mo.gradientTolerance = options.tolerance;
    mo.valueTolerance = options.relativeImprovement;
    mo.maxLineSearch = options.maxLineSearch;
    mo.lineSearch = optim::LineSearch::StrongWolfe;
    // θ moves at most (ub − lb)/4 per unit of u (the logistic's slope is at most ¼).
    mo.resolution = p > 0 ? 4 * options.resolution / (ub - lb).maxCoeff() : 0;
    const optim::MinimiseResult fit = optim::minimise(objective, u, mo);
    FitResult result;
    result.iterations = fit.iterations;
    result.evaluations = fit.evaluations;
    result.converged = fit.converged;
    // Back to the best point unless gp still holds its factor (the usual case: the last point
    // evaluated is the one accepted).
    Eigen::VectorXd grad(p);
    double fx = lastU.size() == p && lastU == fit.x ? lastF : objective(fit.x, grad);
    if (!std::isfinite(fx)) {
        gp.setLogHyperparameters(start);
        fx = -gp.logMarginalLikelihood();
        result.converged = false;
    }
    result.logMarginalLikelihood = -fx;
    return result;
}

} // namespace evx::gp
