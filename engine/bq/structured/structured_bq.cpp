#include "bq/structured/structured_bq.h"

#include "core/errors.h"
#include "gp/checked_cholesky.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>

namespace evx::bq::structured {
namespace {
// Grid points whose weight is below this share of the largest cannot move the mixture; they
// do not count towards the jitter reported.
constexpr double kNegligibleWeight = 1e-9;
// Grid points below e^{-40} ≈ 4e-18 of the largest weight are skipped: they cannot move E or V.
constexpr double kLogNegligibleWeight = -40;

// A factor of the leading n × n block of K and what the estimates need from it: ζ = L⁻¹z.
struct FactorView {
    Eigen::Ref<const Eigen::MatrixXd> l; // n × n, lower triangle used
    Eigen::Ref<const Eigen::VectorXd> zeta;
    double jitter;
};

struct GridResult {
    double logWeight = -std::numeric_limits<double>::infinity();
    double mean = 0;
    double variance = 0;
    double jitter = 0;
};

double logDeterminant(const Eigen::Ref<const Eigen::MatrixXd>& l)
{
    return 2 * l.diagonal().array().log().sum();
}

// log p(y | K) up to a constant with the output scale integrated out, β = L⁻¹y:
// −½ log|K| − (n/2) log ‖β‖².
double logMarginal(const Eigen::Ref<const Eigen::MatrixXd>& l, const Eigen::VectorXd& beta)
{
    return -0.5 * logDeterminant(l) -
           0.5 * double(beta.size()) * std::log(std::max(beta.squaredNorm(), 1e-300));
}
} // namespace

struct StructuredBq::Factor {
    bool ok = false;
    Eigen::MatrixXd l; // the factor of the full S × S matrix
    Eigen::VectorXd zeta;
    double jitter = 0;
    // Factors of leading blocks, made only when the full factor needed jitter: its leading block
    // then factors K_n + jitter·I, not what a StructuredBq on the first n samples would use.
    mutable std::mutex prefixMutex;
    mutable std::map<int, std::shared_ptr<const Factor>> prefixes;

    static std::shared_ptr<const Factor> make(const Eigen::MatrixXd& k, const Eigen::VectorXd& z);
};

std::shared_ptr<const StructuredBq::Factor> StructuredBq::Factor::make(const Eigen::MatrixXd& k,
                                                                       const Eigen::VectorXd& z)
{
    auto f = std::make_shared<Factor>();
    gp::CheckedCholesky chol;
    try {
        chol.compute(k);
    } catch (const NumericalError&) {
        return f; // carries no weight; the constructor refuses a grid of such points only
    }
    f->ok = true;
    f->l = chol.matrixL();
    f->jitter = chol.jitter();
    f->zeta = f->l.triangularView<Eigen::Lower>().solve(z);
    return f;
}

double StructuredEstimate::sd() const
{
    return std::sqrt(std::max(variance, 0.0));
}

double StructuredEstimate::logMean() const
{
    return mean > 0 ? logScale + std::log(mean) : std::numeric_limits<double>::quiet_NaN();
}

StructuredBq::StructuredBq(std::vector<GramSet> grid, Transform transform)
    : m_grid(std::move(grid)), m_transform(transform)
{
    if (m_grid.empty())
        throw InvalidParameter("structured BQ: the hyperparameter grid is empty");
    const Eigen::Index s = m_grid.front().k.rows();
    if (s < 3)
        throw InvalidParameter("structured BQ needs at least 3 samples");
    for (const GramSet& g : m_grid) {
        if (g.k.rows() != s || g.k.cols() != s || g.z.size() != s)
            throw InvalidParameter("structured BQ: every kernel matrix must be S × S with z of length S");
        if (!g.k.allFinite() || !g.z.allFinite() || !std::isfinite(g.v))
            throw InvalidParameter("structured BQ: a kernel matrix, z or V is not finite");
        if (transform == Transform::Wsabi) {
            const Eigen::Index m = g.kDraws.cols(), mv = g.kDrawsDraws.rows();
            if (g.kDraws.rows() != s || m == 0 || g.drawWeights.size() != m || mv == 0 ||
                g.kDrawsDraws.cols() != mv || mv > m)
                throw InvalidParameter(
                    "structured BQ: WSABI-L needs k(X, draws), k(draws, draws) and the draws' weights");
        }
    }
    for (const GramSet& g : m_grid)
        m_factors.push_back(Factor::make(g.k, g.z));
    if (std::none_of(m_factors.begin(), m_factors.end(), [](const auto& f) { return f->ok; }))
        throw NumericalError("structured BQ: no kernel matrix of the grid could be factored");
}

int StructuredBq::samples() const
{
    return int(m_grid.front().k.rows());
}

namespace {
// GP on y (h integrated out), β = L⁻¹y: E = ζᵀβ, V = (‖β‖²/n)(v − ‖ζ‖²)·n/(n − 2).
GridResult gpOnF(const FactorView& f, const Eigen::VectorXd& beta, double v)
{
    const int n = int(beta.size());
    GridResult r;
    r.mean = f.zeta.dot(beta);
    r.variance = beta.squaredNorm() / (n - 2) * std::max(v - f.zeta.squaredNorm(), 0.0);
    r.jitter = f.jitter;
    return r;
}

// WSABI-L, β = L⁻¹f̃: m̃ = k(draws, X) K⁻¹ f̃, E = a + ½ Σ W m̃², V = (‖β‖²/(n − 2)) uᵀC₁u with
// u = W∘m̃ over the draws kDrawsDraws covers (their weights scaled up to all the draws' mass).
GridResult wsabi(const FactorView& f, const Eigen::VectorXd& beta, double a, const GramSet& g)
{
    const int n = int(beta.size());
    const auto lower = f.l.triangularView<Eigen::Lower>();
    const Eigen::VectorXd alpha = lower.transpose().solve(beta);
    const auto kx = g.kDraws.topRows(n);
    const Eigen::VectorXd mt = kx.transpose() * alpha;
    GridResult r;
    r.mean = a + 0.5 * g.drawWeights.dot(mt.cwiseAbs2());
    const Eigen::Index mv = g.kDrawsDraws.rows();
    const double covered = g.drawWeights.head(mv).sum();
    const Eigen::VectorXd u =
        g.drawWeights.head(mv).cwiseProduct(mt.head(mv)) * (g.drawWeights.sum() / covered);
    const Eigen::VectorXd ku = lower.solve(kx.leftCols(mv) * u);
    const double quad = u.dot(g.kDrawsDraws * u) - ku.squaredNorm();
    r.variance = beta.squaredNorm() / (n - 2) * std::max(quad, 0.0);
    if (g.monteCarloDraws) {
        const Eigen::ArrayXd h = 0.5 * mt.array().square();
        const double mean = (g.drawWeights.array() * h).sum() / g.drawWeights.sum();
        r.variance += (g.drawWeights.array().square() * (h - mean).square()).sum();
    }
    r.jitter = f.jitter;
    return r;
}
} // namespace

StructuredEstimate StructuredBq::estimate(const Eigen::VectorXd& logF) const
{
    const int n = int(logF.size());
    if (n < 3 || n > samples())
        throw InvalidParameter("structured BQ: needs 3 to " + std::to_string(samples()) +
                               " likelihood values, got " + std::to_string(n));
    if (logF.array().isNaN().any() || (logF.array() == std::numeric_limits<double>::infinity()).any())
        throw InvalidParameter("structured BQ: a log-likelihood value is NaN or +infinity");
    StructuredEstimate e;
    e.logScale = logF.maxCoeff();
    if (!std::isfinite(e.logScale))
        throw NumericalError("structured BQ: every sample has likelihood zero");
    const Eigen::VectorXd y = (logF.array() - e.logScale).exp().matrix();

    // The marginal likelihoods first (one solve each): WSABI-L's integrals over the draws are
    // the expensive part, and only grid points that carry weight need them.
    std::vector<const Factor*> factors(m_grid.size(), nullptr);
    std::vector<double> logWeights(m_grid.size(), -std::numeric_limits<double>::infinity());
    std::vector<Eigen::VectorXd> betas(m_grid.size());
    // WSABI-L's GP models f̃ = √(2(y − a)), a = 0.8 min y.
    const double a = 0.8 * y.minCoeff();
    const Eigen::VectorXd target = m_transform == Transform::None ? y : (2 * (y.array() - a)).sqrt().matrix();
    double top = -std::numeric_limits<double>::infinity();
    for (size_t j = 0; j < m_grid.size(); ++j) {
        const Factor* f = m_factors[j].get();
        if (!f->ok)
            continue;
        if (n < samples() && f->jitter > 0) {
            std::lock_guard<std::mutex> lock(f->prefixMutex);
            auto& p = f->prefixes[n];
            if (!p)
                p = Factor::make(m_grid[j].k.topLeftCorner(n, n), m_grid[j].z.head(n));
            f = p.get();
            if (!f->ok)
                continue;
        }
        factors[j] = f;
        const auto l = f->l.topLeftCorner(n, n);
        betas[j] = l.triangularView<Eigen::Lower>().solve(target);
        logWeights[j] = logMarginal(l, betas[j]);
        top = std::max(top, logWeights[j]);
    }
    if (!std::isfinite(top))
        throw NumericalError("structured BQ: no grid point has a finite marginal likelihood");

    std::vector<GridResult> results(m_grid.size());
    for (size_t j = 0; j < m_grid.size(); ++j) {
        if (!factors[j] || !(logWeights[j] - top > kLogNegligibleWeight))
            continue;
        const Factor* f = factors[j];
        const FactorView view{f->l.topLeftCorner(n, n), f->zeta.head(n), f->jitter};
        results[j] = m_transform == Transform::None ? gpOnF(view, betas[j], m_grid[j].v)
                                                    : wsabi(view, betas[j], a, m_grid[j]);
        results[j].logWeight = logWeights[j];
    }

    e.weights.assign(results.size(), 0.0);
    double sum = 0;
    for (size_t j = 0; j < results.size(); ++j) {
        e.weights[j] = std::isfinite(results[j].logWeight) ? std::exp(results[j].logWeight - top) : 0.0;
        sum += e.weights[j];
    }
    double m1 = 0, m2 = 0, within = 0;
    for (size_t j = 0; j < results.size(); ++j) {
        const double w = (e.weights[j] /= sum);
        if (w == 0)
            continue;
        m1 += w * results[j].mean;
        m2 += w * (results[j].variance + results[j].mean * results[j].mean);
        within += w * results[j].variance;
        if (w >= kNegligibleWeight)
            e.jitter = std::max(e.jitter, results[j].jitter);
    }
    e.mean = m1;
    // m2 − m1² can lose the last ulps and dip below the within-set part, a valid lower bound.
    e.variance = std::max(m2 - m1 * m1, within);
    return e;
}

} // namespace evx::bq::structured
