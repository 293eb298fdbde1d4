#include "models/attainment_sampled_intercepts.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace evx::models {

SampledInterceptSchools::SampledInterceptSchools(const std::vector<const Pupils*>& sampled,
                                                 const std::vector<const Pupils*>& virtual_,
                                                 const std::vector<double>& virtualWeights)
    : m_sampledSchools(static_cast<int>(sampled.size()))
{
    if (virtual_.size() != virtualWeights.size())
        throw InvalidParameter("a weighted set of schools needs one weight per school");
    std::vector<const Pupils*> schools = sampled;
    std::vector<double> weight, omega;
    for (std::size_t k = 0; k < virtual_.size(); ++k)
        if (virtualWeights[k] > 0) { // as a sum of w·(finite) would have a weight of 0 add nothing
            schools.push_back(virtual_[k]);
            weight.push_back(virtualWeights[k]);
            omega.push_back(virtual_[k]->withinWeight);
        }
    for (const Pupils* p : sampled)
        if (p->withinWeight != 1)
            throw InvalidParameter(
                "a school whose intercept is sampled must be a real one (within-group weight 1)");
    m_start.push_back(0);
    const auto virtualSchools = static_cast<Eigen::Index>(weight.size());
    m_virtualWeight = Eigen::Map<const Eigen::ArrayXd>(weight.data(), virtualSchools);
    m_virtualOmega = Eigen::Map<const Eigen::ArrayXd>(omega.data(), virtualSchools);
    for (std::size_t s = 0; s < schools.size(); ++s) {
        const Pupils& p = *schools[s];
        m_attain.insert(m_attain.end(), p.attain.begin(), p.attain.end());
        m_verbal.insert(m_verbal.end(), p.verbal.begin(), p.verbal.end());
        m_female.insert(m_female.end(), p.female.begin(), p.female.end());
        m_social.insert(m_social.end(), p.social.begin(), p.social.end());
        m_start.push_back(m_attain.size());
        double sumVerbal = 0;
        for (double v : p.verbal)
            sumVerbal += v;
        if (s < sampled.size()) {
            m_sumVerbal.push_back(sumVerbal);
        } else {
            const double wOmega = weight[s - sampled.size()] * omega[s - sampled.size()];
            m_virtualPupils += wOmega * static_cast<double>(p.attain.size());
            m_virtualSumVerbal += wOmega * sumVerbal;
        }
    }
    std::vector<double> scores = m_verbal;
    std::sort(scores.begin(), scores.end());
    scores.erase(std::unique(scores.begin(), scores.end()), scores.end());
    for (double v : m_verbal)
        m_scoreIndex.push_back(
            static_cast<int>(std::lower_bound(scores.begin(), scores.end(), v) - scores.begin()));
    m_verbalScores =
        Eigen::Map<const Eigen::ArrayXd>(scores.data(), static_cast<Eigen::Index>(scores.size()));
    findScoreLattice(scores);
}

// Test scores are integers before standardisation, so the distinct scores sit on a lattice
// v_0 + k Δ and their precisions form a geometric sequence: two exps and a product per score
// instead of an exp per score. Kept only for a lattice with few gaps (products per score ≤ 4).
void SampledInterceptSchools::findScoreLattice(const std::vector<double>& scores)
{
    if (scores.size() < 3)
        return;
    double step = std::numeric_limits<double>::infinity();
    for (std::size_t j = 1; j < scores.size(); ++j)
        step = std::min(step, scores[j] - scores[j - 1]);
    const double span = scores.back() - scores.front();
    std::vector<int> index;
    for (double v : scores) {
        const double k = std::round((v - scores.front()) / step);
        if (std::abs(scores.front() + k * step - v) > 1e-12 * std::max(1.0, span) ||
            k > 4.0 * static_cast<double>(scores.size()))
            return;
        index.push_back(static_cast<int>(k));
    }
    m_latticeStep = step;
    m_latticeIndex = std::move(index);
}

void SampledInterceptSchools::scorePrecisions(double g0, double gv, Eigen::ArrayXd& precision) const
{
    precision.resize(m_verbalScores.size());
    if (!m_latticeIndex.empty()) {
        // exp(−2(γ_0 + γ_v v_j)) = base · q^k_j, the sequence monotone, so a product that overflows
        // or underflows does so where the exact value does too; otherwise the relative error is
        // at most k_j roundings (about 1e-14 here).
        double p = std::exp(-2 * (g0 + gv * m_verbalScores(0)));
        const double q = std::exp(-2 * gv * m_latticeStep);
        if (std::isfinite(p) && p > 0 && std::isfinite(q) && q > 0) {
            int k = 0;
            for (Eigen::Index j = 0; j < precision.size(); ++j) {
                for (; k < m_latticeIndex[static_cast<std::size_t>(j)]; ++k)
                    p *= q;
                precision(j) = p;
            }
            return;
        }
    }
    precision = (-2 * (g0 + gv * m_verbalScores)).exp();
}

double SampledInterceptSchools::logLik(const Eigen::VectorXd& t) const
{
    const double a0 = t(0), logSa = t(1), sa2 = std::exp(2 * logSa), bv = t(2), bf = t(3), bc = t(4),
                 g0 = t(5), gv = t(6);
    // Per distinct verbal score at this θ: a fixed cost of every evaluation, which would mask the
    // runs' difference (in scalar exps, as large as 300 pupils' terms).
    thread_local Eigen::ArrayXd scorePrecision;
    scorePrecisions(g0, gv, scorePrecision);
    const double* precision = scorePrecision.data();
    const int* score = m_scoreIndex.data();
    const double *y = m_attain.data(), *v = m_verbal.data(), *f = m_female.data(), *c = m_social.data();
    auto mean = [&](std::size_t i) { return bv * v[i] + bf * f[i] + bc * c[i]; };
    double sum = 0;
    const auto sampled = static_cast<std::size_t>(m_sampledSchools);
    for (std::size_t s = 0; s < sampled; ++s) {
        const std::size_t from = m_start[s], to = m_start[s + 1];
        const auto n = static_cast<double>(to - from);
        const double a = t(kAttainmentDim + static_cast<Eigen::Index>(s));
        double quad = 0;
        for (std::size_t i = from; i < to; ++i) {
            const double res = y[i] - a - mean(i);
            quad += res * res * precision[score[i]];
        }
        const double z = a - a0;
        sum += -0.5 * z * z / sa2 - logSa - (n + 1) * stats::kHalfLog2Pi - (n * g0 + gv * m_sumVerbal[s]) -
               0.5 * quad;
    }
    if (m_virtualWeight.size() == 0)
        return sum;

    // The virtual schools' marginals (attainmentSchoolMarginal): per school, its pupils' sums of
    // p_i, p_i r_i and p_i r_i² (p_i the precision, r_i the residual without the intercept),
    // two pupils at a time to halve the chains of additions; then every school's terms at once
    // in Eigen's vectorised division and log (one scalar log per school was a fifth of the
    // incremental run's evaluation).
    thread_local Eigen::ArrayXd p, r, q;
    const Eigen::Index schools = m_virtualWeight.size();
    p.resize(schools);
    r.resize(schools);
    q.resize(schools);
    for (Eigen::Index k = 0; k < schools; ++k) {
        const std::size_t from = m_start[sampled + static_cast<std::size_t>(k)],
                          to = m_start[sampled + static_cast<std::size_t>(k) + 1];
        double p0 = 0, p1 = 0, r0 = 0, r1 = 0, q0 = 0, q1 = 0;
        auto addPupil = [&](std::size_t i, double& pSum, double& rSum, double& qSum) {
            const double res = y[i] - mean(i), prec = precision[score[i]];
            pSum += prec;
            rSum += res * prec;
            qSum += res * res * prec;
        };
        std::size_t i = from;
        for (; i + 1 < to; i += 2) {
            addPupil(i, p0, r0, q0);
            addPupil(i + 1, p1, r1, q1);
        }
        if (i < to)
            addPupil(i, p0, r0, q0);
        p(k) = p0 + p1;
        r(k) = r0 + r1;
        q(k) = q0 + q1;
    }
    const double invSa2 = 1 / sa2;
    const Eigen::ArrayXd& w = m_virtualWeight;
    const Eigen::ArrayXd& omega = m_virtualOmega;
    // c = ω p + 1/s_a², b = ω r + α_0/s_a²; 1 + s_a² ω p = s_a² c
    thread_local Eigen::ArrayXd cc, b;
    cc = omega * p + invSa2;
    b = omega * r + a0 * invSa2;
    // Σ_k w_k ω_k Σ_i log(√(2π) sd_i), with log sd_i = γ_0 + γ_v v_i
    const double logSd = (stats::kHalfLog2Pi + g0) * m_virtualPupils + gv * m_virtualSumVerbal;
    return sum - logSd - 0.5 * (w * omega * q).sum() + 0.5 * (w * b.square() / cc).sum() -
           0.5 * (w * (sa2 * cc).log()).sum() - 0.5 * a0 * a0 * invSa2 * w.sum();
}

} // namespace evx::models
