#pragma once
// Cholesky factor K = L Lᵀ of a kernel matrix that is checked, never trusted (STYLE.md):
// when K is not numerically positive definite a jitter ε·mean(diag K) is added to the
// diagonal, ε growing tenfold from 1e-12 to 1e-2, and the jitter used is reported.
//
// append() adds one observation by extending the factor by one row (the rank-one
// update of a growing Cholesky factor): with l = L⁻¹k and d² = k(x,x) + jitter − lᵀl,
//   L' = [L 0; lᵀ d].   O(n²) instead of the O(n³) refit.
// If d² is not safely positive, the whole matrix is refactored with more jitter.
// Eigen's LLT has no row-append, so this part is written by hand; the full factorisation
// is Eigen's LLT.

#include <Eigen/Dense>

#include <cstdint>

namespace evx::gp {

class CheckedCholesky {
public:
    // Throws NumericalError if even the largest jitter does not make K positive definite.
    void compute(const Eigen::MatrixXd& k);
    // kNew = k(X, x), kss = k(x, x) (without jitter).
    void append(const Eigen::VectorXd& kNew, double kss);

    // K → c·K for c > 0: L → √c·L and the jitter scales with it; O(n²), no refactorisation.
    void scale(double c);

    int size() const { return m_n; }
    // Changes whenever rows already in L change (a (re)factorisation or scale()), not when
    // append() only adds a row; unique across objects, so a cache of L⁻¹B kept beside a
    // factor can tell a row append from anything else (FixedPointPredictor).
    std::uint64_t revision() const { return m_revision; }
    double jitter() const { return m_jitter; }
    auto kernelMatrix() const
    {
        return m_k.topLeftCorner(m_n, m_n);
    } // K without the jitter  // absolute amount added to the diagonal; 0 if none
    // Lower-triangular factor (a view into storage that grows geometrically).
    auto matrixL() const { return m_l.topLeftCorner(m_n, m_n).triangularView<Eigen::Lower>(); }
    Eigen::VectorXd solveL(const Eigen::VectorXd& b) const; // L⁻¹ b
    Eigen::VectorXd solve(const Eigen::VectorXd& b) const;  // K⁻¹ b
    Eigen::MatrixXd solveL(const Eigen::MatrixXd& b) const;
    double logDeterminant() const; // log det(K + jitter I)
    Eigen::MatrixXd inverse() const;
    // K⁻¹ with only the lower triangle (diagonal included) set; the strict upper part is
    // uninitialised (the likelihood gradient reads one triangle of the symmetric K⁻¹).
    Eigen::MatrixXd lowerInverse() const;

    // Storage for n rows now (it keeps its factor): appends up to n then neither allocate nor
    // migrate. A run that knows its sample count saves the page faults of each regrowth.
    void reserve(int n);

private:
    void factorWithJitter(double startEpsilon);
    // Growth without a pause: once half the capacity is used, storage of twice the size is
    // allocated and the existing block is copied into it a few columns per append, while new
    // rows go to both; when the capacity is reached the buffers swap. Copying 2 × 8 MB at
    // once at n ≈ 1000 cost 15 ms, eight times an append (issue 13).
    void advanceMigration(int columns);
    void abortMigration();
    bool migrating() const { return m_nextL.rows() > 0; }

    Eigen::MatrixXd m_k; // the kernel matrix without jitter (top-left m_n × m_n)
    Eigen::MatrixXd m_l;
    Eigen::MatrixXd m_nextK, m_nextL; // the doubled storage being filled, empty when not migrating
    int m_migrateRows = 0;            // the block (rows and columns) that is being copied
    int m_migratedColumns = 0;
    int m_n = 0;
    double m_jitter = 0;
    std::uint64_t m_revision = 0;
};

// How many of a factor's rows a result derived from it (L⁻¹v, L⁻¹B, sums over their rows) already
// covers. Rows appended since leave the covered ones as they were, so the result is extended by
// the new rows; any other change (a new revision, fewer rows) means starting afresh. A factor
// built from scratch may reuse a revision number (0), so the result's owner calls reset() then.
class FactorRows {
public:
    // The first row still to be computed: the rows covered if factor only appended rows since
    // cover(), else 0 (everything).
    int firstNew(const CheckedCholesky& factor) const
    {
        const bool appended = m_rows > 0 && m_revision == factor.revision() && m_rows <= factor.size();
        return appended ? m_rows : 0;
    }
    void cover(const CheckedCholesky& factor)
    {
        m_rows = factor.size();
        m_revision = factor.revision();
    }
    void reset() { m_rows = 0; }
    int rows() const { return m_rows; }

private:
    int m_rows = 0;
    std::uint64_t m_revision = 0;
};

// L⁻¹v for a vector v that grows with a factor's rows, kept beside the factor: an appended row
// of L adds one entry, (v_n − L_{n,<n} w)/L_nn, instead of a triangular solve each time it is
// asked for.
class WhitenedVector {
public:
    const Eigen::VectorXd& update(const CheckedCholesky& factor, const Eigen::VectorXd& v);
    void reset() { m_covered.reset(); }

private:
    Eigen::VectorXd m_w;
    FactorRows m_covered;
};

} // namespace evx::gp
