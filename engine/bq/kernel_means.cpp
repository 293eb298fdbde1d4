#include "bq/kernel_means.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <boost/math/quadrature/gauss_kronrod.hpp>

#include <cmath>

namespace evx::bq {
namespace {

using boost::math::quadrature::gauss_kronrod;

// Beyond ±12 sd of p the Gaussian weight is below 1e-31 of its peak.
constexpr double kReach = 12;

double maternMean1d(const gp::Kernel& k, double xn, const GaussianMeasure& p)
{
    const double b = p.mean[0], s = std::sqrt(p.variance[0]);
    const double lo = b - kReach * s, hi = b + kReach * s;
    auto f = [&](double x) { return k(&x, &xn) * stats::normalPdfVar(x, b, p.variance[0]); };
    double sum = 0;
    const double mid = std::clamp(xn, lo, hi);
    if (mid > lo)
        sum += gauss_kronrod<double, 31>::integrate(f, lo, mid, 10, 1e-12);
    if (hi > mid)
        sum += gauss_kronrod<double, 31>::integrate(f, mid, hi, 10, 1e-12);
    return sum;
}

void requireMatern1d(const gp::Kernel& k)
{
    if (k.dimension() != 1)
        throw InvalidParameter("Matérn-3/2 kernel means are computed numerically in one dimension only");
}

} // namespace

double kernelMean(const gp::Kernel& k, const double* x, const GaussianMeasure& p)
{
    if (k.kind() == gp::KernelKind::Gaussian) {
        double z = k.outputScale();
        for (int d = 0; d < p.dimension(); ++d)
            z *= stats::normalPdfVar(x[d], p.mean[d], std::pow(k.lengthscales()[d], 2) + p.variance[d]);
        return z;
    }
    requireMatern1d(k);
    return maternMean1d(k, x[0], p);
}

Eigen::VectorXd kernelMeans(const gp::Kernel& k, const Eigen::MatrixXd& x, const GaussianMeasure& p)
{
    Eigen::VectorXd z(x.rows());
    Eigen::VectorXd row(x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        row = x.row(i).transpose();
        z[i] = kernelMean(k, row.data(), p);
    }
    return z;
}

double priorVariance(const gp::Kernel& k, const GaussianMeasure& p)
{
    if (k.kind() == gp::KernelKind::Gaussian) {
        double v = k.outputScale();
        for (int d = 0; d < p.dimension(); ++d)
            v *= stats::normalPdfVar(0, 0, std::pow(k.lengthscales()[d], 2) + 2 * p.variance[d]);
        return v;
    }
    requireMatern1d(k);
    const double b = p.mean[0], s = std::sqrt(p.variance[0]);
    auto outer = [&](double x) { return maternMean1d(k, x, p) * stats::normalPdfVar(x, b, p.variance[0]); };
    return gauss_kronrod<double, 31>::integrate(outer, b - kReach * s, b, 8, 1e-10) +
           gauss_kronrod<double, 31>::integrate(outer, b, b + kReach * s, 8, 1e-10);
}

} // namespace evx::bq
