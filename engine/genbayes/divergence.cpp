#include "genbayes/divergence.h"

#include "core/errors.h"

#include <boost/math/quadrature/gauss_kronrod.hpp>

#include <algorithm>
#include <cmath>

namespace evx::genbayes {
namespace {

double alphaOf(Divergence d)
{
    switch (d) {
    case Divergence::Alpha05:
        return 0.5;
    case Divergence::Alpha06:
        return 0.6;
    case Divergence::Alpha07:
        return 0.7;
    case Divergence::Alpha08:
        return 0.8;
    case Divergence::Alpha09:
        return 0.9;
    default:
        return 0;
    }
}

constexpr double kClipLow = -5;

double clipHigh(Divergence d)
{
    return d == Divergence::Tvd ? 0.0 : 3.0;
}

// f at r = exp(logRatio), for one value (double) or many at once (Eigen::ArrayXd, whose
// expm1 and abs act element-wise): one formula per divergence for both.
template <class T> T fOf(Divergence d, const T& logRatio)
{
    using Eigen::abs, Eigen::expm1, std::abs, std::expm1;
    switch (d) {
    case Divergence::Kl:
        return T(-logRatio);
    case Divergence::Hellinger:
        return T(-expm1(0.5 * logRatio));
    case Divergence::Tvd:
        return T(0.5 * abs(expm1(logRatio)));
    default: {
        const double a = alphaOf(d);
        return T(-expm1((1 - a) * logRatio) / (a * (1 - a)));
    }
    }
}

} // namespace

std::string divergenceId(Divergence d)
{
    switch (d) {
    case Divergence::Tvd:
        return "tvd";
    case Divergence::Hellinger:
        return "hellinger";
    case Divergence::Kl:
        return "kl";
    default: {
        const double a = alphaOf(d);
        return "alpha-0." + std::to_string(int(std::lround(a * 10)));
    }
    }
}

std::string divergenceLabel(Divergence d)
{
    switch (d) {
    case Divergence::Tvd:
        return "TVD";
    case Divergence::Hellinger:
        return "squared Hellinger";
    case Divergence::Kl:
        return "KL";
    default:
        return "α = 0." + std::to_string(int(std::lround(alphaOf(d) * 10)));
    }
}

std::optional<Divergence> divergenceFromId(const std::string& id)
{
    for (Divergence d : kAllDivergences)
        if (divergenceId(d) == id)
            return d;
    return std::nullopt;
}

std::vector<std::string> divergenceIds()
{
    std::vector<std::string> ids;
    for (Divergence d : kAllDivergences)
        ids.push_back(divergenceId(d));
    return ids;
}

double fOfLogRatio(Divergence d, double logRatio)
{
    return fOf(d, logRatio);
}

double clippedF(Divergence d, double logRatio)
{
    return fOf(d, std::clamp(logRatio, kClipLow, clipHigh(d)));
}

double meanClippedF(Divergence d, const Eigen::VectorXd& logRatios)
{
    return fOf(d, Eigen::ArrayXd(logRatios.array().max(kClipLow).min(clipHigh(d)))).mean();
}

double discreteDivergence(Divergence d, const std::function<double(int)>& logP,
                          const std::function<double(int)>& logG)
{
    constexpr int kMaxSupport = 10'000'000;
    double sum = 0, mass = 0;
    for (int x = 0; x < kMaxSupport && mass < 1 - 1e-16; ++x) {
        const double lg = logG(x);
        if (!std::isfinite(lg))
            continue;
        const double g = std::exp(lg);
        mass += g;
        sum += g * fOfLogRatio(d, logP(x) - lg);
    }
    if (mass < 1 - 1e-9)
        throw NumericalError("discreteDivergence: g's mass does not reach 1 on the first 1e7 integers");
    return sum;
}

double continuousDivergence(Divergence d, const std::function<double(double)>& logP,
                            const std::function<double(double)>& logG, double lo, double hi,
                            const std::vector<double>& breakpoints)
{
    std::vector<double> edges{lo};
    for (double b : breakpoints)
        if (b > lo && b < hi)
            edges.push_back(b);
    edges.push_back(hi);
    std::sort(edges.begin(), edges.end());
    auto integrand = [&](double x) {
        const double lg = logG(x);
        return std::isfinite(lg) ? std::exp(lg) * fOfLogRatio(d, logP(x) - lg) : 0.0;
    };
    double total = 0;
    for (std::size_t i = 0; i + 1 < edges.size(); ++i)
        total += boost::math::quadrature::gauss_kronrod<double, 61>::integrate(integrand, edges[i],
                                                                               edges[i + 1], 15, 1e-13);
    return total;
}

namespace {

double jensenShannonOf(const double* p, const double* q, std::size_t size)
{
    double sp = 0, sq = 0;
    for (std::size_t i = 0; i < size; ++i) {
        sp += p[i];
        sq += q[i];
    }
    if (!(sp > 0) || !(sq > 0))
        throw NumericalError("jensenShannonDistance: a posterior has no mass on the grid");
    double js = 0;
    for (std::size_t i = 0; i < size; ++i) {
        const double a = p[i] / sp, b = q[i] / sq, m = 0.5 * (a + b);
        if (a > 0)
            js += 0.5 * a * std::log(a / m);
        if (b > 0)
            js += 0.5 * b * std::log(b / m);
    }
    return std::sqrt(std::max(0.0, js));
}

} // namespace

double jensenShannonDistance(const std::vector<double>& p, const std::vector<double>& q)
{
    if (p.size() != q.size() || p.empty())
        throw std::invalid_argument("jensenShannonDistance: grids of different sizes");
    return jensenShannonOf(p.data(), q.data(), p.size());
}

double jensenShannonDistanceOnGrid(const Eigen::VectorXd& p, const Eigen::VectorXd& q)
{
    if (p.size() != q.size() || p.size() == 0)
        throw std::invalid_argument("jensenShannonDistance: grids of different sizes");
    return jensenShannonOf(p.data(), q.data(), std::size_t(p.size()));
}

} // namespace evx::genbayes
