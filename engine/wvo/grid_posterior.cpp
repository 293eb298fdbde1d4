#include "wvo/grid_posterior.h"

#include "core/errors.h"
#include "core/grid.h"
#include "stats/densities.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace evx::wvo {

std::vector<double> Axis::centres() const
{
    std::vector<double> c(n);
    for (int i = 0; i < n; ++i)
        c[i] = centre(i);
    return c;
}

GridPosterior::GridPosterior(Axis x, Axis y, const std::function<double(double, double)>& logDensity)
    : m_x(x), m_y(y), m_log(static_cast<std::size_t>(x.n) * y.n)
{
    for (int iy = 0; iy < y.n; ++iy)
        for (int ix = 0; ix < x.n; ++ix)
            m_log[iy * x.n + ix] = logDensity(x.centre(ix), y.centre(iy));
    normalise();
}

GridPosterior::GridPosterior(Axis x, Axis y, std::vector<double> logValues)
    : m_x(x), m_y(y), m_log(std::move(logValues))
{
    if (m_log.size() != static_cast<std::size_t>(x.n) * y.n)
        throw InvalidParameter("grid posterior: values do not match the grid");
    normalise();
}

void GridPosterior::normalise()
{
    if (m_x.n < 3 || m_y.n < 3 || !(m_x.hi > m_x.lo) || !(m_y.hi > m_y.lo))
        throw InvalidParameter("grid posterior: a grid needs at least 3 cells per axis and a range");
    for (double v : m_log)
        if (std::isnan(v) || v == std::numeric_limits<double>::infinity())
            throw NumericalError("grid posterior: log density is not finite on the grid");
    const double z = stats::logSumExp(m_log);
    if (!std::isfinite(z))
        throw NumericalError("grid posterior: the density vanishes on the whole grid");
    m_logMass.resize(m_log.size());
    m_mass.resize(m_log.size());
    for (std::size_t c = 0; c < m_log.size(); ++c) {
        m_logMass[c] = m_log[c] - z;
        m_mass[c] = std::exp(m_logMass[c]);
    }
}

std::vector<double> GridPosterior::marginalX() const
{
    std::vector<double> p(m_x.n, 0.0);
    for (int iy = 0; iy < m_y.n; ++iy)
        for (int ix = 0; ix < m_x.n; ++ix)
            p[ix] += m_mass[iy * m_x.n + ix];
    for (double& v : p)
        v /= m_x.step();
    return p;
}

std::vector<double> GridPosterior::marginalY() const
{
    std::vector<double> p(m_y.n, 0.0);
    for (int iy = 0; iy < m_y.n; ++iy)
        for (int ix = 0; ix < m_x.n; ++ix)
            p[iy] += m_mass[iy * m_x.n + ix];
    for (double& v : p)
        v /= m_y.step();
    return p;
}

double GridPosterior::expectation(const std::function<double(double, double)>& f) const
{
    double s = 0;
    for (int iy = 0; iy < m_y.n; ++iy)
        for (int ix = 0; ix < m_x.n; ++ix) {
            const double m = m_mass[iy * m_x.n + ix];
            if (m > 0)
                s += m * f(m_x.centre(ix), m_y.centre(iy));
        }
    return s;
}

double GridPosterior::meanX() const
{
    return expectation([](double x, double) { return x; });
}
double GridPosterior::meanY() const
{
    return expectation([](double, double y) { return y; });
}

double GridPosterior::sdX() const
{
    const double m = meanX();
    // Each cell spreads its mass uniformly: add the within-cell variance h²/12.
    const double h = m_x.step();
    return std::sqrt(expectation([m](double x, double) { return (x - m) * (x - m); }) + h * h / 12);
}

double GridPosterior::sdY() const
{
    const double m = meanY();
    const double h = m_y.step();
    return std::sqrt(expectation([m](double, double y) { return (y - m) * (y - m); }) + h * h / 12);
}

namespace {

// Quantiles of a piecewise-uniform density given by cell masses.
Quantiles axisQuantiles(const Axis& axis, const std::vector<double>& density)
{
    const double probs[5] = {0.05, 0.25, 0.5, 0.75, 0.95};
    double out[5];
    int k = 0;
    double cum = 0;
    for (int i = 0; i < axis.n && k < 5; ++i) {
        const double m = density[i] * axis.step();
        while (k < 5 && cum + m >= probs[k]) {
            const double frac = m > 0 ? (probs[k] - cum) / m : 0.0;
            out[k++] = axis.lo + (i + frac) * axis.step();
        }
        cum += m;
    }
    for (; k < 5; ++k)
        out[k] = axis.hi;
    return {out[0], out[1], out[2], out[3], out[4]};
}

} // namespace

Quantiles GridPosterior::quantilesX() const
{
    return axisQuantiles(m_x, marginalX());
}
Quantiles GridPosterior::quantilesY() const
{
    return axisQuantiles(m_y, marginalY());
}

Eigen::MatrixXd GridPosterior::sample(int count, std::mt19937_64& rng) const
{
    std::discrete_distribution<std::size_t> cell(m_mass.begin(), m_mass.end());
    std::uniform_real_distribution<double> jitter(-0.5, 0.5);
    Eigen::MatrixXd draws(count, 2);
    for (int s = 0; s < count; ++s) {
        const std::size_t c = cell(rng);
        const int ix = static_cast<int>(c % m_x.n), iy = static_cast<int>(c / m_x.n);
        draws(s, 0) = m_x.centre(ix) + jitter(rng) * m_x.step();
        draws(s, 1) = m_y.centre(iy) + jitter(rng) * m_y.step();
    }
    return draws;
}

double GridPosterior::massBeyondGrid() const
{
    auto marginal = [](const Axis& a, std::vector<double> density) {
        return GridDensity{a.centres(), std::move(density), 0, 0};
    };
    return std::min(1.0, evx::massBeyondGrid(marginal(m_x, marginalX())) +
                             evx::massBeyondGrid(marginal(m_y, marginalY())));
}

double klDivergence(const GridPosterior& p, const GridPosterior& q)
{
    if (p.mass().size() != q.mass().size())
        throw InvalidParameter("KL: the two densities are on different grids");
    double kl = 0;
    for (std::size_t c = 0; c < p.mass().size(); ++c) {
        const double pc = p.mass()[c];
        if (pc <= 0)
            continue;
        if (!std::isfinite(q.logMass()[c]))
            return std::numeric_limits<double>::infinity();
        kl += pc * (p.logMass()[c] - q.logMass()[c]);
    }
    return std::max(kl, 0.0);
}

} // namespace evx::wvo
