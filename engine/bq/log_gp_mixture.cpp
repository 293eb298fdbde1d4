#include "bq/log_gp_mixture.h"

#include "core/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace evx::bq {
namespace {

// Nodes closer than this ratio make one: the three LogGpBq would differ by rounding only.
constexpr double kMergeRatio = 1.1;

} // namespace

LogLengthscaleGrid::LogLengthscaleGrid(double minLengthscale, double maxLengthscale, int points)
{
    if (!(minLengthscale > 0) || !(maxLengthscale > minLengthscale) || points < 2)
        throw InvalidParameter("log-GP lengthscale grid: needs 0 < min < max and two or more points");
    const double l0 = std::log(minLengthscale), l1 = std::log(maxLengthscale);
    for (int j = 0; j < points; ++j) {
        m_logW.push_back(l0 + (l1 - l0) * j / (points - 1));
        m_kernels.emplace_back(gp::KernelKind::Gaussian, 1.0,
                               Eigen::VectorXd::Constant(1, std::exp(m_logW.back())));
    }
    m_factors.resize(m_kernels.size());
    m_x.resize(0, 1);
}

void LogLengthscaleGrid::add(double x)
{
    // The same factor GpRegression::addObservation grows (k(X, x), k(x, x)), without its weights.
    for (size_t j = 0; j < m_kernels.size(); ++j)
        m_factors[j].append(m_kernels[j].column(m_x, &x), m_kernels[j].diagonal());
    m_x.conservativeResize(m_x.rows() + 1, Eigen::NoChange);
    m_x(m_x.rows() - 1, 0) = x;
}

std::vector<double> LogLengthscaleGrid::posterior(const Eigen::VectorXd& r) const
{
    const double n = double(r.size());
    if (r.size() != m_x.rows())
        throw InvalidParameter("log-GP lengthscale grid: one residual per sample");
    std::vector<double> logPost(m_kernels.size());
    for (size_t j = 0; j < m_kernels.size(); ++j) {
        const double s = std::max(r.dot(m_factors[j].solve(r)), 1e-300);
        logPost[j] = -0.5 * m_factors[j].logDeterminant() - 0.5 * n * std::log(s);
    }
    const double top = *std::max_element(logPost.begin(), logPost.end());
    if (!std::isfinite(top))
        throw NumericalError("log-GP BQ: no lengthscale of the grid gives a usable kernel matrix");
    double sum = 0;
    for (double& v : logPost)
        sum += v = std::isfinite(v) ? std::exp(v - top) : 0.0;
    for (double& v : logPost)
        v /= sum;
    return logPost;
}

LogGpMixture::LogGpMixture(const Eigen::MatrixXd& x, const Eigen::VectorXd& logL, const GaussianMeasure& p,
                           const LogGpMixtureOptions& o, LogLengthscaleGrid* grid)
{
    if (!(o.minLengthscale > 0) || !(o.maxLengthscale >= o.minLengthscale))
        throw InvalidParameter("log-GP mixture: needs 0 < min ≤ max lengthscale");
    const Eigen::Index n = x.rows();
    const LogMean q = LogMean::fit(x.col(0), logL);
    Eigen::VectorXd r(n);
    for (Eigen::Index i = 0; i < n; ++i)
        r[i] = logL[i] - q(x(i, 0));
    auto unitGp = [&](double w) {
        gp::GpRegression g(gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, w)), 0.0);
        g.setData(x, r);
        return g;
    };

    if (o.maxLengthscale == o.minLengthscale) {
        m_nodes = {o.minLengthscale};
    } else {
        std::optional<LogLengthscaleGrid> own;
        if (!grid) {
            own.emplace(o.minLengthscale, o.maxLengthscale, o.gridPoints);
            for (Eigen::Index i = 0; i < n; ++i)
                own->add(x(i, 0));
            grid = &*own;
        }
        const std::vector<double> mass = grid->posterior(r);
        const std::vector<double>& logW = grid->logLengthscales();
        const size_t g = mass.size();
        m_lowerShare = mass.front();
        m_upperShare = mass.back();
        // Quantiles of log w, each grid value's mass spread evenly over the cell below it.
        auto quantile = [&](double tau) {
            double below = 0;
            for (size_t j = 0; j < g; ++j) {
                if (below + mass[j] >= tau) {
                    if (j == 0)
                        return logW[0];
                    return logW[j - 1] + (tau - below) / mass[j] * (logW[j] - logW[j - 1]);
                }
                below += mass[j];
            }
            return logW.back();
        };
        const double central = o.centralLengthscale > 0 ? o.centralLengthscale : std::exp(quantile(0.5));
        m_nodes = {std::exp(quantile(1.0 / 6)), central, std::exp(quantile(5.0 / 6))};
        if (m_nodes.back() < kMergeRatio * m_nodes.front())
            m_nodes = {central};
    }
    const double student = n > 2 ? double(n) / double(n - 2) : 1.0;
    for (size_t k = 0; k < m_nodes.size(); ++k) {
        const double w = m_nodes[k];
        const double h = std::max(unitGp(w).profiledOutputScale() * student, o.minOutputScale * w);
        m_models.push_back(std::make_unique<LogGpBq>(
            x, logL, p, gp::Kernel(gp::KernelKind::Gaussian, h, Eigen::VectorXd::Constant(1, w)),
            o.exactMoments && k == m_nodes.size() / 2));
    }
}

ZEstimate LogGpMixture::estimate() const
{
    // About the central node's Z: E[(Z − E_c)²] = Σ_k (V_k + (E_k − E_c)²)/3, the mixture's
    // variance plus its mean's distance from the reported estimate.
    const double centre = central().estimate().mean;
    double v = 0;
    for (const auto& m : m_models) {
        const ZEstimate e = m->estimate();
        v += (e.variance + (e.mean - centre) * (e.mean - centre)) / double(m_models.size());
    }
    return {centre, v};
}

ZEstimate LogGpMixture::linearisedEstimate() const
{
    const LogGpBq& m = central();
    const double e = std::exp(m.logShift());
    return {m.z0Scaled() * e, m.linearisedVarianceScaled() * e * e};
}

double LogGpMixture::exactVariance() const
{
    return central().exactVarianceScaled() * std::exp(2 * central().logShift());
}

void LogGpMixture::evaluate(const std::vector<double>& x, std::vector<double>& mean,
                            std::vector<double>& variance) const
{
    mean.assign(x.size(), 0.0);
    std::vector<double> second(x.size(), 0.0), within(x.size(), 0.0), lbar, vlog;
    const double k = double(m_models.size());
    for (const auto& m : m_models) {
        m->evaluate(x, lbar, vlog);
        for (size_t i = 0; i < x.size(); ++i) {
            const double v = vlog[i] * lbar[i] * lbar[i];
            mean[i] += lbar[i] / k;
            second[i] += (v + lbar[i] * lbar[i]) / k;
            within[i] += v / k;
        }
    }
    variance.resize(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        variance[i] = std::max(second[i] - mean[i] * mean[i], within[i]);
}

double LogGpMixture::jitter() const
{
    double j = 0;
    for (const auto& m : m_models)
        j = std::max(j, m->jitter());
    return j;
}

} // namespace evx::bq
