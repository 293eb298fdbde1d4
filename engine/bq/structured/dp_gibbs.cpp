#include "bq/structured/dp_gibbs.h"

#include "bq/structured/dp_exact.h"
#include "bq/structured/dp_prior.h"
#include "core/errors.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace evx::bq::structured {

namespace {

struct BlockPosterior {
    double mean, variance;
};

BlockPosterior blockPosterior(int count, double sum, const DpSettings& s)
{
    const double precision = 1 / (s.baseSd * s.baseSd) + count / (s.componentSd * s.componentSd);
    return {(s.baseMean / (s.baseSd * s.baseSd) + sum / (s.componentSd * s.componentSd)) / precision,
            1 / precision};
}

double logNormal(double x, double mean, double variance)
{
    return -0.5 * std::log(2 * M_PI * variance) - 0.5 * (x - mean) * (x - mean) / variance;
}

// Labels renumbered by first appearance, so that equal partitions compare equal.
std::vector<int> canonical(const std::vector<int>& labels)
{
    std::map<int, int> rename;
    std::vector<int> out(labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i) {
        auto it = rename.try_emplace(labels[i], int(rename.size())).first;
        out[i] = it->second;
    }
    return out;
}

} // namespace

DpGibbsSampler::DpGibbsSampler(std::vector<double> x, const DpSettings& settings, std::uint64_t seed)
    : m_x(std::move(x)), m_settings(settings), m_rng(seed), m_labels(m_x.size(), 0)
{
    validateDpSettings(settings);
    if (settings.components != DpComponents::Gaussian)
        throw InvalidParameter("the collapsed Gibbs sampler needs Gaussian components (a conjugate base)");
    if (m_x.empty())
        throw InvalidParameter("the Gibbs sampler needs at least one point");
    m_counts = {int(m_x.size())};
    double sum = 0;
    for (double v : m_x)
        sum += v;
    m_sums = {sum};
}

void DpGibbsSampler::sweep()
{
    std::uniform_real_distribution<double> uniform(0, 1);
    std::vector<double> logP;
    for (std::size_t i = 0; i < m_x.size(); ++i) {
        const int old = m_labels[i];
        --m_counts[old];
        m_sums[old] -= m_x[i];
        if (m_counts[old] == 0) {
            // Drop the empty block by moving the last one into its place.
            const int last = int(m_counts.size()) - 1;
            if (old != last) {
                m_counts[old] = m_counts[last];
                m_sums[old] = m_sums[last];
                for (int& l : m_labels)
                    if (l == last)
                        l = old;
            }
            m_counts.pop_back();
            m_sums.pop_back();
        }
        const int k = int(m_counts.size());
        logP.assign(k + 1, 0);
        for (int b = 0; b <= k; ++b) {
            const int count = b < k ? m_counts[b] : 0;
            const BlockPosterior post = blockPosterior(count, b < k ? m_sums[b] : 0, m_settings);
            logP[b] =
                std::log(b < k ? double(count) : m_settings.alpha) +
                logNormal(m_x[i], post.mean, m_settings.componentSd * m_settings.componentSd + post.variance);
        }
        const double best = *std::max_element(logP.begin(), logP.end());
        double total = 0;
        for (double& v : logP)
            total += (v = std::exp(v - best));
        double u = uniform(m_rng) * total;
        int chosen = 0;
        for (; chosen < k; ++chosen) {
            u -= logP[chosen];
            if (u < 0)
                break;
        }
        if (chosen == k) {
            m_counts.push_back(0);
            m_sums.push_back(0);
        }
        m_labels[i] = chosen;
        ++m_counts[chosen];
        m_sums[chosen] += m_x[i];
    }
}

MixingMeasure drawDpPosteriorMeasure(const std::vector<double>& x, const std::vector<int>& labels,
                                     const DpSettings& settings, std::mt19937_64& rng)
{
    const std::vector<int> c = canonical(labels);
    const int k = c.empty() ? 0 : *std::max_element(c.begin(), c.end()) + 1;
    std::vector<int> counts(k, 0);
    std::vector<double> sums(k, 0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        ++counts[c[i]];
        sums[c[i]] += x[i];
    }
    std::normal_distribution<double> normal(0, 1);
    // Dirichlet(n_1..n_K, α) by normalised gammas.
    std::vector<double> gammas(k + 1);
    double total = 0;
    for (int b = 0; b <= k; ++b) {
        std::gamma_distribution<double> gamma(b < k ? double(counts[b]) : settings.alpha, 1.0);
        total += (gammas[b] = gamma(rng));
    }
    MixingMeasure g;
    for (int b = 0; b < k; ++b) {
        const BlockPosterior post = blockPosterior(counts[b], sums[b], settings);
        const double mu = post.mean + std::sqrt(post.variance) * normal(rng);
        g.weights.push_back(gammas[b] / total);
        g.atoms.push_back((mu - settings.baseMean) / settings.baseSd);
    }
    const MixingMeasure rest = drawDpPriorMeasure(settings.alpha, rng);
    const double share = gammas[k] / total;
    for (std::size_t j = 0; j < rest.weights.size(); ++j) {
        g.weights.push_back(share * rest.weights[j]);
        g.atoms.push_back(rest.atoms[j]);
    }
    return g;
}

DpDesignSampler::DpDesignSampler(std::vector<double> x, const DpSettings& samplingSettings, DpDesign design,
                                 std::uint64_t seed)
    : m_chain(x, samplingSettings, seed), m_x(std::move(x)), m_settings(samplingSettings), m_design(design),
      m_priorRng(seed ^ 0x5851f42d4c957f2dULL)
{
}

DpDesignSample DpDesignSampler::next()
{
    const bool posterior =
        m_design == DpDesign::Posterior || (m_design == DpDesign::Mixed && m_drawn % 2 == 0);
    ++m_drawn;
    DpDesignSample s;
    if (!posterior) {
        s.measure = drawDpPriorMeasure(m_settings.alpha, m_priorRng);
        return s;
    }
    for (int t = 0; t < (m_burnedIn ? kDpThin : kDpBurnIn); ++t)
        m_chain.sweep();
    m_burnedIn = true;
    s.fromPosterior = true;
    s.labels = m_chain.labels();
    s.measure = drawDpPosteriorMeasure(m_x, s.labels, m_settings, m_chain.rng());
    return s;
}

double dpLogPartitionSum(const std::vector<double>& x, const std::vector<std::vector<int>>& partitions,
                         const DpSettings& settings)
{
    validateDpSettings(settings);
    if (x.size() > 63)
        throw InvalidParameter("the partition sum handles at most 63 points");
    std::set<std::vector<int>> distinct;
    for (const auto& p : partitions)
        distinct.insert(canonical(p));
    std::unordered_map<std::uint64_t, double> blockCache;
    std::vector<double> terms, block;
    for (const auto& p : distinct) {
        const int k = p.empty() ? 0 : *std::max_element(p.begin(), p.end()) + 1;
        double term = dpLogCrp(p, settings.alpha);
        for (int b = 0; b < k; ++b) {
            std::uint64_t mask = 0;
            block.clear();
            for (std::size_t i = 0; i < x.size(); ++i)
                if (p[i] == b) {
                    mask |= std::uint64_t(1) << i;
                    block.push_back(x[i]);
                }
            auto it = blockCache.find(mask);
            if (it == blockCache.end())
                it = blockCache.emplace(mask, dpLogBlockMarginal(block, settings)).first;
            term += it->second;
        }
        terms.push_back(term);
    }
    if (terms.empty())
        return -std::numeric_limits<double>::infinity();
    const double best = *std::max_element(terms.begin(), terms.end());
    double sum = 0;
    for (double t : terms)
        sum += std::exp(t - best);
    return best + std::log(sum);
}

double dpShortChainLogLowerBound(const std::vector<double>& x, const DpSettings& query, int sweeps,
                                 std::uint64_t seed)
{
    DpSettings gaussian = query;
    gaussian.components = DpComponents::Gaussian;
    DpGibbsSampler chain(x, gaussian, seed);
    for (int t = 0; t < sweeps / 4; ++t)
        chain.sweep();
    std::vector<std::vector<int>> visited;
    for (int t = 0; t < sweeps; ++t) {
        chain.sweep();
        visited.push_back(chain.labels());
    }
    return dpLogPartitionSum(x, visited, query);
}

} // namespace evx::bq::structured
