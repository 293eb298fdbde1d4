#include "stats/predictive_metrics.h"

#include "core/errors.h"
#include "stats/densities.h"
#include "stats/knn_entropy.h"

#include <boost/math/special_functions/erf.hpp>
#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace evx::stats {
namespace {

// Beyond this many sds a component's CDF is 0 or 1 and its density below 1e-14 of its peak,
// so it is left out of the sums (the means are sorted, so the rest is a window).
constexpr double kWindow = 8.5;

void checkSigma(double sigmaEps)
{
    if (!(sigmaEps > 0) || !std::isfinite(sigmaEps))
        throw InvalidParameter("the noise sd σ_ε must be positive and finite (got " +
                               std::to_string(sigmaEps) + ")");
}

void checkScale(double outputScale)
{
    if (!(outputScale > 0) || !std::isfinite(outputScale))
        throw InvalidParameter("the output scale must be positive and finite");
}

void checkDraws(const Eigen::MatrixXd& f)
{
    if (f.rows() < 1 || f.cols() < 1)
        throw InvalidParameter("the predictive draws are empty (need S ≥ 1 draws at N ≥ 1 points)");
    if (!f.allFinite())
        throw InvalidParameter("the predictive draws hold a value that is not finite (a diverged network?)");
}

void checkTargets(const Eigen::MatrixXd& f, const Eigen::VectorXd& y)
{
    checkDraws(f);
    if (y.size() != f.cols())
        throw InvalidParameter("the predictive draws have " + std::to_string(f.cols()) + " columns for " +
                               std::to_string(y.size()) + " targets");
    if (!y.allFinite())
        throw InvalidParameter("a target y is not finite");
}

std::vector<double> sorted(const Eigen::Ref<const Eigen::VectorXd>& v)
{
    std::vector<double> s(v.data(), v.data() + v.size());
    std::sort(s.begin(), s.end());
    return s;
}

double mixtureCdf(const std::vector<double>& means, double sd, double t)
{
    const auto lo = std::lower_bound(means.begin(), means.end(), t - kWindow * sd);
    const auto hi = std::upper_bound(lo, means.end(), t + kWindow * sd);
    double sum = double(lo - means.begin()); // components far below t: Φ = 1
    for (auto it = lo; it != hi; ++it)
        sum += 0.5 * std::erfc(-(t - *it) / (sd * std::numbers::sqrt2));
    return sum / double(means.size());
}

double quantileSorted(const std::vector<double>& means, double sd, double p)
{
    // Each component's p-quantile is m + sd·Φ⁻¹(p) and the mixture's CDF is their average, so
    // the mixture's quantile lies between the smallest and the largest of them.
    const double zp = -std::numbers::sqrt2 * boost::math::erfc_inv(2 * p);
    double a = means.front() + sd * zp, b = means.back() + sd * zp;
    if (a == b)
        return a;
    const auto g = [&](double t) { return mixtureCdf(means, sd, t) - p; };
    const double ga = g(a), gb = g(b);
    if (ga >= 0) // rounding can put the ends a hair inside the bracket
        return a;
    if (gb <= 0)
        return b;
    std::uintmax_t iterations = 200;
    const double tolerance = 1e-13 * sd;
    const auto [l, u] = boost::math::tools::toms748_solve(
        g, a, b, ga, gb,
        [tolerance](double x, double y) { return std::abs(y - x) <= tolerance + 1e-15 * std::abs(x); },
        iterations);
    return 0.5 * (l + u);
}

double entropySorted(const std::vector<double>& means, double sd)
{
    const double lo = means.front() - kWindow * sd, hi = means.back() + kWindow * sd;
    const double h = sd / 4;
    const double points = std::ceil((hi - lo) / h);
    if (points > 2e7)
        throw InvalidParameter("σ_ε is too small against the spread of the draws for the quadrature entropy "
                               "(more than 2·10⁷ grid points); use the nearest-neighbour estimator");
    const long n = static_cast<long>(points);
    const double step = (hi - lo) / double(n);
    const double norm = 1.0 / (double(means.size()) * sd) * std::exp(-kHalfLog2Pi);
    auto first = means.begin();
    double sum = 0;
    for (long i = 0; i <= n; ++i) {
        const double y = lo + double(i) * step;
        while (first != means.end() && *first < y - kWindow * sd)
            ++first;
        double p = 0;
        for (auto it = first; it != means.end() && *it <= y + kWindow * sd; ++it) {
            const double u = (y - *it) / sd;
            p += std::exp(-0.5 * u * u);
        }
        p *= norm;
        // The end points lie 8.5 sd beyond every mean, where p log p is below 1e-14 of its
        // peak: the plain sum is the trapezoid rule.
        if (p > 0)
            sum -= p * std::log(p);
    }
    return sum * step;
}

} // namespace

Eigen::VectorXd predictiveLogDensities(const Eigen::MatrixXd& f, const Eigen::VectorXd& y, double sigmaEps)
{
    checkTargets(f, y);
    checkSigma(sigmaEps);
    const Eigen::Index s = f.rows();
    Eigen::VectorXd out(f.cols());
    for (Eigen::Index n = 0; n < f.cols(); ++n) {
        const Eigen::ArrayXd e = -0.5 * ((f.col(n).array() - y(n)) / sigmaEps).square();
        out(n) = logSumExp(e) - std::log(double(s)) - std::log(sigmaEps) - kHalfLog2Pi;
    }
    return out;
}

double predictiveLogLikelihood(const Eigen::MatrixXd& f, const Eigen::VectorXd& y, double sigmaEps,
                               double outputScale)
{
    checkScale(outputScale);
    return predictiveLogDensities(f, y, sigmaEps).mean() - std::log(outputScale);
}

double predictiveRmse(const Eigen::MatrixXd& f, const Eigen::VectorXd& y, double outputScale)
{
    checkTargets(f, y);
    checkScale(outputScale);
    const Eigen::VectorXd mean = f.colwise().mean().transpose();
    return outputScale * std::sqrt((y - mean).squaredNorm() / double(y.size()));
}

double gaussianMixtureQuantile(const Eigen::VectorXd& means, double sd, double p)
{
    checkDraws(means);
    checkSigma(sd);
    if (!(p > 0 && p < 1))
        throw InvalidParameter("a quantile level must lie strictly between 0 and 1");
    return quantileSorted(sorted(means), sd, p);
}

double gaussianMixtureEntropy(const Eigen::VectorXd& means, double sd)
{
    checkDraws(means);
    checkSigma(sd);
    return entropySorted(sorted(means), sd);
}

PredictiveIntervals predictiveIntervals(const Eigen::MatrixXd& f, double sigmaEps, double level,
                                        const std::function<void()>& afterEachPoint)
{
    checkDraws(f);
    checkSigma(sigmaEps);
    if (!(level > 0 && level < 1))
        throw InvalidParameter("the interval level must lie strictly between 0 and 1");
    const double tail = (1 - level) / 2;
    PredictiveIntervals out{Eigen::VectorXd(f.cols()), Eigen::VectorXd(f.cols())};
    for (Eigen::Index n = 0; n < f.cols(); ++n) {
        const std::vector<double> means = sorted(f.col(n));
        out.lower(n) = quantileSorted(means, sigmaEps, tail);
        out.upper(n) = quantileSorted(means, sigmaEps, 1 - tail);
        if (afterEachPoint)
            afterEachPoint();
    }
    return out;
}

PredictiveSummary summarisePredictive(const Eigen::MatrixXd& f, const Eigen::VectorXd& y, double sigmaEps,
                                      double outputScale, double level,
                                      const std::function<void()>& afterEachPoint)
{
    PredictiveSummary s;
    s.logLikelihood = predictiveLogLikelihood(f, y, sigmaEps, outputScale);
    s.rmse = predictiveRmse(f, y, outputScale);
    const PredictiveIntervals pi = predictiveIntervals(f, sigmaEps, level, afterEachPoint);
    s.picp = ((y.array() >= pi.lower.array()) && (y.array() <= pi.upper.array())).cast<double>().mean();
    s.mpiw = outputScale * (pi.upper - pi.lower).mean();
    s.draws = static_cast<int>(f.rows());
    return s;
}

UncertaintyDecomposition decomposeUncertainty(const Eigen::MatrixXd& f, int drawsOfW, double sigmaEps,
                                              EntropyEstimator estimator, std::uint64_t seed, int k,
                                              double outputScale, const std::function<void()>& afterEachPoint)
{
    checkDraws(f);
    checkSigma(sigmaEps);
    checkScale(outputScale);
    if (drawsOfW < 1 || f.rows() % drawsOfW != 0)
        throw InvalidParameter("the " + std::to_string(f.rows()) + " draws do not split into " +
                               std::to_string(drawsOfW) + " weight draws of equally many latent draws");
    const auto sz = static_cast<Eigen::Index>(f.rows() / drawsOfW);
    const bool knn = estimator == EntropyEstimator::NearestNeighbour;
    if (knn && sz <= k)
        throw InvalidParameter(
            "the nearest-neighbour entropy of p(y | x, W) needs more than k = " + std::to_string(k) +
            " latent draws per weight draw (got " + std::to_string(sz) + ")");
    const Eigen::Index n = f.cols();
    UncertaintyDecomposition d{Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n)};
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    Eigen::VectorXd y(f.rows());
    for (Eigen::Index i = 0; i < n; ++i) {
        double aleatoric = 0;
        if (knn) {
            for (Eigen::Index r = 0; r < f.rows(); ++r)
                y(r) = f(r, i) + sigmaEps * normal(rng);
            d.total(i) = knnEntropy(std::vector<double>(y.data(), y.data() + y.size()), k);
            for (int w = 0; w < drawsOfW; ++w)
                aleatoric += knnEntropy(std::vector<double>(y.data() + w * sz, y.data() + (w + 1) * sz), k);
        } else {
            d.total(i) = entropySorted(sorted(f.col(i)), sigmaEps);
            for (int w = 0; w < drawsOfW; ++w)
                aleatoric += entropySorted(sorted(f.col(i).segment(w * sz, sz)), sigmaEps);
        }
        d.aleatoric(i) = aleatoric / drawsOfW;
        if (afterEachPoint)
            afterEachPoint();
    }
    d.total.array() += std::log(outputScale);
    d.aleatoric.array() += std::log(outputScale);
    d.epistemic = d.total - d.aleatoric;
    return d;
}

} // namespace evx::stats
