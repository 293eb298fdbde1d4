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

double logSumExp(const double* values, int n)
{
    double m = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i)
        m = std::max(m, values[i]);
    if (!std::isfinite(m))
        return m;
    double s = 0;
    for (int i = 0; i < n; ++i)
        s += std::exp(values[i] - m);
    return m + std::log(s);
}

GridDensity normalisedDensity(const UniformGrid& grid, const std::vector<double>& logValues,
                              const char* what)
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

}  // namespace evx
