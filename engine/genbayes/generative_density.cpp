#include "genbayes/generative_density.h"

#include "core/errors.h"
#include "gp/gp_regression.h"
#include "optim/minimise.h"
#include "stats/densities.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace evx::genbayes {

Eigen::VectorXd paperGpLogDensity(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double outputScale,
                                  double lengthscale, double* logMarginalLikelihood)
{
    gp::GpRegression gp(
        gp::Kernel(gp::KernelKind::Matern32, outputScale, Eigen::VectorXd::Constant(1, lengthscale)), 0.0);
    gp.setData(Eigen::MatrixXd(x), y);
    // The jitter as a fixed white-noise term: GpRegression's noise enters K but not the latent
    // variance predict() returns, which is what scikit-learn's alpha does too. Never refitted.
    gp.enableNoise(kSklearnJitter);
    if (logMarginalLikelihood)
        *logMarginalLikelihood = gp.logMarginalLikelihood();
    Eigen::VectorXd mu, latentVar;
    gp.predict(Eigen::MatrixXd(x), mu, latentVar);
    Eigen::VectorXd out(y.size());
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        // v(x_i) is about α here; rounding could only push it to 0 (scikit-learn then warns and
        // sets 0). The floor keeps log g finite; it is far below any v this code has produced.
        const double v = std::max(latentVar(i), std::numeric_limits<double>::min());
        out(i) = stats::normalLogPdfVar(y(i), mu(i), v);
    }
    return out;
}

PaperGp fitPaperGp(const Eigen::VectorXd& x, const Eigen::VectorXd& y)
{
    // Not gp::fitHyperparameters: it would fit the noise term too (turning this into the noise
    // GP), and without one it lets CheckedCholesky add a jitter proportional to h wherever
    // K + αI is not numerically positive definite, which acts as a noise term (h = 2e11,
    // ℓ = 1e5 on the reference data, 57 nats above scikit-learn's optimum). scikit-learn
    // rejects such points (its Cholesky fails, the likelihood is −∞); so do we.
    gp::GpRegression gp(gp::Kernel(gp::KernelKind::Matern32, 1.0, Eigen::VectorXd::Constant(1, 1.0)), 0.0);
    gp.setData(Eigen::MatrixXd(x), y);
    gp.enableNoise(kSklearnJitter);
    const double logAlpha = std::log(kSklearnJitter);
    auto objective = [&](const Eigen::VectorXd& u, Eigen::VectorXd& grad) {
        try {
            gp.setLogHyperparameters(Eigen::Vector3d(u(0), u(1), logAlpha));
        } catch (const NumericalError&) {
            return std::numeric_limits<double>::quiet_NaN();
        }
        if (gp.jitter() > 0)
            return std::numeric_limits<double>::quiet_NaN();
        const Eigen::VectorXd g = gp.logMarginalLikelihoodGradient();
        grad = -g.head(2);
        return -gp.logMarginalLikelihood();
    };
    // scikit-learn's start (ConstantKernel() * Matern(nu=1.5): h = ℓ = 1) and bounds.
    optim::MinimiseOptions options;
    options.lower = Eigen::Vector2d::Constant(std::log(1e-5));
    options.upper = Eigen::Vector2d::Constant(std::log(1e5));
    options.maxIterations = 200;
    // With many points K + αI at ℓ = 1 is itself not numerically positive definite; start then
    // on the plateau (ℓ = 1e-4, K ≈ hI), where it always is.
    Eigen::VectorXd start = Eigen::Vector2d::Zero(), grad(2);
    if (!std::isfinite(objective(start, grad)))
        start(1) = std::log(1e-4);
    const optim::MinimiseResult r = optim::minimise(objective, start, options);
    PaperGp fit;
    fit.outputScale = std::exp(r.x(0));
    fit.lengthscale = std::exp(r.x(1));
    fit.logMarginalLikelihood = -r.value;
    return fit;
}

Eigen::VectorXd regressionGenerativeLogDensity(const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                                               GenerativeG kind, int folds)
{
    if (kind == GenerativeG::Paper) {
        const PaperGp fit = fitPaperGp(x, y);
        return paperGpLogDensity(x, y, fit.outputScale, fit.lengthscale);
    }
    if (kind == GenerativeG::HeldOut) {
        if (folds < 2 || folds > y.size())
            throw InvalidParameter("the held-out g needs between 2 and n_obs (" + std::to_string(y.size()) +
                                   ") folds K, not " + std::to_string(folds));
        Eigen::VectorXd out(y.size());
        for (int k = 0; k < folds; ++k) {
            double sumOfSquares = 0;
            Eigen::Index count = 0;
            for (Eigen::Index i = 0; i < y.size(); ++i)
                if (i % folds != k) {
                    sumOfSquares += y(i) * y(i);
                    ++count;
                }
            const double h = std::max(sumOfSquares / double(count), std::numeric_limits<double>::min());
            for (Eigen::Index i = k; i < y.size(); i += folds)
                out(i) = stats::normalLogPdfVar(y(i), 0.0, h);
        }
        return out;
    }
    // The noise GP: prior mean ȳ, h·Matérn-3/2 + σ_n², all by marginal likelihood.
    const double mean = y.mean(), var = std::max((y.array() - mean).square().mean(), 1e-12);
    gp::GpRegression gp(gp::Kernel(gp::KernelKind::Matern32, var, Eigen::VectorXd::Constant(1, 1.0)), mean);
    gp.setData(Eigen::MatrixXd(x), y);
    gp.enableNoise(0.1 * var);
    gp::fitHyperparameters(gp, {.profileOutputScale = false, .maxIterations = 100});
    Eigen::VectorXd mu, latentVar;
    gp.predict(Eigen::MatrixXd(x), mu, latentVar);
    Eigen::VectorXd out(y.size());
    for (Eigen::Index i = 0; i < y.size(); ++i)
        out(i) = stats::normalLogPdfVar(y(i), mu(i), latentVar(i) + gp.noiseVariance());
    return out;
}

} // namespace evx::genbayes
