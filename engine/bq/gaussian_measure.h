#pragma once
// The integration measure p(x) = N(x | b, B) with diagonal B (BQ paper eq. 1.36).

#include <Eigen/Dense>

namespace evx::bq {

struct GaussianMeasure {
    Eigen::VectorXd mean;     // b
    Eigen::VectorXd variance; // diag B

    int dimension() const { return int(mean.size()); }
    double density(const double* x) const;
    static GaussianMeasure oneDimensional(double mean, double sd);
};

} // namespace evx::bq
