#include "bq/structured/ibp_model.h"

#include "core/errors.h"

#include <boost/math/special_functions/gamma.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace evx::bq::structured {

namespace {

constexpr double kLog2Pi = 1.8378770664093454836;

void requireShapes(const Eigen::MatrixXd& x, const FeatureMatrix& z, double sigmaX, double sigmaA)
{
    if (z.rows() != x.rows())
        throw InvalidParameter("IBP likelihood: Z has " + std::to_string(z.rows()) + " rows, X has " +
                               std::to_string(x.rows()));
    if (!(sigmaX > 0) || !(sigmaA > 0))
        throw InvalidParameter("IBP likelihood: sigma_x and sigma_a must be positive");
}

} // namespace

Eigen::MatrixXd ibpToyBases()
{
    Eigen::MatrixXd b = Eigen::MatrixXd::Zero(4, kIbpToyD);
    auto on = [&](int f, int row, int col) { b(f, row * kIbpImageSide + col) = 1; };
    // Plus, top left.
    on(0, 0, 1), on(0, 1, 0), on(0, 1, 1), on(0, 1, 2), on(0, 2, 1);
    // Box outline, top right.
    for (int r = 0; r < 3; ++r)
        for (int c = 3; c < 6; ++c)
            if (r != 1 || c != 4)
                on(1, r, c);
    // X, bottom left.
    on(2, 3, 0), on(2, 3, 2), on(2, 4, 1), on(2, 5, 0), on(2, 5, 2);
    // L, bottom right.
    on(3, 3, 3), on(3, 4, 3), on(3, 5, 3), on(3, 5, 4), on(3, 5, 5);
    return b;
}

IbpToyData makeIbpToyData(int n, std::uint64_t seed)
{
    if (n < 1)
        throw InvalidParameter("IBP toy data: at least one row is needed");
    IbpToyData d;
    d.bases = ibpToyBases();
    d.zTrue = FeatureMatrix::Zero(n, 4);
    d.x.resize(n, kIbpToyD);
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, kIbpToySigmaX);
    // Row by row, so that a row does not depend on N.
    for (int i = 0; i < n; ++i) {
        for (int f = 0; f < 4; ++f)
            d.zTrue(i, f) = (rng() >> 63) ? 1.0 : 0.0;
        for (int j = 0; j < kIbpToyD; ++j)
            d.x(i, j) = noise(rng);
        d.x.row(i) += d.zTrue.row(i) * d.bases;
    }
    return d;
}

double ibpLogLikelihood(const Eigen::MatrixXd& x, const FeatureMatrix& z, double sigmaX, double sigmaA)
{
    requireShapes(x, z, sigmaX, sigmaA);
    const double n = double(x.rows()), d = double(x.cols()), k = double(z.cols());
    const double sx2 = sigmaX * sigmaX;
    double quad = x.squaredNorm();
    double logDet = 0;
    if (z.cols() > 0) {
        Eigen::MatrixXd p = z.transpose() * z;
        p.diagonal().array() += sx2 / (sigmaA * sigmaA);
        const Eigen::LLT<Eigen::MatrixXd> llt(p);
        if (llt.info() != Eigen::Success)
            throw NumericalError("IBP likelihood: ZᵀZ + (σ_X²/σ_A²) I is not positive definite");
        const Eigen::MatrixXd zx = z.transpose() * x;
        quad -= (llt.matrixL().solve(zx)).squaredNorm();
        logDet = 2 * llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
    }
    return -quad / (2 * sx2) - 0.5 * n * d * kLog2Pi - (n - k) * d * std::log(sigmaX) -
           k * d * std::log(sigmaA) - 0.5 * d * logDet;
}

double ibpLogLikelihoodColumns(const Eigen::MatrixXd& x, const FeatureMatrix& z, double sigmaX, double sigmaA)
{
    requireShapes(x, z, sigmaX, sigmaA);
    Eigen::MatrixXd c = sigmaA * sigmaA * (z * z.transpose());
    c.diagonal().array() += sigmaX * sigmaX;
    const Eigen::LLT<Eigen::MatrixXd> llt(c);
    if (llt.info() != Eigen::Success)
        throw NumericalError("IBP likelihood: σ_A² ZZᵀ + σ_X² I is not positive definite");
    const double logDet = 2 * llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
    double total = 0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        const Eigen::VectorXd w = llt.matrixL().solve(x.col(j));
        total += -0.5 * w.squaredNorm() - 0.5 * logDet - 0.5 * double(x.rows()) * kLog2Pi;
    }
    return total;
}

IbpGramLikelihood::IbpGramLikelihood(const Eigen::MatrixXd& x, const Eigen::MatrixXd& zzt)
    : m_d(double(x.cols()))
{
    if (zzt.rows() != x.rows() || zzt.cols() != x.rows())
        throw InvalidParameter("IBP likelihood: ZZᵀ must be N × N with N the rows of X");
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(zzt);
    if (eig.info() != Eigen::Success)
        throw NumericalError("IBP likelihood: the eigendecomposition of ZZᵀ failed");
    // ZZᵀ is positive semidefinite; rounding can leave −1e-15 on a zero eigenvalue.
    m_lambda = eig.eigenvalues().cwiseMax(0.0);
    m_q = (eig.eigenvectors().transpose() * x).rowwise().squaredNorm();
}

double IbpGramLikelihood::logLikelihood(double sigmaX, double sigmaA) const
{
    const double sx2 = sigmaX * sigmaX, sa2 = sigmaA * sigmaA;
    double quad = 0, logDet = 0;
    for (Eigen::Index i = 0; i < m_lambda.size(); ++i) {
        const double c = sa2 * m_lambda[i] + sx2;
        quad += m_q[i] / c;
        logDet += std::log(c);
    }
    return -0.5 * quad - 0.5 * m_d * logDet - 0.5 * double(m_lambda.size()) * m_d * kLog2Pi;
}

double harmonicNumber(int n)
{
    double h = 0;
    for (int i = 1; i <= n; ++i)
        h += 1.0 / i;
    return h;
}

double ibpLogTypeRate(int n, int m, double alpha)
{
    using boost::math::lgamma;
    return std::log(alpha) + lgamma(double(n - m + 1)) + lgamma(double(m)) - lgamma(double(n + 1));
}

IbpClassKey ibpClassKey(const FeatureMatrix& z)
{
    if (z.rows() > 63)
        throw InvalidParameter("IBP class key: at most 63 rows");
    IbpClassKey key;
    for (Eigen::Index k = 0; k < z.cols(); ++k) {
        std::uint64_t mask = 0;
        for (Eigen::Index i = 0; i < z.rows(); ++i)
            if (z(i, k) != 0)
                mask |= std::uint64_t(1) << i;
        if (mask != 0)
            key.push_back(mask);
    }
    std::sort(key.begin(), key.end());
    return key;
}

double ibpLogPrior(const IbpClassKey& key, int n, double alpha)
{
    using boost::math::lgamma;
    double logP = -alpha * harmonicNumber(n);
    for (size_t i = 0; i < key.size();) {
        size_t j = i;
        while (j < key.size() && key[j] == key[i])
            ++j;
        const int m = std::popcount(key[i]);
        // K_h columns of this type: Poisson(rate) gives rate^{K_h} / K_h! (its exp(−rate) is in
        // exp(−α H_N), which sums every type's rate).
        logP += double(j - i) * ibpLogTypeRate(n, m, alpha) - lgamma(double(j - i + 1));
        i = j;
    }
    return logP;
}

double ibpLogPrior(const FeatureMatrix& z, double alpha)
{
    return ibpLogPrior(ibpClassKey(z), int(z.rows()), alpha);
}

FeatureMatrix drawIbpPrior(int n, double alpha, std::mt19937_64& rng)
{
    std::vector<std::vector<char>> columns; // columns[k][i]
    std::vector<int> counts;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int i = 0; i < n; ++i) {
        for (size_t k = 0; k < columns.size(); ++k) {
            columns[k].push_back(u(rng) < double(counts[k]) / (i + 1) ? 1 : 0);
            counts[k] += columns[k].back();
        }
        const int fresh = std::poisson_distribution<int>(alpha / (i + 1))(rng);
        for (int f = 0; f < fresh; ++f) {
            columns.emplace_back(size_t(i), 0);
            columns.back().push_back(1);
            counts.push_back(1);
        }
    }
    FeatureMatrix z = FeatureMatrix::Zero(n, Eigen::Index(columns.size()));
    for (size_t k = 0; k < columns.size(); ++k)
        for (int i = 0; i < n; ++i)
            z(i, Eigen::Index(k)) = columns[k][size_t(i)];
    return z;
}

} // namespace evx::bq::structured
