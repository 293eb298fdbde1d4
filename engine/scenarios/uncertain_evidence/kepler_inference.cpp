#include "scenarios/uncertain_evidence/kepler_inference.h"

#include "models/kepler_orbit.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>

namespace evx::scenarios {
namespace {

constexpr double kMaxTransits = 64;

} // namespace

double keplerLogPosterior(const Eigen::VectorXd& theta, const std::vector<double>& times, double noiseSd,
                          const KeplerPriors& priors)
{
    const double period = theta[0], e = theta[1], omega = theta[2], lambda = theta[3];
    if (!(period > 0) || !(e >= 0) || !(e <= priors.eMax) || !(omega >= 0) || !(omega < 360) ||
        !(lambda >= 0) || !(lambda < 360))
        return -std::numeric_limits<double>::infinity();
    const int n = int(times.size());
    double model[int(kMaxTransits)];
    models::transitTimesInto({period, e, omega, lambda}, std::min(n, int(kMaxTransits)), model);
    const double zp = (period - priors.periodMean) / priors.periodSd;
    double logP = -0.5 * zp * zp;
    const double inv = 1 / noiseSd;
    for (int k = 0; k < n && k < kMaxTransits; ++k) {
        const double z = (times[k] - model[k]) * inv;
        logP -= 0.5 * z * z;
    }
    return logP;
}

namespace {

constexpr double kDegPerRad = 180 / std::numbers::pi;

// Mean anomaly (rad) at transit for e and ω (deg): f = 90° − ω, then E and M = E − e sin E.
double meanAnomalyAtTransit(double e, double omegaDeg)
{
    const double f = (90 - omegaDeg) / kDegPerRad;
    const double bigE = 2 * std::atan(std::sqrt((1 - e) / (1 + e)) * std::tan(0.5 * f));
    return bigE - e * std::sin(bigE);
}

} // namespace

Eigen::Vector4d keplerElementsFromPhi(const Eigen::VectorXd& phi)
{
    const double period = phi[0], t0 = phi[1], h = phi[2], k = phi[3];
    const double e = h * h + k * k;
    double omega = std::atan2(k, h) * kDegPerRad;
    if (omega < 0)
        omega += 360;
    // t_0 = P/(2π) (M_transit − M0) mod P  ⇒  M0 = M_transit − 2π t_0 / P.
    double lambda = std::fmod(
        omega + (meanAnomalyAtTransit(e, omega) - 2 * std::numbers::pi * t0 / period) * kDegPerRad, 360.0);
    if (lambda < 0)
        lambda += 360;
    return {period, e, omega, lambda};
}

double keplerLogPosteriorPhi(const Eigen::VectorXd& phi, const std::vector<double>& times, double noiseSd,
                             const KeplerPriors& priors)
{
    const double period = phi[0], t0 = phi[1];
    const double e = phi[2] * phi[2] + phi[3] * phi[3];
    if (!(period > 0) || !(t0 >= 0) || !(t0 < period) || !(e <= priors.eMax))
        return -std::numeric_limits<double>::infinity();
    const double zp = (period - priors.periodMean) / priors.periodSd;
    double logP = -0.5 * zp * zp - std::log(period); // |∂(ω + M)/∂t_0| = 360°/P
    const double inv = 1 / noiseSd;
    for (size_t k = 0; k < times.size(); ++k) {
        const double z = (times[k] - t0 - double(k) * period) * inv;
        logP -= 0.5 * z * z;
    }
    return logP;
}

Eigen::MatrixXd keplerInitialWalkers(const std::vector<double>& times, double noiseSd,
                                     const KeplerPriors& priors, int walkers, std::mt19937_64& rng)
{
    const int n = int(times.size());
    double sn = 0, st = 0, snn = 0, snt = 0;
    for (int k = 0; k < n; ++k) {
        sn += k;
        st += times[k];
        snn += double(k) * k;
        snt += k * times[k];
    }
    const double sxx = std::max(1e-12, snn - sn * sn / n);
    const double period = (snt - sn * st / n) / sxx;
    const double t0 = (st - period * sn) / n;
    const double periodSd = noiseSd / std::sqrt(sxx);
    const double t0Sd = noiseSd / std::sqrt(double(n));
    std::uniform_real_distribution<double> unit(0, 1);
    std::normal_distribution<double> normal(0, 1);
    Eigen::MatrixXd w(walkers, 4);
    for (int i = 0; i < walkers; ++i) {
        const double r = std::sqrt(priors.eMax * unit(rng)); // uniform on the disk: e = r² uniform
        const double angle = 2 * std::numbers::pi * unit(rng);
        const double p = period + periodSd * normal(rng);
        w.row(i) << p, std::clamp(t0 + t0Sd * normal(rng), 0.0, std::nextafter(p, 0.0)), r * std::cos(angle),
            r * std::sin(angle);
    }
    return w;
}

SampledPosterior sampleKepler(const std::vector<double>& times, double noiseSd, const KeplerPriors& priors,
                              const sampling::EnsembleOptions& options, const RunContext& context,
                              const sampling::EnsembleProgress& onProgress)
{
    const auto start = std::chrono::steady_clock::now();
    std::mt19937_64 rng(options.seed ^ 0x9e3779b97f4a7c15ULL);
    const Eigen::MatrixXd initial = keplerInitialWalkers(times, noiseSd, priors, options.walkers, rng);
    long long evaluations = 0;
    auto logDensity = [&](const Eigen::VectorXd& phi) {
        ++evaluations;
        return keplerLogPosteriorPhi(phi, times, noiseSd, priors);
    };
    auto toElements = [](const Eigen::MatrixXd& phi) {
        Eigen::MatrixXd theta(phi.rows(), 4);
        for (Eigen::Index i = 0; i < phi.rows(); ++i)
            theta.row(i) = keplerElementsFromPhi(phi.row(i).transpose()).transpose();
        return theta;
    };
    sampling::EnsembleProgress progress;
    auto lastCall = std::chrono::steady_clock::now() - std::chrono::hours(1);
    if (onProgress)
        progress = [&](const sampling::EnsembleResult& soFar, double fraction) {
            // Converting every draw so far costs O(draws): at most ten times a second.
            const auto now = std::chrono::steady_clock::now();
            if (now - lastCall < std::chrono::milliseconds(100))
                return;
            lastCall = now;
            sampling::EnsembleResult converted = soFar;
            converted.samples = toElements(soFar.samples);
            onProgress(converted, fraction);
        };
    const sampling::EnsembleResult r = sampling::runEnsemble(logDensity, initial, options, context, progress);
    SampledPosterior s;
    s.samples = toElements(r.samples);
    s.effectiveSampleSize = r.effectiveSampleSize;
    s.acceptanceRate = r.acceptanceRate;
    s.evaluations = evaluations;
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return s;
}

} // namespace evx::scenarios
