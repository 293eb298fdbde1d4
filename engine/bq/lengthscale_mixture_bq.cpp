#include "bq/lengthscale_mixture_bq.h"

#include "core/errors.h"

#include <algorithm>
#include <cmath>

namespace evx::bq {

LengthscaleMixtureBq::LengthscaleMixtureBq(const GaussianMeasure& p, double minLengthscale,
                                           double maxLengthscale, int gridPoints, double priorMean)
{
    if (!(minLengthscale > 0) || !(maxLengthscale >= minLengthscale) || gridPoints < 1 ||
        (gridPoints == 1) != (maxLengthscale == minLengthscale))
        throw InvalidParameter(
            "lengthscale mixture: needs 0 < min < max and two or more grid points, or min = max");
    const double l0 = std::log(minLengthscale), l1 = std::log(maxLengthscale);
    for (int j = 0; j < gridPoints; ++j) {
        m_w.push_back(gridPoints == 1 ? minLengthscale : std::exp(l0 + (l1 - l0) * j / (gridPoints - 1)));
        m_components.emplace_back(
            gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(p.dimension(), m_w.back())),
            p, true, priorMean);
    }
}

void LengthscaleMixtureBq::add(const Eigen::VectorXd& x, double y)
{
    for (auto& c : m_components)
        c.add(x, y);
}

int LengthscaleMixtureBq::size() const
{
    return m_components.front().gp().size();
}

double LengthscaleMixtureBq::logEvidence(const IncrementalBq& c) const
{
    const gp::GpRegression& g = c.gp();
    const Eigen::VectorXd r = (g.targets().array() - g.priorMean()).matrix();
    const double s = std::max(r.dot(g.alpha()), 1e-300);
    return -0.5 * g.factor().logDeterminant() - 0.5 * g.size() * std::log(s);
}

std::vector<double> LengthscaleMixtureBq::weights() const
{
    std::vector<double> logW(m_components.size());
    for (size_t j = 0; j < logW.size(); ++j)
        logW[j] = logEvidence(m_components[j]);
    const double top = *std::max_element(logW.begin(), logW.end());
    double sum = 0;
    for (double& v : logW) {
        // A component whose factor failed (NaN) carries no weight rather than poisoning the sum.
        v = std::isfinite(v) ? std::exp(v - top) : 0.0;
        sum += v;
    }
    for (double& v : logW)
        v /= sum;
    return logW;
}

double LengthscaleMixtureBq::studentFactor() const
{
    const int n = size();
    if (n < 3)
        throw NumericalError(
            "BQ with the output scale integrated out needs at least 3 samples for a variance");
    return double(n) / (n - 2);
}

ZEstimate LengthscaleMixtureBq::estimate() const
{
    const std::vector<double> w = weights();
    const double t = studentFactor();
    double m1 = 0, m2 = 0, within = 0;
    for (size_t j = 0; j < w.size(); ++j) {
        if (w[j] == 0)
            continue;
        const ZEstimate e = m_components[j].estimate();
        m1 += w[j] * e.mean;
        m2 += w[j] * (t * e.variance + e.mean * e.mean);
        within += w[j] * t * e.variance;
    }
    // The spread of the E_w is part of V[Z]; the subtraction can lose the last ulps of m1² and
    // go below the within-lengthscale part, which is a valid lower bound.
    return {m1, std::max(m2 - m1 * m1, within)};
}

void LengthscaleMixtureBq::predict(const Eigen::MatrixXd& xs, Eigen::VectorXd& mean,
                                   Eigen::VectorXd& variance) const
{
    const std::vector<double> w = weights();
    const double t = studentFactor(), top = *std::max_element(w.begin(), w.end());
    mean = Eigen::VectorXd::Zero(xs.rows());
    Eigen::VectorXd second = Eigen::VectorXd::Zero(xs.rows()), within = second;
    double used = 0;
    Eigen::VectorXd m, v;
    for (size_t j = 0; j < w.size(); ++j) {
        if (w[j] < kNegligibleWeight * top)
            continue;
        m_components[j].predict(xs, m, v);
        mean += w[j] * m;
        second += w[j] * (t * v + m.cwiseAbs2());
        within += w[j] * t * v;
        used += w[j];
    }
    mean /= used;
    variance = (second / used - mean.cwiseAbs2()).cwiseMax(within / used);
}

Eigen::VectorXd LengthscaleMixtureBq::varianceReduction(const Eigen::MatrixXd& xs) const
{
    const std::vector<double> w = weights();
    const double t = studentFactor(), top = *std::max_element(w.begin(), w.end());
    Eigen::VectorXd r = Eigen::VectorXd::Zero(xs.rows());
    for (size_t j = 0; j < w.size(); ++j)
        if (w[j] >= kNegligibleWeight * top)
            r += w[j] * t * m_components[j].varianceReduction(xs);
    return r;
}

double LengthscaleMixtureBq::posteriorMeanLogLengthscale() const
{
    const std::vector<double> w = weights();
    double s = 0;
    for (size_t j = 0; j < w.size(); ++j)
        s += w[j] * std::log(m_w[j]);
    return s;
}

double LengthscaleMixtureBq::jitter() const
{
    const std::vector<double> w = weights();
    const double top = *std::max_element(w.begin(), w.end());
    double j = 0;
    for (size_t k = 0; k < w.size(); ++k)
        if (w[k] >= kNegligibleWeight * top)
            j = std::max(j, m_components[k].gp().jitter());
    return j;
}

} // namespace evx::bq
