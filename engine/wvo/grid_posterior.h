#pragma once
// The exact back-end for two-parameter posteriors: an unnormalised log density tabulated
// at the centres of an nx × ny grid of equal cells (row-major, values[iy * nx + ix], as
// HeatMap). Cell masses are exp(log p − logΣexp); marginals, moments, quantiles, seeded
// draws (a cell by its mass, then uniform within it) and KL between two tables on the
// same grid follow from them. Midpoint cells integrate smooth densities that vanish at
// the edges to high accuracy; callers choose ranges that hold the mass.

#include <Eigen/Core>

#include <functional>
#include <random>
#include <vector>

namespace evx::wvo {

struct Axis {
    double lo = 0, hi = 1; // outer edges of the outer cells
    int n = 0;
    double step() const { return (hi - lo) / n; }
    double centre(int i) const { return lo + (i + 0.5) * step(); }
    std::vector<double> centres() const;
};

struct Quantiles {
    double q05 = 0, q25 = 0, q50 = 0, q75 = 0, q95 = 0;
};

class GridPosterior {
public:
    // Fills log p at every cell centre; -inf is allowed (outside the support).
    GridPosterior(Axis x, Axis y, const std::function<double(double, double)>& logDensity);
    GridPosterior(Axis x, Axis y, std::vector<double> logValues); // row-major, nx*ny

    const Axis& xAxis() const { return m_x; }
    const Axis& yAxis() const { return m_y; }
    const std::vector<double>& logValues() const { return m_log; }
    const std::vector<double>& mass() const { return m_mass; } // sums to 1
    const std::vector<double>& logMass() const { return m_logMass; }

    std::vector<double> marginalX() const; // densities (mass / step) at the x centres
    std::vector<double> marginalY() const;
    double meanX() const;
    double meanY() const;
    double sdX() const;
    double sdY() const;
    Quantiles quantilesX() const;
    Quantiles quantilesY() const;
    // E[f(x, y)]
    double expectation(const std::function<double(double, double)>& f) const;

    // count draws, one (x, y) per row.
    Eigen::MatrixXd sample(int count, std::mt19937_64& rng) const;

    // The mass beyond the grid, estimated from each marginal by continuing its log-density
    // past both ends (core/grid.h massBeyondGrid): above ~1e-6 the grid clips the density.
    double massBeyondGrid() const;

private:
    void normalise();

    Axis m_x, m_y;
    std::vector<double> m_log, m_mass, m_logMass;
};

// KL(p ‖ q) = Σ_c p_c (log p_c − log q_c) over the cells of one shared grid (nats).
double klDivergence(const GridPosterior& p, const GridPosterior& q);

} // namespace evx::wvo
