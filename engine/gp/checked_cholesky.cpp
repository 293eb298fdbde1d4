#include "gp/checked_cholesky.h"

#include "core/errors.h"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace evx::gp {
namespace {
std::atomic<std::uint64_t> g_revisions{0};
constexpr double kFirstEpsilon = 1e-12;
constexpr double kLastEpsilon = 1e-2;
// A new pivot d² below this fraction of k(x, x) means x nearly duplicates the data: the
// extended factor would lose most of its digits, so refactor with jitter instead.
constexpr double kPivotFloor = 1e-13;
// Below this capacity a regrowth copies less than an append costs anyway.
constexpr int kMigrateFrom = 64;

// Every triangular solve goes through here: Eigen's binds a reference to b(0, 0) even when b is
// empty (UBSan, "reference binding to null pointer": an empty GP's α, or a log-GP BQ whose
// candidate points were all samples).
template <class Triangular, class Operand> Operand solveTriangular(const Triangular& t, const Operand& b)
{
    if (b.size() == 0)
        return Operand(b.rows(), b.cols());
    return t.solve(b);
}
} // namespace

void CheckedCholesky::reserve(int n)
{
    if (m_l.rows() >= n)
        return;
    abortMigration();
    const int cap = std::max(n, 2 * int(m_l.rows()) + 8);
    // K beyond the used block is always written before it is read (compute, append), so it is
    // left uninitialised: zeroing it was 4 % of a bq-1d run. L's upper triangle is kept zero.
    Eigen::MatrixXd l = Eigen::MatrixXd::Zero(cap, cap), k(cap, cap);
    l.topLeftCorner(m_n, m_n) = m_l.topLeftCorner(m_n, m_n);
    k.topLeftCorner(m_n, m_n) = m_k.topLeftCorner(m_n, m_n);
    m_l.swap(l);
    m_k.swap(k);
}

void CheckedCholesky::abortMigration()
{
    m_nextK.resize(0, 0);
    m_nextL.resize(0, 0);
    m_migrateRows = m_migratedColumns = 0;
}

void CheckedCholesky::advanceMigration(int columns)
{
    const int n0 = m_migrateRows;
    for (int c = 0; c < columns && m_migratedColumns < n0; ++c, ++m_migratedColumns) {
        const int j = m_migratedColumns;
        m_nextK.block(0, j, n0, 1) = m_k.block(0, j, n0, 1);
        m_nextL.block(j, j, n0 - j, 1) = m_l.block(j, j, n0 - j, 1);
    }
}

void CheckedCholesky::compute(const Eigen::MatrixXd& k)
{
    abortMigration();
    m_n = 0;
    reserve(int(k.rows()));
    m_n = int(k.rows());
    m_k.topLeftCorner(m_n, m_n) = k;
    m_jitter = 0;
    factorWithJitter(0);
}

void CheckedCholesky::factorWithJitter(double startEpsilon)
{
    m_revision = ++g_revisions;
    if (m_n == 0)
        return; // an empty factor (minCoeff of an empty diagonal is undefined)
    const auto k = m_k.topLeftCorner(m_n, m_n);
    if (!k.allFinite())
        throw NumericalError("the kernel matrix has entries that are not finite numbers");
    const double scale = m_n > 0 ? std::max(k.diagonal().mean(), 1e-300) : 1.0;
    // Factored in place in L's storage (Eigen's LLT on a Ref: the same blocked algorithm as on a
    // copy, hence the same factor): copies of K per attempt were a fifth of a bq-1d run.
    auto l = m_l.topLeftCorner(m_n, m_n);
    for (double eps = startEpsilon; eps <= kLastEpsilon; eps = (eps == 0 ? kFirstEpsilon : eps * 10)) {
        l = k;
        l.diagonal().array() += eps * scale;
        Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(l);
        if (llt.info() == Eigen::Success && l.diagonal().minCoeff() > 0) {
            l.triangularView<Eigen::StrictlyUpper>().setZero();
            m_jitter = eps * scale;
            return;
        }
    }
    throw NumericalError("the kernel matrix is not positive definite even with jitter 1e-2·mean(diag K)");
}

void CheckedCholesky::append(const Eigen::VectorXd& kNew, double kss)
{
    if (m_n + 1 > m_l.rows() && migrating()) {
        advanceMigration(m_migrateRows); // whatever is left (none, unless a refit restarted it late)
        m_k.swap(m_nextK);
        m_l.swap(m_nextL);
        abortMigration();
    }
    reserve(m_n + 1);
    m_k.block(0, m_n, m_n, 1) = kNew;
    m_k.block(m_n, 0, 1, m_n) = kNew.transpose();
    m_k(m_n, m_n) = kss;
    const Eigen::VectorXd l = m_n > 0 ? solveL(kNew) : Eigen::VectorXd();
    const double d2 = kss + m_jitter - (m_n > 0 ? l.squaredNorm() : 0.0);
    if (d2 > kPivotFloor * kss) {
        m_l.block(m_n, 0, 1, m_n) = l.transpose();
        m_l(m_n, m_n) = std::sqrt(d2);
        if (migrating()) {
            // The new row lies outside the block being copied: write it to both.
            m_nextK.block(0, m_n, m_n + 1, 1) = m_k.block(0, m_n, m_n + 1, 1);
            m_nextK.block(m_n, 0, 1, m_n) = m_k.block(m_n, 0, 1, m_n);
            m_nextL.block(m_n, 0, 1, m_n + 1) = m_l.block(m_n, 0, 1, m_n + 1);
            // Spread what is left over the appends left before the capacity is reached.
            const int appendsLeft = std::max(1, int(m_l.rows()) - m_n - 1);
            const int columnsLeft = m_migrateRows - m_migratedColumns;
            advanceMigration((columnsLeft + appendsLeft - 1) / appendsLeft);
        }
        ++m_n;
        if (!migrating() && m_l.rows() >= kMigrateFrom && 2 * m_n >= m_l.rows()) {
            const Eigen::Index cap = 2 * m_l.rows();
            m_nextK.resize(cap, cap); // uninitialised: pages are touched as columns arrive
            m_nextL.resize(cap, cap);
            m_migrateRows = m_n;
            m_migratedColumns = 0;
        }
        return;
    }
    abortMigration(); // the refactorisation below rewrites every row
    ++m_n;
    const double scale = m_k.topLeftCorner(m_n, m_n).diagonal().mean();
    factorWithJitter(std::max(kFirstEpsilon, 10 * m_jitter / scale));
}

void CheckedCholesky::scale(double c)
{
    abortMigration();
    m_k.topLeftCorner(m_n, m_n) *= c;
    m_l.topLeftCorner(m_n, m_n) *= std::sqrt(c);
    m_jitter *= c;
    m_revision = ++g_revisions;
}

Eigen::VectorXd CheckedCholesky::solveL(const Eigen::VectorXd& b) const
{
    return solveTriangular(matrixL(), b);
}

Eigen::MatrixXd CheckedCholesky::solveL(const Eigen::MatrixXd& b) const
{
    return solveTriangular(matrixL(), b);
}

Eigen::VectorXd CheckedCholesky::solve(const Eigen::VectorXd& b) const
{
    const auto upper = m_l.topLeftCorner(m_n, m_n).transpose().triangularView<Eigen::Upper>();
    return solveTriangular(upper, solveTriangular(matrixL(), b));
}

double CheckedCholesky::logDeterminant() const
{
    return 2 * m_l.topLeftCorner(m_n, m_n).diagonal().array().log().sum();
}

Eigen::MatrixXd CheckedCholesky::inverse() const
{
    Eigen::MatrixXd inv = lowerInverse();
    inv.triangularView<Eigen::StrictlyUpper>() = inv.transpose();
    return inv;
}

Eigen::MatrixXd CheckedCholesky::lowerInverse() const
{
    // Every likelihood gradient of a lengthscale fit needs K⁻¹ = L⁻ᵀL⁻¹ (two fifths of a
    // bq-2d-marginal run at n = 150). L⁻¹ is lower triangular and is built by blocks of rows:
    // the diagonal blocks by small triangular solves, then block row I from the rows above,
    // X_{I,<I} = −L_II⁻¹ (L_{I,<I} X_{<I,<I}), two triangular matrix products. Entry (i, j ≤ i)
    // of L⁻ᵀL⁻¹ is then a dot product of two column tails. n³/3 multiply-adds in all.
    // Measured for L⁻¹ alone (AVX2 build, a 2-D Gaussian kernel): blocks of 16 rows took
    // 16/42/112 µs at n = 62/100/150, one row at a time (a triangular vector–matrix product
    // each) 22/62/161 µs. For the product, the dot products beat Eigen's syrk and trmm (38
    // against 47 and 54 µs at n = 100).
    constexpr int kBlock = 16;
    const auto l = m_l.topLeftCorner(m_n, m_n);
    Eigen::MatrixXd linv(m_n, m_n); // only the lower triangle is written and read
    for (int j = 0; j < m_n; j += kBlock) {
        const int b = std::min(kBlock, m_n - j);
        auto diagonal = linv.block(j, j, b, b);
        diagonal.setIdentity();
        l.block(j, j, b, b).triangularView<Eigen::Lower>().solveInPlace(diagonal);
    }
    for (int i = kBlock; i < m_n; i += kBlock) {
        const int b = std::min(kBlock, m_n - i);
        const Eigen::MatrixXd t =
            l.block(i, 0, b, i) * linv.topLeftCorner(i, i).triangularView<Eigen::Lower>();
        linv.block(i, 0, b, i).noalias() = -(linv.block(i, i, b, b).triangularView<Eigen::Lower>() * t);
    }
    Eigen::MatrixXd inv(m_n, m_n);
    for (int j = 0; j < m_n; ++j)
        for (int i = j; i < m_n; ++i)
            inv(i, j) = linv.col(i).tail(m_n - i).dot(linv.col(j).tail(m_n - i));
    return inv;
}

const Eigen::VectorXd& WhitenedVector::update(const CheckedCholesky& factor, const Eigen::VectorXd& v)
{
    const int from = m_covered.firstNew(factor), n = factor.size();
    if (from == 0) {
        m_w = factor.solveL(v);
    } else {
        const auto lower = factor.matrixL();
        const auto l = lower.nestedExpression();
        m_w.conservativeResize(n);
        for (int j = from; j < n; ++j)
            m_w[j] = (v[j] - l.row(j).head(j).dot(m_w.head(j))) / l(j, j);
    }
    m_covered.cover(factor);
    return m_w;
}

} // namespace evx::gp
