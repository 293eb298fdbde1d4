#include "models/attainment_sampled_intercepts.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <algorithm>
#include <cmath>

namespace evx::models {

SampledInterceptSchools::SampledInterceptSchools(const std::vector<const Pupils*>& sampled,
                                                 const std::vector<const Pupils*>& virtual_,
                                                 const std::vector<double>& virtualWeights)
    : m_sampledSchools(static_cast<int>(sampled.size()))
{
    if (virtual_.size() != virtualWeights.size())
        throw InvalidParameter("a weighted set of schools needs one weight per school");
    std::vector<const Pupils*> schools = sampled;
    for (std::size_t k = 0; k < virtual_.size(); ++k)
        if (virtualWeights[k] > 0) { // as a sum of w·(finite) would have a weight of 0 add nothing
            schools.push_back(virtual_[k]);
            m_weight.push_back(virtualWeights[k]);
            m_omega.push_back(virtual_[k]->withinWeight);
        }
    for (const Pupils* p : sampled)
        if (p->withinWeight != 1)
            throw InvalidParameter(
                "a school whose intercept is sampled must be a real one (within-group weight 1)");
    m_start.push_back(0);
    for (const Pupils* p : schools) {
        m_attain.insert(m_attain.end(), p->attain.begin(), p->attain.end());
        m_verbal.insert(m_verbal.end(), p->verbal.begin(), p->verbal.end());
        m_female.insert(m_female.end(), p->female.begin(), p->female.end());
        m_social.insert(m_social.end(), p->social.begin(), p->social.end());
        m_start.push_back(m_attain.size());
        m_sumVerbal.push_back(0);
        for (double v : p->verbal)
            m_sumVerbal.back() += v;
    }
    std::vector<double> scores = m_verbal;
    std::sort(scores.begin(), scores.end());
    scores.erase(std::unique(scores.begin(), scores.end()), scores.end());
    for (double v : m_verbal)
        m_scoreIndex.push_back(
            static_cast<int>(std::lower_bound(scores.begin(), scores.end(), v) - scores.begin()));
    m_verbalScores =
        Eigen::Map<const Eigen::ArrayXd>(scores.data(), static_cast<Eigen::Index>(scores.size()));
}

double SampledInterceptSchools::logLik(const Eigen::VectorXd& t) const
{
    const double a0 = t(0), logSa = t(1), sa2 = std::exp(2 * logSa), bv = t(2), bf = t(3), bc = t(4),
                 g0 = t(5), gv = t(6);
    // Per distinct verbal score at this θ, in Eigen's vectorised exp: a fixed cost of every
    // evaluation, as large as 300 pupils' terms in scalar exps, which would mask the runs' difference.
    thread_local Eigen::ArrayXd scorePrecision;
    scorePrecision = (-2 * (g0 + gv * m_verbalScores)).exp();
    const double* precision = scorePrecision.data();
    // The virtual schools' marginals (attainmentSchoolMarginal) with θ's part computed once.
    const double invSa2 = 1 / sa2, a0InvSa2 = a0 * invSa2, interceptPrior = 0.5 * a0 * a0InvSa2;
    const int* score = m_scoreIndex.data();
    const double *y = m_attain.data(), *v = m_verbal.data(), *f = m_female.data(), *c = m_social.data();
    double sum = 0;
    for (std::size_t s = 0; s + 1 < m_start.size(); ++s) {
        const std::size_t from = m_start[s], to = m_start[s + 1];
        const auto n = static_cast<double>(to - from);
        const double sumLogSd = n * g0 + gv * m_sumVerbal[s];
        if (static_cast<int>(s) < m_sampledSchools) {
            const double a = t(kAttainmentDim + static_cast<Eigen::Index>(s));
            double quad = 0;
            for (std::size_t i = from; i < to; ++i) {
                const double res = y[i] - a - (bv * v[i] + bf * f[i] + bc * c[i]);
                quad += res * res * precision[score[i]];
            }
            const double z = a - a0;
            sum += -0.5 * z * z / sa2 - logSa - (n + 1) * stats::kHalfLog2Pi - sumLogSd - 0.5 * quad;
        } else { // the intercept integrated out
            double quad = 0, p = 0, r = 0;
            for (std::size_t i = from; i < to; ++i) {
                const double res = y[i] - (bv * v[i] + bf * f[i] + bc * c[i]), prec = precision[score[i]];
                quad += res * res * prec;
                p += prec;
                r += res * prec;
            }
            const std::size_t k = s - static_cast<std::size_t>(m_sampledSchools);
            const double omega = m_omega[k], c = omega * p + invSa2, b = omega * r + a0InvSa2;
            // 1 + s_a² ω p = s_a² c
            sum += m_weight[k] * (-omega * (n * stats::kHalfLog2Pi + sumLogSd + 0.5 * quad) -
                                  0.5 * std::log(sa2 * c) + 0.5 * b * b / c - interceptPrior);
        }
    }
    return sum;
}

} // namespace evx::models
