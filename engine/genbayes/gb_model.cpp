#include "genbayes/gb_model.h"

#include "stats/densities.h"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

namespace evx::genbayes {
namespace {

double uniform(std::mt19937_64& rng)
{
    // (0, 1) exclusive, so inverse CDFs stay finite.
    return (double(rng() >> 11) + 0.5) * 0x1.0p-53;
}

double standardNormal(std::mt19937_64& rng)
{
    // The truths' data only (Box–Muller, cosine branch); the models simulate by Φ⁻¹.
    const double u = uniform(rng), v = uniform(rng);
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * v);
}

// Φ⁻¹(u): one uniform a draw, so a stratified uniform stratifies the draw.
double normalQuantile(double u)
{
    return boost::math::quantile(boost::math::normal(), u);
}

double logPoisson(double k, double rate)
{
    if (rate <= 0)
        return k == 0 ? 0.0 : -INFINITY;
    return -rate + k * std::log(rate) - std::lgamma(k + 1);
}

int poissonQuantile(double u, double rate)
{
    double cdf = 0;
    for (int k = 0; k < 100000; ++k) {
        cdf += std::exp(logPoisson(k, rate));
        if (cdf >= u)
            return k;
    }
    return 100000;
}

// log N(residual; 0, exp(logVariance)) element-wise: stats::normalLogPdfVar's formula with the
// variance's log and inverse taken once for all points (13 million a 51³ grid).
Eigen::VectorXd logNormalDensities(const Eigen::ArrayXd& residuals, double logVariance)
{
    const double scale = -0.5 * std::exp(-logVariance), offset = -0.5 * logVariance - stats::kHalfLog2Pi;
    return (residuals.square() * scale + offset).matrix();
}

class PoissonModel final : public GbModel {
public:
    ParameterBox box() const override
    {
        return {
            {"lambda"}, {"λ"}, Eigen::VectorXd::Constant(1, 0.0), Eigen::VectorXd::Constant(1, 10.0), {1001}};
    }
    double logLikelihood(const Eigen::VectorXd& t, const Eigen::RowVectorXd& p) const override
    {
        return logPoisson(p(0), t(0));
    }
    Eigen::VectorXd logLikelihoods(const Eigen::VectorXd& t, const Points& points) const override
    {
        return points.col(0).unaryExpr([&](double x) { return logPoisson(x, t(0)); });
    }
    int uniformsPerDraw() const override { return 1; }
    Points simulateFromUniforms(const Eigen::VectorXd& t, const Eigen::MatrixXd& u) const override
    {
        Points out(u.rows(), 1);
        for (Eigen::Index i = 0; i < u.rows(); ++i)
            out(i, 0) = poissonQuantile(u(i, 0), t(0));
        return out;
    }
    Eigen::MatrixXd features(const Points& points, const Points&) const override { return points; }
    int featureCount() const override { return 1; }
};

class GaussianModel final : public GbModel {
public:
    ParameterBox box() const override
    {
        return {{"mu", "log_sigma2"},
                {"μ", "log σ²"},
                Eigen::Vector2d(-2, -3),
                Eigen::Vector2d(4, 3),
                {101, 101}};
    }
    double logLikelihood(const Eigen::VectorXd& t, const Eigen::RowVectorXd& p) const override
    {
        return stats::normalLogPdfVar(p(0), t(0), std::exp(t(1)));
    }
    Eigen::VectorXd logLikelihoods(const Eigen::VectorXd& t, const Points& points) const override
    {
        return logNormalDensities(points.col(0).array() - t(0), t(1));
    }
    int uniformsPerDraw() const override { return 1; }
    Points simulateFromUniforms(const Eigen::VectorXd& t, const Eigen::MatrixXd& u) const override
    {
        Points out(u.rows(), 1);
        const double sd = std::exp(0.5 * t(1));
        for (Eigen::Index i = 0; i < u.rows(); ++i)
            out(i, 0) = t(0) + sd * normalQuantile(u(i, 0));
        return out;
    }
    Eigen::MatrixXd features(const Points& points, const Points& observed) const override
    {
        const double mean = observed.col(0).mean();
        Eigen::MatrixXd f(points.rows(), 2);
        f.col(0) = points.col(0);
        f.col(1) = (points.col(0).array() - mean).abs();
        return f;
    }
    int featureCount() const override { return 2; }
};

class RegressionModel final : public GbModel {
public:
    ParameterBox box() const override
    {
        return {{"beta0", "beta1", "log_sigma2"},
                {"β₀", "β₁", "log σ²"},
                Eigen::Vector3d(-1, -2, -3),
                Eigen::Vector3d(1, 0, 1),
                {51, 51, 51}};
    }
    double logLikelihood(const Eigen::VectorXd& t, const Eigen::RowVectorXd& p) const override
    {
        return stats::normalLogPdfVar(p(1), t(0) + t(1) * p(0), std::exp(t(2)));
    }
    Eigen::VectorXd logLikelihoods(const Eigen::VectorXd& t, const Points& points) const override
    {
        return logNormalDensities(points.col(1).array() - t(0) - t(1) * points.col(0).array(), t(2));
    }
    int uniformsPerDraw() const override { return 2; } // x, then the noise
    Points simulateFromUniforms(const Eigen::VectorXd& t, const Eigen::MatrixXd& u) const override
    {
        Points out(u.rows(), 2);
        const double sd = std::exp(0.5 * t(2));
        for (Eigen::Index i = 0; i < u.rows(); ++i) {
            out(i, 0) = normalQuantile(u(i, 0));
            out(i, 1) = t(0) + t(1) * out(i, 0) + sd * normalQuantile(u(i, 1));
        }
        return out;
    }
    Eigen::MatrixXd features(const Points& points, const Points& observed) const override
    {
        const double xBar = observed.col(0).mean(), yBar = observed.col(1).mean();
        const double sy2 = (observed.col(1).array() - yBar).square().sum() / double(observed.rows() - 1);
        Eigen::MatrixXd f(points.rows(), 6);
        const Eigen::ArrayXd dx = points.col(0).array() - xBar, dy = points.col(1).array() - yBar;
        f.col(0) = points.col(1);
        f.col(1) = dy.square().matrix();
        f.col(2) = (dy.square().square() / (sy2 * sy2)).matrix();
        f.col(3) = points.col(0);
        f.col(4) = dx.square().matrix();
        f.col(5) = (dy * dx).matrix();
        return f;
    }
    int featureCount() const override { return 6; }
    // (x, r, r², x r, x²) with r = (y − β0 − β1 x)/σ at this θ. Against a normal-noise truth
    // y | x ~ N(a + b x, s²) the log-ratio is exactly quadratic in (x, r):
    //   log r(x, y) = −r²/2 − log σ + (σ r + β0 − a + (β1 − b) x)²/(2 s²) + log s,
    // and the simulations' r is N(0, 1) whatever θ, so the classifier's prior shrinks weights
    // of features with the same spread on both sides instead of one collinear combination.
    Eigen::MatrixXd residualFeatures(const Points& points, const Points&,
                                     const Eigen::VectorXd& t) const override
    {
        const Eigen::ArrayXd x = points.col(0).array();
        const Eigen::ArrayXd r = (points.col(1).array() - t(0) - t(1) * x) * std::exp(-0.5 * t(2));
        Eigen::MatrixXd f(points.rows(), 5);
        f.col(0) = x.matrix();
        f.col(1) = r.matrix();
        f.col(2) = r.square().matrix();
        f.col(3) = (x * r).matrix();
        f.col(4) = x.square().matrix();
        return f;
    }
};

} // namespace

Points GbModel::simulate(const Eigen::VectorXd& theta, int count, std::mt19937_64& rng) const
{
    return simulateFromUniforms(
        theta, simulationUniforms(count, uniformsPerDraw(), SimulationDesign::Independent, rng));
}

Eigen::MatrixXd simulationUniforms(int count, int columns, SimulationDesign design, std::mt19937_64& rng)
{
    Eigen::MatrixXd u(count, columns);
    if (design == SimulationDesign::Independent) {
        for (int i = 0; i < count; ++i) // row by row: a draw's uniforms are consecutive in rng
            for (int c = 0; c < columns; ++c)
                u(i, c) = uniform(rng);
        return u;
    }
    std::vector<int> stratum(static_cast<std::size_t>(count));
    for (int c = 0; c < columns; ++c) {
        std::iota(stratum.begin(), stratum.end(), 0);
        std::shuffle(stratum.begin(), stratum.end(), rng);
        for (int i = 0; i < count; ++i)
            u(i, c) = (stratum[std::size_t(i)] + uniform(rng)) / count;
    }
    return u;
}

Eigen::MatrixXd ParameterBox::grid() const
{
    const int d = dimension();
    Eigen::Index total = 1;
    for (int n : gridPoints)
        total *= n;
    Eigen::MatrixXd g(total, d);
    for (Eigen::Index row = 0; row < total; ++row) {
        Eigen::Index rest = row;
        for (int k = d - 1; k >= 0; --k) {
            const int n = gridPoints[std::size_t(k)];
            const Eigen::Index i = rest % n;
            rest /= n;
            g(row, k) = lower(k) + (upper(k) - lower(k)) * double(i) / (n - 1);
        }
    }
    return g;
}

std::unique_ptr<GbModel> poissonModel()
{
    return std::make_unique<PoissonModel>();
}
std::unique_ptr<GbModel> gaussianModel()
{
    return std::make_unique<GaussianModel>();
}
std::unique_ptr<GbModel> regressionModel()
{
    return std::make_unique<RegressionModel>();
}

Truth poissonTruth(double rate)
{
    return {[rate](int count, std::mt19937_64& rng) {
                Points out(count, 1);
                for (int i = 0; i < count; ++i)
                    out(i, 0) = poissonQuantile(uniform(rng), rate);
                return out;
            },
            [rate](const Eigen::RowVectorXd& p) { return logPoisson(p(0), rate); }, "Poisson"};
}

Truth negBinTruth(double size, double p)
{
    auto logPmf = [size, p](double k) {
        return std::lgamma(k + size) - std::lgamma(size) - std::lgamma(k + 1) + size * std::log(p) +
               k * std::log1p(-p);
    };
    return {[size, p](int count, std::mt19937_64& rng) {
                // A Gamma(size, (1 − p)/p) mixture of Poissons.
                std::gamma_distribution<double> gamma(size, (1 - p) / p);
                Points out(count, 1);
                for (int i = 0; i < count; ++i)
                    out(i, 0) = poissonQuantile(uniform(rng), gamma(rng));
                return out;
            },
            [logPmf](const Eigen::RowVectorXd& x) { return logPmf(x(0)); }, "negative binomial"};
}

Truth normalTruth(double loc, double scale)
{
    return {[loc, scale](int count, std::mt19937_64& rng) {
                Points out(count, 1);
                for (int i = 0; i < count; ++i)
                    out(i, 0) = loc + scale * standardNormal(rng);
                return out;
            },
            [loc, scale](const Eigen::RowVectorXd& x) { return stats::normalLogPdf(x(0), loc, scale); },
            "normal"};
}

Truth laplaceTruth(double loc, double scale)
{
    return {[loc, scale](int count, std::mt19937_64& rng) {
                Points out(count, 1);
                for (int i = 0; i < count; ++i) {
                    const double u = uniform(rng) - 0.5;
                    out(i, 0) = loc - scale * (u < 0 ? -1 : 1) * std::log1p(-2 * std::fabs(u));
                }
                return out;
            },
            [loc, scale](const Eigen::RowVectorXd& x) {
                return -std::fabs(x(0) - loc) / scale - std::log(2 * scale);
            },
            "Laplace"};
}

Truth regressionTruth(double beta0, double beta1, double scale, double dof)
{
    auto noise = [dof](std::mt19937_64& rng) {
        if (dof <= 0)
            return standardNormal(rng);
        return boost::math::quantile(boost::math::students_t(dof), uniform(rng));
    };
    auto logNoise = [dof](double e) {
        if (dof <= 0)
            return stats::normalLogPdf(e, 0, 1);
        return std::log(boost::math::pdf(boost::math::students_t(dof), e));
    };
    return {[=](int count, std::mt19937_64& rng) {
                Points out(count, 2);
                for (int i = 0; i < count; ++i) {
                    out(i, 0) = standardNormal(rng);
                    out(i, 1) = beta0 + beta1 * out(i, 0) + scale * noise(rng);
                }
                return out;
            },
            [=](const Eigen::RowVectorXd& p) {
                return logNoise((p(1) - beta0 - beta1 * p(0)) / scale) - std::log(scale);
            },
            dof > 0 ? "Student-t regression" : "normal regression"};
}

} // namespace evx::genbayes
