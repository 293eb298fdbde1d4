#pragma once
// Uniform grids with trapezoid weights, and densities tabulated on them.
// The trapezoid rule converges geometrically for smooth integrands that decay
// inside the grid (a Gaussian with step h = sd/2 is integrated to ~1e-30), so a
// grid that covers ±8 sd at a few points per sd is as accurate as double allows.

#include <vector>

namespace evx {

class UniformGrid {
public:
    UniformGrid(double lo, double hi, int n); // throws InvalidParameter on an empty range or n < 3

    double lo() const { return m_lo; }
    double hi() const { return m_hi; }
    int size() const { return m_n; }
    double step() const { return m_step; }
    double at(int i) const { return m_lo + i * m_step; }
    double weight(int i) const { return (i == 0 || i == m_n - 1) ? 0.5 * m_step : m_step; }
    std::vector<double> points() const;

private:
    double m_lo, m_hi, m_step;
    int m_n;
};

// A normalised density on a grid with its first two moments.
struct GridDensity {
    std::vector<double> x;
    std::vector<double> pdf;
    double mean = 0;
    double sd = 0;
};

// exp(logValues - max), normalised by the trapezoid rule; throws NumericalError when
// the density vanishes or is not finite on the whole grid.
GridDensity normalisedDensity(const UniformGrid& grid, const std::vector<double>& logValues,
                              const char* what);

// The mass a tabulated density has beyond the ends of its grid, estimated by continuing its
// log-density linearly past each end (exact for exponential tails, an overestimate for
// Gaussian ones). Where it does not fall towards an end, as if it stayed flat for one more span.
double massBeyondGrid(const GridDensity& density);

} // namespace evx
