#include "bq/bayes_quadrature.h"

#include "bq/kernel_means.h"

#include <cmath>

namespace evx::bq {

double ZEstimate::sd() const
{
    return std::sqrt(std::max(variance, 0.0));
}

ZEstimate bqEstimate(const gp::GpRegression& gp, const GaussianMeasure& p)
{
    const double vPrior = priorVariance(gp.kernel(), p);
    if (gp.size() == 0)
        return {gp.priorMean(), vPrior};
    const Eigen::VectorXd z = kernelMeans(gp.kernel(), gp.inputs(), p);
    const Eigen::VectorXd a = gp.factor().solveL(z);
    return {gp.priorMean() + z.dot(gp.alpha()), std::max(0.0, vPrior - a.squaredNorm())};
}

IncrementalBq::IncrementalBq(const gp::Kernel& kernel, GaussianMeasure p, bool integrateOutputScale,
                             double priorMean)
    : m_gp(kernel, priorMean), m_p(std::move(p)), m_integrate(integrateOutputScale)
{
    if (m_integrate) {
        gp::Kernel unit = kernel;
        unit.setOutputScale(1);
        m_gp = gp::GpRegression(unit, priorMean);
    }
    m_priorVariance = priorVariance(m_gp.kernel(), m_p);
}

void IncrementalBq::add(const Eigen::VectorXd& x, double y)
{
    m_gp.addObservation(x, y);
    m_z.conservativeResize(m_z.size() + 1);
    m_z[m_z.size() - 1] = kernelMean(m_gp.kernel(), x.data(), m_p);
}

void IncrementalBq::expectSamples(int n)
{
    m_expectedSamples = n;
    m_gp.reserve(n);
    if (m_grid)
        m_grid->reserve(n);
}

void IncrementalBq::setData(const Eigen::MatrixXd& x, const Eigen::VectorXd& y)
{
    m_gp.setData(x, y);
    m_z = x.rows() > 0 ? kernelMeans(m_gp.kernel(), x, m_p) : Eigen::VectorXd();
    m_whitenedMeans.reset();
    m_whitenedResidual.reset();
}

void IncrementalBq::setKernelAndData(const gp::Kernel& kernel, const Eigen::MatrixXd& x,
                                     const Eigen::VectorXd& y)
{
    gp::Kernel k = kernel;
    if (m_integrate)
        k.setOutputScale(1);
    m_gp = gp::GpRegression(k, m_gp.priorMean());
    m_gp.reserve(m_expectedSamples);
    m_priorVariance = priorVariance(m_gp.kernel(), m_p);
    setData(x, y);
    // The grid's V is recomputed in place on the next use (the new factor's revision differs).
    if (m_grid)
        m_gridMeans = kernelMeans(m_gp.kernel(), m_grid->points(), m_p);
    m_gridCovered.reset();
}

double IncrementalBq::outputScale() const
{
    if (!m_integrate)
        return m_gp.kernel().outputScale();
    if (m_gp.size() == 0)
        return 1.0;
    // GpRegression::profiledOutputScale's ĥ, from the whitened residual kept here.
    const Eigen::VectorXd r = m_gp.targets().array() - m_gp.priorMean();
    const double rKr = m_whitenedResidual.update(m_gp.factor(), r).squaredNorm();
    return std::max(m_gp.kernel().outputScale() * rKr / m_gp.size(), 1e-300);
}

double IncrementalBq::varianceFactor() const
{
    // With h integrated out the GP runs at h = 1 and variances scale by ĥ; otherwise h is
    // already inside K, z and V_prior.
    return m_integrate ? outputScale() : 1.0;
}

ZEstimate IncrementalBq::estimate() const
{
    if (m_gp.size() == 0)
        return {m_gp.priorMean(), varianceFactor() * m_priorVariance};
    const Eigen::VectorXd& a = m_whitenedMeans.update(m_gp.factor(), m_z);
    return {m_gp.priorMean() + m_z.dot(m_gp.alpha()),
            varianceFactor() * std::max(0.0, m_priorVariance - a.squaredNorm())};
}

Eigen::VectorXd IncrementalBq::varianceReduction(const Eigen::MatrixXd& xs) const
{
    if (!m_grid || m_grid->points().rows() != xs.rows() || m_grid->points().cols() != xs.cols() ||
        m_grid->points() != xs) {
        m_grid.emplace(xs);
        m_grid->reserve(m_expectedSamples);
        m_gridMeans = kernelMeans(m_gp.kernel(), xs, m_p);
        m_gridCovered.reset();
    }
    const Eigen::VectorXd& zs = m_gridMeans;
    const double kss = m_gp.kernel().diagonal();
    if (m_gp.size() == 0)
        return varianceFactor() * zs.array().square() / kss;
    m_grid->update(m_gp);
    const auto vt = m_grid->whitenedTransposed();
    const Eigen::VectorXd& a = m_whitenedMeans.update(m_gp.factor(), m_z);
    const int from = m_gridCovered.firstNew(m_gp.factor());
    if (from == 0) {
        m_gridProjection = vt * a;
        m_gridNorms = vt.rowwise().squaredNorm();
    } else {
        for (int j = from; j < m_gp.size(); ++j) {
            m_gridProjection += a[j] * vt.col(j);
            m_gridNorms.array() += vt.col(j).array().square();
        }
    }
    m_gridCovered.cover(m_gp.factor());
    const Eigen::ArrayXd num = (zs - m_gridProjection).array().square();
    const Eigen::ArrayXd var = kss - m_gridNorms.array();
    // Where the GP already knows ℓ (at a sample, var ≈ 0 up to rounding) a sample adds
    // nothing; the ratio of two rounding errors there must not win the arg max.
    const double floor = 1e-8 * kss;
    return varianceFactor() * (var > floor).select(num / var.max(floor), 0.0).matrix();
}

void IncrementalBq::predict(const Eigen::MatrixXd& xs, Eigen::VectorXd& mean, Eigen::VectorXd& variance) const
{
    m_gp.predict(xs, mean, variance);
    variance *= varianceFactor();
}

} // namespace evx::bq
