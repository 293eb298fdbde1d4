#include "bq/structured/ibp_gibbs.h"

#include "core/errors.h"

#include <cmath>
#include <set>

namespace evx::bq::structured {

namespace {

void removeColumns(FeatureMatrix& z, const std::vector<char>& drop)
{
    Eigen::Index kept = 0;
    for (Eigen::Index k = 0; k < z.cols(); ++k)
        if (!drop[size_t(k)])
            z.col(kept++) = z.col(k);
    z.conservativeResize(Eigen::NoChange, kept);
}

} // namespace

IbpGibbs::IbpGibbs(Eigen::MatrixXd x, double sigmaX, double sigmaA, double alpha, std::uint64_t seed)
    : m_x(std::move(x)), m_sigmaX(sigmaX), m_sigmaA(sigmaA), m_alpha(alpha), m_rng(seed),
      m_z(FeatureMatrix::Zero(m_x.rows(), 0))
{
    if (!(sigmaX > 0) || !(sigmaA > 0) || !(alpha > 0))
        throw InvalidParameter("IBP Gibbs: sigma_x, sigma_a and alpha must be positive");
}

void IbpGibbs::sweep()
{
    for (Eigen::Index n = 0; n < m_x.rows(); ++n)
        updateRow(n);
}

void IbpGibbs::updateRow(Eigen::Index n)
{
    const Eigen::Index nRows = m_x.rows(), d = m_x.cols();
    const double sx2 = m_sigmaX * m_sigmaX, sa2 = m_sigmaA * m_sigmaA;
    std::uniform_real_distribution<double> unif(0.0, 1.0);
    const Eigen::Index k = m_z.cols();
    const Eigen::RowVectorXd xn = m_x.row(n);

    Eigen::VectorXd w = m_z.row(n).transpose();
    Eigen::VectorXd mOthers = m_z.colwise().sum().transpose() - w;
    Eigen::MatrixXd g = m_z.transpose() * m_z - w * w.transpose();
    g.diagonal().array() += sx2 / sa2;
    const Eigen::LLT<Eigen::MatrixXd> llt(g);
    if (llt.info() != Eigen::Success)
        throw NumericalError("IBP Gibbs: Z₋ₙᵀZ₋ₙ + (σ_X²/σ_A²) I is not positive definite");
    const Eigen::MatrixXd aBar = llt.solve(m_z.transpose() * m_x - w * xn);
    const Eigen::MatrixXd gInv = llt.solve(Eigen::MatrixXd::Identity(k, k));

    auto logPredictive = [&](const Eigen::VectorXd& zn, double extraVariance) {
        const double s = sx2 * (1 + zn.dot(gInv * zn)) + extraVariance;
        const double r2 = (xn - zn.transpose() * aBar).squaredNorm();
        return -0.5 * double(d) * std::log(s) - 0.5 * r2 / s;
    };

    for (Eigen::Index j = 0; j < k; ++j) {
        if (mOthers[j] == 0)
            continue; // singletons of row n stay as they are for now
        w[j] = 1;
        const double on = std::log(mOthers[j]) + logPredictive(w, 0);
        w[j] = 0;
        const double off = std::log(double(nRows) - mOthers[j]) + logPredictive(w, 0);
        const double pOn = 1 / (1 + std::exp(off - on));
        w[j] = unif(m_rng) < pOn ? 1 : 0;
    }
    m_z.row(n) = w.transpose();

    // Now the singletons (and columns emptied above) go, and their number is redrawn. Their
    // columns of G are decoupled (zero in Z₋ₙ), so zeroing them in w leaves the shared
    // predictive, and each new singleton adds σ_A² to its variance.
    std::vector<char> drop(size_t(k), 0);
    for (Eigen::Index j = 0; j < k; ++j)
        if (mOthers[j] == 0) {
            drop[size_t(j)] = 1;
            w[j] = 0;
        }
    const double rate = m_alpha / double(nRows);
    const int cap = int(std::ceil(rate + 12 * std::sqrt(rate) + 12));
    std::vector<double> logP(size_t(cap + 1));
    double logPmf = -rate, top = -INFINITY;
    for (int c = 0; c <= cap; ++c) {
        if (c > 0)
            logPmf += std::log(rate / c);
        logP[size_t(c)] = logPmf + logPredictive(w, c * sa2);
        top = std::max(top, logP[size_t(c)]);
    }
    double total = 0;
    for (double& v : logP)
        total += (v = std::exp(v - top));
    double u = unif(m_rng) * total;
    int fresh = 0;
    while (fresh < cap && (u -= logP[size_t(fresh)]) > 0)
        ++fresh;

    removeColumns(m_z, drop);
    const Eigen::Index kept = m_z.cols();
    m_z.conservativeResize(Eigen::NoChange, kept + fresh);
    m_z.rightCols(fresh).setZero();
    m_z.block(n, kept, 1, fresh).setOnes();
}

std::vector<FeatureMatrix> ibpDesignSamples(const Eigen::MatrixXd& x, const IbpDesignOptions& o,
                                            const std::function<void(int)>& progress)
{
    if (o.samples < 1 || o.sweepsBetween < 1 || o.burnIn < 0)
        throw InvalidParameter("IBP design: samples and sweeps must be positive");
    IbpGibbs chain(x, o.sigmaX, o.sigmaA, o.alpha, o.seed);
    std::mt19937_64 priorRng(o.seed ^ 0x5DEECE66DULL);
    bool burnt = false;
    std::vector<FeatureMatrix> out;
    out.reserve(size_t(o.samples));
    for (int s = 0; s < o.samples; ++s) {
        const bool posterior =
            o.design == IbpDesign::Posterior || (o.design == IbpDesign::Mixed && s % 2 == 0);
        if (posterior) {
            for (int i = 0, sweeps = burnt ? o.sweepsBetween : o.burnIn + o.sweepsBetween; i < sweeps; ++i)
                chain.sweep();
            burnt = true;
            out.push_back(chain.z());
        } else {
            out.push_back(drawIbpPrior(int(x.rows()), o.alpha, priorRng));
        }
        if (progress)
            progress(s + 1);
    }
    return out;
}

IbpChainBound ibpChainLowerBound(const Eigen::MatrixXd& x, double sigmaX, double sigmaA, double alpha,
                                 int sweeps, std::uint64_t seed)
{
    IbpGibbs chain(x, sigmaX, sigmaA, alpha, seed);
    std::set<IbpClassKey> seen;
    double top = -INFINITY;
    std::vector<double> terms;
    for (int i = 0; i < sweeps; ++i) {
        chain.sweep();
        IbpClassKey key = ibpClassKey(chain.z());
        if (!seen.insert(key).second)
            continue;
        const double t =
            ibpLogPrior(key, int(x.rows()), alpha) +
            IbpGramLikelihood(x, chain.z() * chain.z().transpose()).logLikelihood(sigmaX, sigmaA);
        terms.push_back(t);
        top = std::max(top, t);
    }
    double sum = 0;
    for (double t : terms)
        sum += std::exp(t - top);
    return {top + std::log(sum), int(terms.size())};
}

} // namespace evx::bq::structured
