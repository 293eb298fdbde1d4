#include "bq/structured/ibp_enumeration.h"

#include "bq/structured/ibp_model.h"
#include "core/errors.h"

#include <boost/math/distributions/poisson.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unordered_map>

namespace evx::bq::structured {

namespace {

// (upper triangle of M for N ≤ 5: 15 entries, K₊): entries never exceed K₊ ≤ K_max ≤ 255.
using Key = std::array<std::uint8_t, 16>;
constexpr int kFeaturesSlot = 15;

// splitmix64's finaliser: libstdc++ hashes integers by identity, and the keys differ in few bits.
std::uint64_t mix(std::uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct KeyHash {
    size_t operator()(const Key& k) const
    {
        std::uint64_t a, b;
        std::memcpy(&a, k.data(), 8);
        std::memcpy(&b, k.data() + 8, 8);
        return size_t(mix(a ^ mix(b)));
    }
};
using StateMap = std::unordered_map<Key, double, KeyHash>;

Eigen::MatrixXd unpack(const Key& key, int n)
{
    Eigen::MatrixXd m(n, n);
    int idx = 0;
    for (int i = 0; i < n; ++i)
        for (int j = i; j < n; ++j, ++idx)
            m(i, j) = m(j, i) = key[size_t(idx)];
    return m;
}

// Keeps the maxStates most probable states; returns the least probability kept (0 if none was
// dropped).
double capStates(StateMap& states, int maxStates)
{
    if (int(states.size()) <= maxStates)
        return 0;
    std::vector<double> p;
    p.reserve(states.size());
    for (const auto& [k, v] : states)
        p.push_back(v);
    std::nth_element(p.begin(), p.begin() + (p.size() - size_t(maxStates)), p.end());
    const double cut = p[p.size() - size_t(maxStates)];
    for (auto it = states.begin(); it != states.end();)
        it = it->second < cut ? states.erase(it) : std::next(it);
    return cut;
}

} // namespace

IbpEnumeration::IbpEnumeration(int n, double alpha, double tolerance, int maxStates) : m_n(n), m_alpha(alpha)
{
    if (n < 1 || n > kIbpEnumerationMaxRows)
        throw InvalidParameter("exact IBP evidence: N = " + std::to_string(n) +
                               " rows; the enumeration is limited to N ≤ 5 (the states grow like the "
                               "multisets of 2^N − 1 column types)");
    if (!(alpha > 0))
        throw InvalidParameter("exact IBP evidence: alpha must be positive");
    if (!(tolerance > 0) || maxStates < 1)
        throw InvalidParameter("exact IBP evidence: the tolerance and the state cap must be positive");
    const boost::math::poisson_distribution<double> total(alpha * harmonicNumber(n));
    while (cdf(complement(total, double(m_kMax))) > tolerance)
        ++m_kMax;
    if (m_kMax > 255)
        throw InvalidParameter("exact IBP evidence: alpha is too large to enumerate (K_max > 255)");
    m_truncationMass = cdf(complement(total, double(m_kMax)));

    StateMap states;
    states[Key{}] = 1.0;
    double cut = 0; // the least probability the cap kept at the previous type
    for (std::uint32_t type = 1; type < (1u << n); ++type) {
        const double rate = std::exp(ibpLogTypeRate(n, std::popcount(type), alpha));
        std::vector<int> cells; // upper-triangle slots that v vᵀ increments
        int idx = 0;
        for (int i = 0; i < n; ++i)
            for (int j = i; j < n; ++j, ++idx)
                if (((type >> i) & 1u) && ((type >> j) & 1u))
                    cells.push_back(idx);
        StateMap next;
        next.reserve(states.size() * 2);
        for (const auto& [key, p] : states) {
            Key k = key;
            double pmf = std::exp(-rate);
            for (int c = 0; c + key[kFeaturesSlot] <= m_kMax; ++c) {
                if (c > 0) {
                    pmf *= rate / c;
                    for (int cell : cells)
                        ++k[size_t(cell)];
                    ++k[kFeaturesSlot];
                }
                // A state below the last cut would almost surely be capped away: skip it and,
                // once the pmf decreases (c > rate), its successors. Whatever is skipped is
                // counted in the mass left out (1 − the mass kept).
                if (p * pmf < cut) {
                    if (c > rate)
                        break;
                    continue;
                }
                next[k] += p * pmf;
            }
        }
        cut = std::max(cut, capStates(next, maxStates));
        states.swap(next);
    }
    double kept = 0;
    m_states.reserve(states.size());
    for (const auto& [key, p] : states) {
        m_states.push_back({unpack(key, n), int(key[kFeaturesSlot]), p});
        kept += p;
    }
    // What the K₊ ≤ K_max truncation and the cap removed, by difference (the Poisson pmfs above
    // sum to 1 over c unless cut at K_max).
    m_massLeftOut = std::max(0.0, 1.0 - kept);
    std::sort(m_states.begin(), m_states.end(),
              [](const State& a, const State& b) { return a.probability > b.probability; });
}

std::vector<WeightedGram> IbpEnumeration::support(int maxPoints, double* massCovered) const
{
    auto less = [](const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
        return std::lexicographical_compare(a.data(), a.data() + a.size(), b.data(), b.data() + b.size());
    };
    std::map<Eigen::MatrixXd, double, decltype(less)> merged(less);
    for (const State& s : m_states)
        merged[s.zzt] += s.probability;
    std::vector<WeightedGram> out;
    out.reserve(merged.size());
    for (const auto& [m, w] : merged)
        out.push_back({m, w});
    std::sort(out.begin(), out.end(),
              [](const WeightedGram& a, const WeightedGram& b) { return a.weight > b.weight; });
    if (int(out.size()) > maxPoints)
        out.resize(size_t(std::max(0, maxPoints)));
    if (massCovered) {
        *massCovered = 0;
        for (const WeightedGram& g : out)
            *massCovered += g.weight;
    }
    return out;
}

std::vector<WeightedGram> ibpStratifiedSupport(const IbpEnumeration& enumeration, int top, int draws,
                                               std::uint64_t seed, double* exactMass)
{
    double covered = 0;
    std::vector<WeightedGram> out = enumeration.support(top, &covered);
    auto less = [](const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
        return std::lexicographical_compare(a.data(), a.data() + a.size(), b.data(), b.data() + b.size());
    };
    std::set<Eigen::MatrixXd, decltype(less)> kept(less);
    for (const WeightedGram& g : out)
        kept.insert(g.zzt);
    const double rest = std::max(0.0, 1.0 - covered);
    if (exactMass)
        *exactMass = covered;
    if (rest <= 0 || draws <= 0)
        return out;
    std::mt19937_64 rng(seed);
    const size_t first = out.size();
    // Rejection from the prior: accepted with probability 1 − c; the cap on tries only matters
    // when 1 − c is tiny, and then so is the weight lost.
    for (long tries = 0; long(out.size() - first) < draws && tries < 1000L * draws; ++tries) {
        const FeatureMatrix z = drawIbpPrior(enumeration.rows(), enumeration.alpha(), rng);
        Eigen::MatrixXd m = z * z.transpose();
        if (!kept.count(m))
            out.push_back({std::move(m), 0.0});
    }
    for (size_t i = first; i < out.size(); ++i)
        out[i].weight = rest / double(out.size() - first);
    return out;
}

IbpExactEvidence::IbpExactEvidence(const IbpEnumeration& enumeration, const Eigen::MatrixXd& x)
    : m_kMax(enumeration.kMax()), m_d(double(x.cols())), m_massLeftOut(enumeration.massLeftOut())
{
    if (x.rows() != enumeration.rows())
        throw InvalidParameter("exact IBP evidence: the data have " + std::to_string(x.rows()) +
                               " rows, the enumeration " + std::to_string(enumeration.rows()));
    const auto& states = enumeration.states();
    const Eigen::Index s = Eigen::Index(states.size()), n = x.rows();
    m_lambda.resize(s, n);
    m_q.resize(s, n);
    m_logPrior.resize(s);
    m_features.resize(size_t(s));
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(n);
    for (Eigen::Index i = 0; i < s; ++i) {
        const auto& st = states[size_t(i)];
        eig.compute(st.zzt);
        if (eig.info() != Eigen::Success)
            throw NumericalError("exact IBP evidence: an eigendecomposition of ZZᵀ failed");
        m_lambda.row(i) = eig.eigenvalues().cwiseMax(0.0).transpose().array();
        m_q.row(i) = (eig.eigenvectors().transpose() * x).rowwise().squaredNorm().transpose().array();
        m_logPrior[i] = std::log(st.probability);
        m_features[size_t(i)] = st.features;
    }
}

Eigen::VectorXd IbpExactEvidence::logTerms(double sigmaX, double sigmaA) const
{
    static constexpr double kLog2Pi = 1.8378770664093454836;
    const Eigen::ArrayXXd c = sigmaA * sigmaA * m_lambda + sigmaX * sigmaX;
    const Eigen::ArrayXd logLik = -0.5 * (m_q / c).rowwise().sum() - 0.5 * m_d * c.log().rowwise().sum() -
                                  0.5 * double(m_lambda.cols()) * m_d * kLog2Pi;
    return (m_logPrior + logLik).matrix();
}

double IbpExactEvidence::logEvidence(double sigmaX, double sigmaA) const
{
    const Eigen::VectorXd t = logTerms(sigmaX, sigmaA);
    const double top = t.maxCoeff();
    return top + std::log((t.array() - top).exp().sum());
}

std::vector<double> IbpExactEvidence::posteriorFeatureCount(double sigmaX, double sigmaA) const
{
    const Eigen::VectorXd t = logTerms(sigmaX, sigmaA);
    const double top = t.maxCoeff();
    std::vector<double> p(size_t(m_kMax + 1), 0.0);
    double total = 0;
    for (Eigen::Index i = 0; i < t.size(); ++i) {
        const double w = std::exp(t[i] - top);
        p[size_t(m_features[size_t(i)])] += w;
        total += w;
    }
    for (double& v : p)
        v /= total;
    return p;
}

} // namespace evx::bq::structured
