#include "core/grid.h"

#include "core/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace evx {

UniformGrid::UniformGrid(double lo, double hi, int n) : m_lo(lo), m_hi(hi), m_n(n)
{
    if (!(std::isfinite(lo) && std::isfinite(hi)) || !(hi > lo))
        throw InvalidParameter("empty range: [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    if (n < 3)
        throw InvalidParameter("a grid needs at least 3 points");
    m_step = (hi - lo) / (n - 1);
}

std::vector<double> UniformGrid::points() const
{
    std::vector<double> p(m_n);
    for (int i = 0; i < m_n; ++i)
        p[i] = at(i);
    return p;
}

GridDensity normalisedDensity(const UniformGrid& grid, const std::vector<double>& logValues, const char* what)
{
    const int n = grid.size();
    double m = -std::numeric_limits<double>::infinity();
    for (double v : logValues) {
        if (std::isnan(v) || v == std::numeric_limits<double>::infinity())
            throw NumericalError(std::string(what) + ": density is not finite on the grid");
        m = std::max(m, v);
    }
    if (!std::isfinite(m))
        throw NumericalError(std::string(what) + ": density vanishes on the whole grid");

    GridDensity d;
    d.x = grid.points();
    d.pdf.resize(n);
    double z = 0, s1 = 0;
    for (int i = 0; i < n; ++i) {
        d.pdf[i] = std::exp(logValues[i] - m);
        z += grid.weight(i) * d.pdf[i];
        s1 += grid.weight(i) * d.pdf[i] * d.x[i];
    }
    d.mean = s1 / z;
    double s2 = 0;
    for (int i = 0; i < n; ++i) {
        d.pdf[i] /= z;
        const double dx = d.x[i] - d.mean;
        s2 += grid.weight(i) * d.pdf[i] * dx * dx;
    }
    d.sd = std::sqrt(s2);
    return d;
}

double massBeyondGrid(const GridDensity& d)
{
    const std::size_t n = d.pdf.size();
    if (n < 3)
        return 1;
    const double span = std::abs(d.x.back() - d.x.front());
    // The decay rate over the last few points (not one step: rounding makes far tails ragged).
    const std::size_t k = std::min<std::size_t>(4, n - 1);
    auto beyond = [&](std::size_t end, std::size_t inner) {
        const double pEnd = d.pdf[end], pInner = d.pdf[inner];
        if (pEnd <= 0)
            return 0.0;
        if (!(pInner > pEnd))
            return std::min(1.0, pEnd * span); // not falling: as if it stayed flat for one more span
        // ∫ p_end exp(−r s) ds over s > 0.
        const double rate = std::log(pInner / pEnd) / std::abs(d.x[end] - d.x[inner]);
        return pEnd / rate;
    };
    return std::min(1.0, beyond(0, k) + beyond(n - 1, n - 1 - k));
}

} // namespace evx
