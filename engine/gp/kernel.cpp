#include "gp/kernel.h"

#include "stats/densities.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace evx::gp {
namespace {
constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kSqrt5 = 2.23606797749979;
// Grids shorter than this are not worth the bookkeeping below.
constexpr Eigen::Index kMinGridPoints = 16;
// Columns per exact anchor in gaussianToGrid: k multiplications from an anchor cost ~k²/2 ulps
// (1e-14 at 8), the order of the exponential's own argument rounding.
constexpr Eigen::Index kGridBlock = 8;

// Whether the rows of a one-column g are lo + j·h to rounding (plotting, scouting and
// acquisition grids are built that way).
bool uniformGrid(const Eigen::MatrixXd& g, double& lo, double& h)
{
    const Eigen::Index m = g.rows();
    if (g.cols() != 1 || m < kMinGridPoints)
        return false;
    lo = g(0, 0);
    const double hi = g(m - 1, 0);
    h = (hi - lo) / double(m - 1);
    if (!(h > 0) || !std::isfinite(hi - lo))
        return false;
    const double tol =
        8 * std::numeric_limits<double>::epsilon() * (std::fabs(lo) + std::fabs(hi) + (hi - lo));
    for (Eigen::Index j = 1; j + 1 < m; ++j)
        if (!(std::fabs(g(j, 0) - (lo + double(j) * h)) <= tol))
            return false;
    return true;
}

// Whether the rows of a two-column g are the product of two uniform grids, x fastest: row
// iy·kx + ix is (loX + ix·hX, loY + iy·hY), as acquisition and map grids over a box are built.
struct ProductGrid {
    double loX = 0, hX = 0, loY = 0, hY = 0;
    Eigen::Index kx = 0, ky = 0;
};
bool productGrid(const Eigen::MatrixXd& g, ProductGrid& p)
{
    const Eigen::Index m = g.rows();
    if (g.cols() != 2 || m < kMinGridPoints * kMinGridPoints)
        return false;
    p.kx = 1;
    while (p.kx < m && g(p.kx, 1) == g(0, 1))
        ++p.kx;
    if (p.kx < kMinGridPoints || m % p.kx != 0)
        return false;
    p.ky = m / p.kx;
    const Eigen::MatrixXd xs = g.col(0).head(p.kx);
    Eigen::MatrixXd ys(p.ky, 1);
    for (Eigen::Index iy = 0; iy < p.ky; ++iy)
        ys(iy, 0) = g(iy * p.kx, 1);
    if (!uniformGrid(xs, p.loX, p.hX) || !uniformGrid(ys, p.loY, p.hY))
        return false;
    // Row by row, without r % kx and r / kx: two integer divisions per grid point, and this check
    // runs for every sample an active run appends to its acquisition grid.
    for (Eigen::Index iy = 0, r = 0; iy < p.ky; ++iy)
        for (Eigen::Index ix = 0; ix < p.kx; ++ix, ++r)
            if (g(r, 0) != xs(ix, 0) || g(r, 1) != ys(iy, 0))
                return false;
    return true;
}

// exp(−t_j²/2) with t_j = (x_i − lo − j h)/w, the Gaussian kernel against a uniform grid,
// mostly without exponentials: e_{j+1} = e_j·r_j with r_j = exp(t_j δ − δ²/2), δ = h/w, and
// r_{j+1} = r_j·exp(−δ²). Exponentials (Eigen's, vectorised over the points) only at the first
// column of each block of kGridBlock; a row whose anchor underflows or whose ratio overflows
// (far from the grid, coarse grid) gets its block by direct exponentials.
Eigen::MatrixXd gaussianToGrid(const Eigen::VectorXd& x, double lo, double h, Eigen::Index m, double w)
{
    const Eigen::Index n = x.size();
    const double delta = h / w, stepRatio = std::exp(-delta * delta);
    Eigen::MatrixXd k(n, m);
    Eigen::ArrayXd t(n), r(n), r0(n);
    for (Eigen::Index j0 = 0; j0 < m; j0 += kGridBlock) {
        const Eigen::Index end = std::min(j0 + kGridBlock, m);
        t = (x.array() - (lo + double(j0) * h)) / w;
        k.col(j0) = (-0.5 * t.square()).exp().matrix();
        r0 = (delta * t - 0.5 * delta * delta).exp();
        r = r0;
        for (Eigen::Index j = j0 + 1; j < end; ++j) {
            k.col(j).array() = k.col(j - 1).array() * r;
            r *= stepRatio;
        }
        for (Eigen::Index i = 0; i < n; ++i) {
            if (k(i, j0) > 1e-280 && r0[i] < 1e280)
                continue;
            // A point whose whole block lies beyond 37.5 lengthscales (entries below 1e-305 of
            // the diagonal) gets zeros without calling exp, whose subnormal and underflow path in
            // glibc is slow; the rest exact exponentials.
            const double nearest = std::clamp(x[i], lo + double(j0) * h, lo + double(end - 1) * h);
            const bool zero = std::fabs(x[i] - nearest) > 37.5 * w;
            for (Eigen::Index j = j0 + 1; j < end; ++j)
                k(i, j) = zero ? 0.0 : std::exp(-0.5 * std::pow((x[i] - (lo + double(j) * h)) / w, 2));
        }
    }
    return k;
}

// Σ_d ((a_id − b_jd)/w_d)² for every row pair, one vectorised column at a time. The axes are
// scaled before the difference (a/w − b/w): a rounding of the argument, no more.
Eigen::ArrayXXd squaredScaledDistances(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
                                       const Eigen::VectorXd& w)
{
    Eigen::ArrayXXd r2(a.rows(), b.rows());
    for (Eigen::Index d = 0; d < w.size(); ++d) {
        const Eigen::ArrayXd ad = a.col(d).array() / w[d], bd = b.col(d).array() / w[d];
        for (Eigen::Index j = 0; j < b.rows(); ++j) {
            if (d == 0)
                r2.col(j) = (ad - bd[j]).square();
            else
                r2.col(j) += (ad - bd[j]).square();
        }
    }
    return r2;
}

// The Matérn kernels from r², in place, by Eigen's packet sqrt and exp: glibc's scalar exp and a
// sqrt per entry were three tenths of a generalised-Bayes run (every refit of its surface GP and every
// UCB prediction over 1001 candidates). The values go through a buffer of whole packets, so that
// no entry falls to Eigen's scalar tail (std::exp, another rounding): the same r² gives the same
// bits wherever it sits, and a column appended to a growing factor equals the full matrix's.
void maternFromSquaredDistances(Eigen::ArrayXXd& values, KernelKind kind, double h)
{
    constexpr Eigen::Index packet = Eigen::internal::packet_traits<double>::size;
    const Eigen::Index size = values.size(), padded = (size + packet - 1) / packet * packet;
    Eigen::ArrayXd s(padded);
    s.head(size) = Eigen::Map<const Eigen::ArrayXd>(values.data(), size);
    s.tail(padded - size).setZero();
    if (kind == KernelKind::Matern52) {
        s = kSqrt5 * s.sqrt();
        s = h * (1 + s + s.square() / 3) * (-s).exp();
    } else {
        s = kSqrt3 * s.sqrt();
        s = h * (1 + s) * (-s).exp();
    }
    Eigen::Map<Eigen::ArrayXd>(values.data(), size) = s.head(size);
}

} // namespace

Kernel::Kernel(KernelKind kind, double outputScale, Eigen::VectorXd lengthscales)
    : m_kind(kind), m_h(outputScale), m_w(std::move(lengthscales))
{
    if (!(m_h > 0) || m_w.size() < 1 || !(m_w.minCoeff() > 0))
        throw std::invalid_argument("kernel: output scale and lengthscales must be positive");
}

double Kernel::diagonal() const
{
    if (m_kind != KernelKind::Gaussian)
        return m_h;
    double norm = m_h;
    for (int d = 0; d < m_w.size(); ++d)
        norm /= stats::kSqrt2Pi * m_w[d];
    return norm;
}

double Kernel::operator()(const double* x, const double* y) const
{
    double r2 = 0;
    for (int d = 0; d < m_w.size(); ++d) {
        const double u = (x[d] - y[d]) / m_w[d];
        r2 += u * u;
    }
    if (m_kind == KernelKind::Gaussian)
        return diagonal() * std::exp(-0.5 * r2);
    if (m_kind == KernelKind::Matern52) {
        const double s = kSqrt5 * std::sqrt(r2);
        return m_h * (1 + s + s * s / 3) * std::exp(-s);
    }
    const double s = kSqrt3 * std::sqrt(r2);
    return m_h * (1 + s) * std::exp(-s);
}

Eigen::MatrixXd Kernel::matrix(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) const
{
    // Row-major copies keep each point's coordinates contiguous for operator().
    double lo = 0, h = 0;
    if (m_kind == KernelKind::Gaussian && m_w.size() == 1 && a.cols() == 1 && b.cols() == 1) {
        if (uniformGrid(b, lo, h))
            return diagonal() * gaussianToGrid(a.col(0), lo, h, b.rows(), m_w[0]);
        if (uniformGrid(a, lo, h))
            return diagonal() * gaussianToGrid(b.col(0), lo, h, a.rows(), m_w[0]).transpose();
    }
    ProductGrid grid;
    if (m_kind == KernelKind::Gaussian && m_w.size() == 2 && a.cols() == 2 && productGrid(b, grid)) {
        // The kernel factorises over the axes: one row against a kx × ky grid takes kx + ky
        // exponentials (by the recurrence above, fewer still), not kx·ky. Active BQ's variance
        // reduction over its 31 × 31 grid spent a quarter of bq-2d-marginal's time here.
        const Eigen::MatrixXd ex = gaussianToGrid(a.col(0), grid.loX, grid.hX, grid.kx, m_w[0]);
        const Eigen::MatrixXd ey = gaussianToGrid(a.col(1), grid.loY, grid.hY, grid.ky, m_w[1]);
        Eigen::MatrixXd k(a.rows(), b.rows());
        const Eigen::ArrayXXd hx = diagonal() * ex.array();
        if (a.rows() == 1) {
            // One point (a sample appended to an acquisition grid): its row, read as a kx × ky
            // matrix, is the outer product of the axes' factors. The blocks below spent 2.9 µs on
            // 31 one-row broadcasts where a plain product loop takes 0.3 µs (SSE2 build).
            Eigen::Map<Eigen::MatrixXd>(k.data(), grid.kx, grid.ky).noalias() =
                hx.row(0).transpose().matrix() * ey.row(0);
            return k;
        }
        for (Eigen::Index iy = 0; iy < grid.ky; ++iy)
            k.middleCols(iy * grid.kx, grid.kx).array() = hx.colwise() * ey.col(iy).array();
        return k;
    }
    if (m_kind == KernelKind::Gaussian) {
        // Squared scaled distances first, then one vectorised exp over the whole matrix:
        // Eigen's packet exp is several times faster than a scalar std::exp per entry.
        Eigen::MatrixXd r2 = Eigen::MatrixXd::Zero(a.rows(), b.rows());
        for (int d = 0; d < m_w.size(); ++d) {
            const Eigen::ArrayXd ad = a.col(d).array() / m_w[d], bd = b.col(d).array() / m_w[d];
            r2.array() += (ad.replicate(1, b.rows()) - bd.transpose().replicate(a.rows(), 1)).square();
        }
        return diagonal() * (-0.5 * r2.array()).exp().matrix();
    }
    Eigen::ArrayXXd k = squaredScaledDistances(a, b, m_w);
    maternFromSquaredDistances(k, m_kind, m_h);
    return k.matrix();
}

Eigen::MatrixXd Kernel::matrix(const Eigen::MatrixXd& x) const
{
    if (m_kind != KernelKind::Gaussian) {
        // Both triangles in one vectorised sweep: twice the entries, each a fraction of a scalar
        // exp's cost. Mirrored so that K is symmetric by construction, whatever the rounding.
        Eigen::MatrixXd k = matrix(x, x);
        k.triangularView<Eigen::StrictlyUpper>() = k.transpose();
        return k;
    }
    // The exponentials dominate (every GP factorisation and every likelihood evaluation of a
    // fit builds one of these): evaluate the lower triangle only and mirror it.
    const Eigen::Index n = x.rows();
    // Only the lower triangle is used, and the first axis assigns it (0 + u² = u² exactly):
    // no zeroing pass over n² entries.
    Eigen::MatrixXd r2(n, n);
    for (int d = 0; d < m_w.size(); ++d) {
        const Eigen::ArrayXd xd = x.col(d).array() / m_w[d];
        for (Eigen::Index j = 0; j < n; ++j) {
            if (d == 0)
                r2.col(j).tail(n - j).array() = (xd.tail(n - j) - xd[j]).square();
            else
                r2.col(j).tail(n - j).array() += (xd.tail(n - j) - xd[j]).square();
        }
    }
    Eigen::MatrixXd k(n, n);
    const double h = diagonal();
    for (Eigen::Index j = 0; j < n; ++j)
        k.col(j).tail(n - j) = h * (-0.5 * r2.col(j).tail(n - j).array()).exp();
    k.triangularView<Eigen::StrictlyUpper>() = k.transpose();
    return k;
}

Eigen::VectorXd Kernel::column(const Eigen::MatrixXd& x, const double* y) const
{
    const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rx = x;
    Eigen::VectorXd k(x.rows());
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        k[i] = (*this)(rx.row(i).data(), y);
    return k;
}

Eigen::VectorXd Kernel::logParameters() const
{
    Eigen::VectorXd t(1 + m_w.size());
    t[0] = std::log(m_h);
    t.tail(m_w.size()) = m_w.array().log();
    return t;
}

void Kernel::setLogParameters(const Eigen::VectorXd& theta)
{
    m_h = std::exp(theta[0]);
    m_w = theta.tail(theta.size() - 1).array().exp();
}

} // namespace evx::gp
