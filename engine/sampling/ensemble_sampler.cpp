// The stretch move (Goodman & Weare 2010, eq. 7; emcee's "parallel" variant): the ensemble
// is split in two halves; each walker X_k of one half proposes
//   Y = X_j + z (X_k − X_j),  X_j drawn uniformly from the other half,
//   z ~ g(z) ∝ 1/√z on [1/a, a]  (z = ((a − 1) u + 1)² / a, u ~ U(0, 1)),
// and accepts with probability min(1, z^{d−1} p(Y) / p(X_k)). The halves are updated one
// after the other (the second sees the first's new positions), which keeps detailed
// balance with respect to the product of the target over walkers.
// Written by hand: no maintained C++ library offers this sampler.
#include "sampling/ensemble_sampler.h"

#include "core/errors.h"
#include "sampling/autocorrelation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace evx::sampling {
namespace {

void checkOptions(const Eigen::MatrixXd& initial, const EnsembleOptions& o)
{
    const auto d = initial.cols();
    if (d < 1)
        throw InvalidParameter("the ensemble sampler needs at least one dimension");
    if (initial.rows() != o.walkers)
        throw InvalidParameter("the ensemble sampler needs one initial row per walker");
    if (o.walkers < 2 * d || o.walkers < 4 || o.walkers % 2 != 0)
        throw InvalidParameter("the ensemble sampler needs an even number of walkers, at least "
                               "4 and at least twice the dimension (" +
                               std::to_string(2 * d) + ")");
    if (o.steps < 1 || o.burnIn < 0 || o.thin < 1)
        throw InvalidParameter("the ensemble sampler needs steps ≥ 1, burn-in ≥ 0 and thin ≥ 1");
    if (!(o.stretch > 1))
        throw InvalidParameter("the stretch move's scale a must exceed 1");
}

// Fills the autocorrelation diagnostics from draws stored step-major (row = step·W + walker).
void diagnose(EnsembleResult& r, Eigen::Index storedSteps, int walkers, int thin)
{
    const Eigen::Index d = r.samples.cols();
    r.autocorrelationTime = Eigen::VectorXd::Constant(d, std::numeric_limits<double>::quiet_NaN());
    r.effectiveSampleSize = 0;
    if (storedSteps < 2)
        return;
    double ess = std::numeric_limits<double>::infinity();
    Eigen::MatrixXd chains(storedSteps, walkers);
    for (Eigen::Index k = 0; k < d; ++k) {
        for (Eigen::Index t = 0; t < storedSteps; ++t)
            for (int w = 0; w < walkers; ++w)
                chains(t, w) = r.samples(t * walkers + w, k);
        const double tau = integratedAutocorrelationTime(chains); // in stored draws
        r.autocorrelationTime[k] = tau * thin;
        ess = std::min(ess, double(storedSteps * walkers) / tau);
    }
    r.effectiveSampleSize = ess;
}

} // namespace

EnsembleResult runEnsemble(const LogDensity& logDensity, const Eigen::MatrixXd& initialWalkers,
                           const EnsembleOptions& options, const RunContext& context,
                           const EnsembleProgress& onProgress)
{
    checkOptions(initialWalkers, options);
    const int nw = options.walkers;
    const Eigen::Index d = initialWalkers.cols();
    const int half = nw / 2;
    const double a = options.stretch;

    Eigen::MatrixXd x = initialWalkers;
    Eigen::VectorXd lp(nw);
    for (int k = 0; k < nw; ++k) {
        lp[k] = logDensity(x.row(k).transpose());
        if (!std::isfinite(lp[k]))
            throw InvalidParameter("every initial walker must have a finite log density (walker " +
                                   std::to_string(k) + " has not)");
    }

    std::mt19937_64 rng(options.seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_int_distribution<int> partner(0, half - 1);

    const int stored = options.steps / options.thin;
    EnsembleResult result;
    result.samples.resize(Eigen::Index(stored) * nw, d);
    result.logDensity.resize(Eigen::Index(stored) * nw);
    long long accepted = 0, proposed = 0;
    int storedSoFar = 0;
    const int total = options.burnIn + options.steps;
    Eigen::VectorXd y(d);

    auto report = [&](int step) {
        if (!onProgress)
            return;
        EnsembleResult soFar;
        if (storedSoFar == 0) {
            // Still burning in: the ensemble's current positions are the best picture yet.
            soFar.samples = x;
            soFar.logDensity = lp;
            soFar.autocorrelationTime =
                Eigen::VectorXd::Constant(d, std::numeric_limits<double>::quiet_NaN());
        } else {
            soFar.samples = result.samples.topRows(Eigen::Index(storedSoFar) * nw);
            soFar.logDensity = result.logDensity.head(Eigen::Index(storedSoFar) * nw);
            if (options.progressDiagnostics)
                diagnose(soFar, storedSoFar, nw, options.thin);
            else
                soFar.autocorrelationTime =
                    Eigen::VectorXd::Constant(d, std::numeric_limits<double>::quiet_NaN());
        }
        soFar.acceptanceRate = proposed ? double(accepted) / double(proposed) : 0;
        onProgress(soFar, double(step) / total);
    };

    for (int step = 0; step < total; ++step) {
        for (int s = 0; s < 2; ++s) {
            const int self = s * half, other = (1 - s) * half;
            for (int i = 0; i < half; ++i) {
                context.checkCancelled();
                const int k = self + i;
                const int j = other + partner(rng);
                const double u = unit(rng);
                const double z = std::pow((a - 1) * u + 1, 2) / a;
                y = x.row(j).transpose() + z * (x.row(k) - x.row(j)).transpose();
                const double lpy = logDensity(y);
                ++proposed;
                if (std::isnan(lpy))
                    continue; // treated as outside the support
                const double logAccept = double(d - 1) * std::log(z) + lpy - lp[k];
                if (logAccept >= 0 || std::log(unit(rng)) < logAccept) {
                    x.row(k) = y.transpose();
                    lp[k] = lpy;
                    ++accepted;
                }
            }
        }
        const int afterBurn = step - options.burnIn;
        if (afterBurn >= 0 && (afterBurn + 1) % options.thin == 0 && storedSoFar < stored) {
            result.samples.middleRows(Eigen::Index(storedSoFar) * nw, nw) = x;
            result.logDensity.segment(Eigen::Index(storedSoFar) * nw, nw) = lp;
            ++storedSoFar;
        }
        if (options.progressEvery > 0 && (step + 1) % options.progressEvery == 0 && step + 1 < total)
            report(step + 1);
    }

    result.acceptanceRate = proposed ? double(accepted) / double(proposed) : 0;
    diagnose(result, storedSoFar, nw, options.thin);
    return result;
}

} // namespace evx::sampling
