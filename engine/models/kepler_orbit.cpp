#include "models/kepler_orbit.h"

#include "core/errors.h"

#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace evx::models {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;
constexpr double kDeg = std::numbers::pi / 180;

double wrap(double angle) // into [0, 2π)
{
    const double a = std::fmod(angle, kTwoPi);
    return a < 0 ? a + kTwoPi : a;
}

} // namespace

void transitTimesInto(const OrbitElements& o, int n, double* out)
{
    const double e = o.eccentricity;
    const double f = (90 - o.omegaDeg) * kDeg;
    const double E = 2 * std::atan(std::sqrt((1 - e) / (1 + e)) * std::tan(0.5 * f));
    const double mTransit = E - e * std::sin(E);
    const double m0 = (o.lambdaDeg - o.omegaDeg) * kDeg;
    const double first = o.period / kTwoPi * wrap(mTransit - m0);
    for (int k = 0; k < n; ++k)
        out[k] = first + k * o.period;
}

std::vector<double> transitTimes(const OrbitElements& orbit, int n)
{
    if (!(orbit.period > 0) || !(orbit.eccentricity >= 0) || !(orbit.eccentricity < 1))
        throw InvalidParameter("an orbit needs a positive period and an eccentricity in [0, 1)");
    std::vector<double> t(std::max(n, 0));
    transitTimesInto(orbit, n, t.data());
    return t;
}

double solveKepler(double meanAnomaly, double eccentricity)
{
    const double m = meanAnomaly;
    const double e = eccentricity;
    // Boost's safeguarded Newton iteration on g(E) = E − e sin E − M, bracketed by M ± e.
    auto g = [&](double E) { return std::make_pair(E - e * std::sin(E) - m, 1 - e * std::cos(E)); };
    std::uintmax_t iterations = 50;
    return boost::math::tools::newton_raphson_iterate(g, m + e * std::sin(m), m - e - 1e-12, m + e + 1e-12,
                                                      52, iterations);
}

std::array<double, 2> positionAt(const OrbitElements& o, double t)
{
    const double e = o.eccentricity;
    const double m = (o.lambdaDeg - o.omegaDeg) * kDeg + kTwoPi * t / o.period;
    const double E = solveKepler(m, e);
    const double f =
        2 * std::atan2(std::sqrt(1 + e) * std::sin(0.5 * E), std::sqrt(1 - e) * std::cos(0.5 * E));
    const double r = 1 - e * std::cos(E);
    const double theta = o.omegaDeg * kDeg + f;
    return {r * std::cos(theta), r * std::sin(theta)};
}

} // namespace evx::models
