#include "bq/log_gp_bq.h"

#include "bq/kernel_means.h"
#include "core/errors.h"
#include "stats/densities.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace evx::bq {
namespace {

// m_exp = exp(m + V/2) uses at most this V. Under the log-GP the inflation is exact, but where
// V_logℓ is large (gaps between samples when log ℓ is far from the quadratic prior mean) e^{V/2}
// reaches 1e20 and swamps Z, and the linearisation behind V[Ẑ] assumes small V anyway. A cap
// of 4 (inflation ≤ e² ≈ 7.4) keeps Z_0 finite; the band still shows the full V_logℓ.
constexpr double kMaxInflationVariance = 4;
// log m_exp may exceed the largest observed log ℓ by at most this much (ℓ̄ ≤ e²·max ℓ seen). A
// quadratic prior mean fitted to a non-quadratic log ℓ (two modes) can extrapolate upwards
// between or beyond the samples; left alone this put Z at 1e15 on the two-mode integrand.
constexpr double kMaxAboveObserved = 2;

double cappedLogMexp(double m, double v, double cap)
{
    return std::min(m + 0.5 * std::min(v, kMaxInflationVariance), cap);
}
// Points of each of the two scouting grids that place the candidates.
constexpr int kScoutPoints = 61;
// ℓ·p below this fraction of its largest value contributes nothing double precision sees.
constexpr double kNegligible = 1e-14;
// Grid points of the trapezoid rule for V[Ẑ] (LogGpBq::gridMoments).
constexpr int kMinVariancePoints = 41;
constexpr int kMaxVariancePoints = 400;

} // namespace

LogGpBq::LogGpBq(const Eigen::MatrixXd& x, const Eigen::VectorXd& logL, const GaussianMeasure& p,
                 const gp::Kernel& logKernel, bool exactMoments)
    : m_exactMoments(exactMoments), m_p(p), m_q(LogMean::fit(x.col(0), logL)), m_log(logKernel, 0.0),
      m_lbar(gp::Kernel())
{
    if (x.cols() != 1 || p.dimension() != 1)
        throw InvalidParameter("log-GP BQ is implemented for one-dimensional integrals");
    if (logKernel.kind() != gp::KernelKind::Gaussian)
        throw InvalidParameter("log-GP BQ needs the Gaussian kernel (its integrals are closed form)");
    if (x.rows() < 1 || !logL.allFinite())
        throw NumericalError("log-GP BQ needs at least one sample with a finite log-likelihood");
    Eigen::VectorXd residual(logL.size());
    for (Eigen::Index i = 0; i < logL.size(); ++i)
        residual[i] = logL[i] - m_q(x(i, 0));
    m_log.setData(x, residual);

    // Scouting, in two passes: a coarse grid over the prior's ±6 sd and the samples finds where
    // ℓ·p has mass; a fine grid over that region measures how fast m_exp varies there.
    const double b = p.mean[0], s = std::sqrt(p.variance[0]);
    const double wLog = logKernel.lengthscales()[0];
    const double logCap = logL.maxCoeff() + kMaxAboveObserved;
    struct Scout {
        Eigen::MatrixXd grid;
        Eigen::VectorXd f, logWeight; // log m_exp and log(m_exp·p)
        double h = 0;
    };
    auto scout = [&](double lo, double hi, int q) {
        Scout sc;
        sc.h = (hi - lo) / (q - 1);
        sc.grid.resize(q, 1);
        for (int i = 0; i < q; ++i)
            sc.grid(i, 0) = lo + i * sc.h;
        Eigen::VectorXd mLog, vLog;
        predictLog(sc.grid, mLog, vLog);
        sc.f.resize(q);
        for (int i = 0; i < q; ++i)
            sc.f[i] = cappedLogMexp(mLog[i], vLog[i], logCap);
        sc.logWeight.resize(q);
        for (int i = 0; i < q; ++i)
            sc.logWeight[i] = sc.f[i] - 0.5 * std::pow(sc.grid(i, 0) - b, 2) / p.variance[0];
        return sc;
    };
    auto massRange = [&](const Scout& sc, int& first, int& last) {
        const double wMax = sc.logWeight.maxCoeff();
        first = int(sc.grid.rows());
        last = -1;
        for (int i = 0; i < sc.grid.rows(); ++i)
            if (sc.logWeight[i] - wMax > std::log(kNegligible)) {
                first = std::min(first, i);
                last = std::max(last, i);
            }
    };
    const Scout coarse =
        scout(std::min(b - 6 * s, x.minCoeff()), std::max(b + 6 * s, x.maxCoeff()), kScoutPoints);
    int first, last;
    massRange(coarse, first, last);
    const double fineLo = coarse.grid(std::max(first - 1, 0), 0);
    const double fineHi = coarse.grid(std::min(last + 1, int(coarse.grid.rows()) - 1), 0);
    const Scout fine = scout(fineLo, fineHi, kScoutPoints);
    m_shift = std::max({coarse.f.maxCoeff(), fine.f.maxCoeff(), logL.maxCoeff()});

    // The lengthscale of ℓ̄ follows how fast m_exp varies where ℓ·p has mass:
    // s_eff⁻² = E_w[f'² + |f''|] with w ∝ m_exp·p, which is the sd for a Gaussian-shaped ℓ
    // (f = −(x−μ)²/2σ² gives E[f'²] = |f''| = σ⁻² and s_eff = σ/√2). Bounded below by the
    // fine grid's resolution and above by the log-GP's own lengthscale.
    const double h = fine.h;
    const double wMax = fine.logWeight.maxCoeff();
    double sw = 0, sc = 0;
    for (int i = 1; i + 1 < fine.grid.rows(); ++i) {
        const double w = std::exp(fine.logWeight[i] - wMax);
        const double d1 = (fine.f[i + 1] - fine.f[i - 1]) / (2 * h);
        const double d2 = (fine.f[i + 1] - 2 * fine.f[i] + fine.f[i - 1]) / (h * h);
        sw += w;
        sc += w * (d1 * d1 + std::fabs(d2));
    }
    const double sEff = (sc > 0 && std::isfinite(sc) && sw > 0) ? std::sqrt(sw / sc) : wLog;
    const double wBar = std::min(std::max(sEff, h), std::max(wLog, h));
    massRange(fine, first, last);
    if (last < first) {
        first = 0;
        last = int(fine.grid.rows()) - 1;
    }
    const double cLo = fine.grid(first, 0) - 2 * wBar, cHi = fine.grid(last, 0) + 2 * wBar;

    // Candidates: every sample, plus a grid at spacing 0.6·wBar over where ℓ·p matters, leaving
    // out grid points within 0.35·wBar of a sample (nearly duplicate rows of K_ℓ).
    std::vector<double> cand(x.data(), x.data() + x.rows());
    const double spacing = 0.6 * wBar;
    for (double c = cLo; c <= cHi + 1e-12; c += spacing) {
        bool nearSample = false;
        for (Eigen::Index i = 0; i < x.rows() && !nearSample; ++i)
            nearSample = std::fabs(x(i, 0) - c) < 0.35 * wBar;
        if (!nearSample)
            cand.push_back(c);
    }
    Eigen::MatrixXd xc(Eigen::Index(cand.size()), 1);
    for (size_t i = 0; i < cand.size(); ++i)
        xc(Eigen::Index(i), 0) = cand[i];
    // At the samples the noise-free log-GP knows log ℓ (V_logℓ = 0): only the added grid
    // points need a prediction, which saves the O(n³) solve against the samples' own columns.
    const Eigen::Index ns = x.rows(), nc = xc.rows();
    Eigen::VectorXd mc, vc;
    predictLog(xc.bottomRows(nc - ns), mc, vc);
    Eigen::VectorXd mExp(nc);
    for (Eigen::Index i = 0; i < ns; ++i)
        mExp[i] = std::exp(std::min(logL[i], logCap) - m_shift);
    for (Eigen::Index i = ns; i < nc; ++i)
        mExp[i] = std::exp(cappedLogMexp(mc[i - ns], vc[i - ns], logCap) - m_shift);

    m_lbar =
        gp::GpRegression(gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, wBar)), 0.0);
    m_lbar.setData(xc, mExp);

    // Z_0 in closed form (see the header).
    const Eigen::VectorXd& beta = m_lbar.alpha();
    const double aL = wBar * wBar, bb = p.variance[0];
    Eigen::VectorXd c(nc);
    for (Eigen::Index i = 0; i < nc; ++i)
        c[i] = stats::normalPdfVar(xc(i, 0), b, aL + bb);
    m_z0 = beta.dot(c);
    gridMoments(cLo, cHi, std::min({wLog, wBar, s}), logCap);
}

void LogGpBq::gridMoments(double lo, double hi, double feature, double logCap)
{
    // V[Ẑ] = ∬ Cov_logℓ(x, x') u(x) u(x') dx dx' with u = ℓ̄·p, by the trapezoid rule on a
    // uniform grid G over [lo, hi] (where ℓ̄·p has mass, beyond it ℓ̄·p < 1e-14 of its peak):
    //   V = uᵀK(G, G)u − ‖L⁻¹K(X, G)u‖²,  u_j = h ℓ̄(x_j) p(x_j).
    // Not the closed form in ℓ̄'s weights β: K_ℓ at candidate spacing 0.6·w̄ is so ill conditioned
    // that |β| reaches 1e5–1e8, and the double sum Σ β_i β_j (…) then loses 1e-6 of its size to
    // rounding, swamping the difference (which came out negative and printed sd 0, or as random
    // noise). Here u is a smooth function known to rounding, the quadratic form is a variance
    // for any u, and its two terms differ by what the posterior leaves, not by rounding.
    // Spacing: half the narrowest feature (log-GP and ℓ̄ lengthscales, p's sd), where the
    // trapezoid rule on Gaussian-smooth integrands is exact to double precision; at most
    // kMaxVariancePoints points (a still smaller user lengthscale gets a coarser, conservative sum).
    const int points =
        std::clamp(int(std::ceil(2 * (hi - lo) / feature)) + 1, kMinVariancePoints, kMaxVariancePoints);
    const double h = (hi - lo) / (points - 1);
    Eigen::MatrixXd grid(points, 1);
    for (int j = 0; j < points; ++j)
        grid(j, 0) = lo + j * h;
    const Eigen::VectorXd lbar = m_lbar.predictMean(grid);
    const double b = m_p.mean[0], bb = m_p.variance[0];
    Eigen::VectorXd u(points), weight(points);
    for (int j = 0; j < points; ++j) {
        weight[j] = (j == 0 || j == points - 1 ? 0.5 : 1.0) * h * stats::normalPdfVar(grid(j, 0), b, bb);
        u[j] = weight[j] * lbar[j];
    }
    // K(G, G) is Toeplitz on the uniform grid: one kernel value per lag.
    const gp::Kernel& k = m_log.kernel();
    const double wLog = k.lengthscales()[0];
    std::vector<double> lagK;
    for (int d = 0; d < points; ++d) {
        const double kd = k.diagonal() * std::exp(-0.5 * std::pow(d * h / wLog, 2));
        if (kd == 0)
            break;
        lagK.push_back(kd);
    }
    double prior = 0;
    for (size_t d = 0; d < lagK.size(); ++d)
        prior += (d == 0 ? 1 : 2) * lagK[d] *
                 u.head(points - Eigen::Index(d)).dot(u.tail(points - Eigen::Index(d)));
    const Eigen::MatrixXd kxg = k.matrix(m_log.inputs(), grid);
    const Eigen::MatrixXd v = m_log.factor().solveL(kxg);
    const double explained = (v * u).squaredNorm();
    // Below this the difference is rounding (a few ulps per term summed): report that bound,
    // never 0, which would claim Z exactly.
    const double resolution = double(points + m_log.size()) * std::numeric_limits<double>::epsilon() *
                              (std::fabs(prior) + explained);
    m_linearised = std::max(prior - explained, resolution);

    // On the same grid: ∫ m_exp p dx, the integral ℓ̄ stands in for (1.10–1.11), so that
    // Z_0 − ∫ m_exp p measures the error of interpolating m_exp by ℓ̄; and the log-GP's exact
    // second moment, E[ℓ(x)ℓ(x')] = m_exp(x) m_exp(x') e^{Cov(x, x')} (log-normal), so that
    //   V_exact = ∬ m_exp(x) m_exp(x') (e^{Cov(x, x')} − 1) p(x) p(x') dx dx'
    // tells how far the linearisation (e^C − 1 ≈ C, ℓ̄ ≈ m_exp) is from the model it linearises
    // (on request only: the P × P matrix costs more than the rest of the model).
    const Eigen::VectorXd mean = (kxg.transpose() * m_log.alpha());
    const Eigen::ArrayXd var = (k.diagonal() - v.colwise().squaredNorm().transpose().array()).max(0.0);
    Eigen::VectorXd uExp(points);
    for (int j = 0; j < points; ++j)
        uExp[j] = weight[j] * std::exp(cappedLogMexp(mean[j] + m_q(grid(j, 0)), var[j], logCap) - m_shift);
    m_directZ = uExp.sum();
    if (!m_exactMoments)
        return;
    Eigen::MatrixXd cov = -v.transpose() * v;
    for (int i = 0; i < points; ++i)
        for (int j = 0; j < points; ++j) {
            const size_t lag = size_t(std::abs(i - j));
            cov(i, j) = std::expm1(
                std::min(cov(i, j) + (lag < lagK.size() ? lagK[lag] : 0.0), kMaxInflationVariance));
        }
    // As for the linearised form: below its rounding bound (K − VᵀV cancels to a few ulps of K
    // per entry) the number says nothing, and 0 stands for "not resolved".
    const double exact = uExp.dot(cov * uExp);
    const double bound = double(points + m_log.size()) * std::numeric_limits<double>::epsilon() *
                         k.diagonal() * std::pow(uExp.lpNorm<1>(), 2);
    m_exactVariance = exact > bound ? exact : 0.0;
}

LogMean LogMean::fit(const Eigen::VectorXd& x, const Eigen::VectorXd& logL)
{
    LogMean q;
    q.c0 = logL.size() ? logL.minCoeff() : 0.0;
    if (x.size() < 3)
        return q;
    // Least squares on centred, scaled x for conditioning; Eigen's column-pivoting QR.
    const double centre = x.mean();
    const double scale = std::max((x.array() - centre).abs().maxCoeff(), 1e-12);
    Eigen::MatrixXd a(x.size(), 3);
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double u = (x[i] - centre) / scale;
        a.row(i) << 1, u, u * u;
    }
    const Eigen::Vector3d c = a.colPivHouseholderQr().solve(logL);
    if (!(c[2] < 0) || !c.allFinite())
        return q;
    // Back to x: u = (x − centre)/scale.
    const double s2 = scale * scale;
    q.c2 = c[2] / s2;
    q.c1 = c[1] / scale - 2 * c[2] * centre / s2;
    q.c0 = c[0] - c[1] * centre / scale + c[2] * centre * centre / s2;
    // The concave quadratic levels off (smoothly, log(e^q + e^floor)) at the lowest observed
    // log ℓ. Bernstein–von Mises makes log ℓ quadratic near its mode, not far from it: a
    // parabola fitted to one mode says ℓ ≈ e⁻⁵⁰ wherever nothing was sampled, so V[Ẑ] (∝ ℓ̄²)
    // and the acquisition (∝ ℓ̄²) both ignored an unsampled second mode (two-mode, n = 20
    // active: Z off by 30 % with sd 1e-6 of Z). A floor 3 nats lower was tried: worse calibrated
    // on the peaked integrand (median |error|/sd 3.5 against 0.2 over a prior-mean sweep).
    q.floor = logL.minCoeff();
    return q;
}

void LogGpBq::predictLog(const Eigen::MatrixXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& variance) const
{
    m_log.predict(x, mean, variance);
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        mean[i] += m_q(x(i, 0));
}

ZEstimate LogGpBq::estimate() const
{
    const double e = std::exp(m_shift);
    return {m_z0 * e, varianceScaled() * e * e};
}

double LogGpBq::jitter() const
{
    return std::max(m_log.jitter(), m_lbar.jitter());
}

void LogGpBq::evaluate(const std::vector<double>& x, std::vector<double>& lbar,
                       std::vector<double>& vlog) const
{
    const Eigen::MatrixXd xs = Eigen::Map<const Eigen::MatrixXd>(x.data(), Eigen::Index(x.size()), 1);
    Eigen::VectorXd mm, mv;
    const Eigen::VectorXd lm = m_lbar.predictMean(xs);
    predictLog(xs, mm, mv);
    const double e = std::exp(m_shift);
    lbar.resize(x.size());
    vlog.resize(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        lbar[i] = lm[Eigen::Index(i)] * e;
        vlog[i] = mv[Eigen::Index(i)];
    }
}

std::vector<double> logGpAcquisition(const Eigen::VectorXd& mean, const Eigen::VectorXd& variance,
                                     double varianceFactor, const LogMean& q, const GaussianMeasure& p,
                                     const std::vector<double>& x, double shift)
{
    std::vector<double> a(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const auto k = Eigen::Index(i);
        const double v = variance[k] * varianceFactor;
        const double logMexp = cappedLogMexp(mean[k] + q(x[i]), v, shift + kMaxAboveObserved) - shift;
        a[i] = v * std::exp(2 * logMexp) * std::pow(p.density(&x[i]), 2);
    }
    return a;
}

std::vector<double> LogGpBq::acquisition(const std::vector<double>& x) const
{
    const Eigen::MatrixXd xs = Eigen::Map<const Eigen::MatrixXd>(x.data(), Eigen::Index(x.size()), 1);
    Eigen::VectorXd mm, mv;
    const Eigen::VectorXd lm = m_lbar.predictMean(xs);
    predictLog(xs, mm, mv);
    std::vector<double> a(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const double px = m_p.density(&x[i]);
        a[i] = mv[Eigen::Index(i)] * std::pow(lm[Eigen::Index(i)] * px, 2);
    }
    return a;
}

} // namespace evx::bq
