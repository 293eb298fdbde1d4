#include "models/attainment_school_set.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <algorithm>
#include <cmath>

namespace evx::models {

AttainmentSchoolSet::AttainmentSchoolSet(const std::vector<const Pupils*>& schools,
                                         const std::vector<double>& weights)
{
    if (schools.size() != weights.size())
        throw InvalidParameter("a weighted set of schools needs one weight per school");
    std::vector<const Pupils*> kept;
    for (std::size_t s = 0; s < schools.size(); ++s)
        if (weights[s] > 0) {
            kept.push_back(schools[s]);
            m_schoolWeight.push_back(weights[s]);
        }
    for (const Pupils* p : kept)
        m_verbal.insert(m_verbal.end(), p->verbal.begin(), p->verbal.end());
    std::sort(m_verbal.begin(), m_verbal.end());
    m_verbal.erase(std::unique(m_verbal.begin(), m_verbal.end()), m_verbal.end());
    const std::size_t nu = m_verbal.size();
    auto verbalIndex = [&](double v) {
        return static_cast<int>(std::lower_bound(m_verbal.begin(), m_verbal.end(), v) - m_verbal.begin());
    };

    m_count.assign(nu, 0.0);
    m_mean.assign(nu, {0, 0, 0});
    m_scatter.assign(nu, {0, 0, 0, 0, 0, 0});
    // Two passes (means, then centred products) keep the residual sum of squares free of the
    // cancellation a raw Σ y² − (Σ y)²/n would bring.
    for (std::size_t s = 0; s < kept.size(); ++s) {
        const Pupils& p = *kept[s];
        const double a = m_schoolWeight[s] * p.withinWeight;
        for (std::size_t i = 0; i < p.attain.size(); ++i) {
            const int u = verbalIndex(p.verbal[i]);
            m_count[u] += a;
            m_mean[u][0] += a * p.attain[i];
            m_mean[u][1] += a * p.female[i];
            m_mean[u][2] += a * p.social[i];
        }
        m_constant -= a * static_cast<double>(p.attain.size()) * stats::kHalfLog2Pi;
        m_logSdCount += a * static_cast<double>(p.attain.size());
        for (double v : p.verbal)
            m_logSdVerbal += a * v;
        m_weightSum += m_schoolWeight[s];
    }
    for (std::size_t u = 0; u < nu; ++u)
        for (double& x : m_mean[u])
            x /= m_count[u];
    std::vector<int> slot(nu, -1);
    for (std::size_t s = 0; s < kept.size(); ++s) {
        const Pupils& p = *kept[s];
        const double a = m_schoolWeight[s] * p.withinWeight, w = p.withinWeight;
        const auto first = static_cast<int>(m_cellVerbal.size());
        for (std::size_t i = 0; i < p.attain.size(); ++i) {
            const int u = verbalIndex(p.verbal[i]);
            const double dy = p.attain[i] - m_mean[u][0], df = p.female[i] - m_mean[u][1],
                         dc = p.social[i] - m_mean[u][2];
            auto& sc = m_scatter[u];
            sc[0] += a * dy * dy;
            sc[1] += a * dy * df;
            sc[2] += a * dy * dc;
            sc[3] += a * df * df;
            sc[4] += a * df * dc;
            sc[5] += a * dc * dc;
            if (slot[u] < 0) {
                slot[u] = static_cast<int>(m_cellVerbal.size());
                m_cellVerbal.push_back(u);
                m_cellN.push_back(0);
                m_cellY.push_back(0);
                m_cellF.push_back(0);
                m_cellC.push_back(0);
            }
            m_cellN[slot[u]] += w;
            m_cellY[slot[u]] += w * p.attain[i];
            m_cellF[slot[u]] += w * p.female[i];
            m_cellC[slot[u]] += w * p.social[i];
        }
        for (std::size_t c = first; c < m_cellVerbal.size(); ++c)
            slot[m_cellVerbal[c]] = -1;
        m_schoolEnd.push_back(static_cast<int>(m_cellVerbal.size()));
    }
}

double AttainmentSchoolSet::logLik(const Eigen::VectorXd& t) const
{
    if (m_schoolEnd.empty())
        return 0;
    const double a0 = t(0), sa2 = std::exp(2 * t(1)), bv = t(2), bf = t(3), bc = t(4), g0 = t(5), gv = t(6);
    const auto nu = static_cast<Eigen::Index>(m_verbal.size());
    // One exp per distinct verbal score, shared by every pupil and school that has it.
    Eigen::ArrayXd prec(nu);
    double quad = 0;
    for (Eigen::Index u = 0; u < nu; ++u) {
        prec[u] = std::exp(-2 * (g0 + gv * m_verbal[u]));
        const auto& m = m_mean[u];
        const auto& s = m_scatter[u];
        const double r = m[0] - bf * m[1] - bc * m[2] - bv * m_verbal[u];
        quad += prec[u] * (m_count[u] * r * r + s[0] - 2 * bf * s[1] - 2 * bc * s[2] + bf * bf * s[3] +
                           2 * bf * bc * s[4] + bc * bc * s[5]);
    }
    const double invSa2 = 1 / sa2, prior = a0 * invSa2;
    double schools = 0;
    int c = 0;
    for (std::size_t s = 0; s < m_schoolEnd.size(); ++s) {
        double p = 0, r = 0;
        for (; c < m_schoolEnd[s]; ++c) {
            const double e = prec[m_cellVerbal[c]];
            p += e * m_cellN[c];
            r += e * (m_cellY[c] - bv * m_verbal[m_cellVerbal[c]] * m_cellN[c] - bf * m_cellF[c] -
                      bc * m_cellC[c]);
        }
        const double b = r + prior;
        schools += m_schoolWeight[s] * (-0.5 * std::log1p(sa2 * p) + 0.5 * b * b / (p + invSa2));
    }
    return m_constant - (g0 * m_logSdCount + gv * m_logSdVerbal) - 0.5 * quad -
           0.5 * a0 * a0 * invSa2 * m_weightSum + schools;
}

} // namespace evx::models
