#include "bq/structured/dp_exact.h"

#include "core/errors.h"

#include <Eigen/Core>

#include <boost/math/quadrature/gauss.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace evx::bq::structured {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Each subset's size, Σ x and Σ x² about the data's mean (centred so that the λ-dependent
// expansion Σ(x − λ)² = S2 − 2λ'S1 + mλ'² does not cancel), built from the subset without its
// lowest point.
struct SubsetSums {
    std::vector<int> size;
    std::vector<double> s1, s2;
    double centre = 0;
};

SubsetSums subsetSums(const std::vector<double>& x)
{
    const int n = int(x.size());
    SubsetSums t;
    for (double v : x)
        t.centre += v / n;
    const std::size_t count = std::size_t(1) << n;
    t.size.assign(count, 0);
    t.s1.assign(count, 0);
    t.s2.assign(count, 0);
    for (std::size_t mask = 1; mask < count; ++mask) {
        const int i = std::countr_zero(mask);
        const std::size_t rest = mask & (mask - 1);
        const double d = x[i] - t.centre;
        t.size[mask] = t.size[rest] + 1;
        t.s1[mask] = t.s1[rest] + d;
        t.s2[mask] = t.s2[rest] + d * d;
    }
    return t;
}

void gaussianTable(const SubsetSums& t, const DpSettings& s, std::vector<double>& out)
{
    const double s2 = s.componentSd * s.componentSd, p2 = s.baseSd * s.baseSd;
    const double lam = s.baseMean - t.centre, logSigma = std::log(s.componentSd);
    const double logSqrt2Pi = 0.5 * std::log(2 * std::numbers::pi);
    out.assign(t.size.size(), 0);
    for (std::size_t mask = 1; mask < t.size.size(); ++mask) {
        const double m = t.size[mask];
        const double sum = t.s1[mask] - m * lam;
        const double sumSq = t.s2[mask] - 2 * lam * t.s1[mask] + m * lam * lam;
        const double denom = s2 + m * p2;
        out[mask] = -m * logSqrt2Pi - (m - 1) * logSigma - 0.5 * std::log(denom) -
                    (sumSq - p2 * sum * sum / denom) / (2 * s2);
    }
}

// Nodes of a composite 8-point Gauss–Legendre rule over μ shared by every subset, so that a
// subset's integrand is its parent's plus one point's log density at each node. Panels are
// 0.2σ wide at the points and 0.2σ_p wide over the range of base means, widening by a quarter of
// the distance away from both (where the integrand varies on that scale); the ends are 12 σ_p +
// 12 σ beyond every point and base mean, as in the per-block quadrature.
struct Nodes {
    std::vector<double> mu, logWeight;
};

Nodes quadratureNodes(const std::vector<double>& x, const DpSettings& s, double lamMin, double lamMax)
{
    const double xMin = *std::min_element(x.begin(), x.end()), xMax = *std::max_element(x.begin(), x.end());
    const double reach = 12 * s.baseSd + 12 * s.componentSd;
    const double lo = std::min(xMin, lamMin) - reach, hi = std::max(xMax, lamMax) + reach;
    auto width = [&](double mu) {
        double dx = INFINITY;
        for (double v : x)
            dx = std::min(dx, std::fabs(mu - v));
        const double dl = mu < lamMin ? lamMin - mu : (mu > lamMax ? mu - lamMax : 0.0);
        return std::min(0.2 * s.componentSd + 0.25 * dx, 0.2 * s.baseSd + 0.25 * dl);
    };
    const auto& abscissa = boost::math::quadrature::gauss<double, 8>::abscissa();
    const auto& weights = boost::math::quadrature::gauss<double, 8>::weights();
    Nodes nodes;
    for (double a = lo; a < hi;) {
        const double b = std::min(hi, a + width(a)), half = 0.5 * (b - a), mid = 0.5 * (a + b);
        // Boost stores the non-negative abscissae of the symmetric rule (zero excluded for even n).
        for (std::size_t k = 0; k < abscissa.size(); ++k)
            for (double sign : {-1.0, 1.0}) {
                nodes.mu.push_back(mid + sign * half * abscissa[k]);
                nodes.logWeight.push_back(std::log(half * weights[k]));
            }
        a = b;
    }
    return nodes;
}

// log m(B) for every subset at each base mean, by depth-first extension of subsets so that one
// buffer of per-node sums per depth suffices (2ⁿ × nodes would not fit at n = 14).
std::vector<std::vector<double>> studentTTables(const std::vector<double>& x, const DpSettings& s,
                                                const std::vector<double>& baseMeans)
{
    const int n = int(x.size());
    const Nodes nodes = quadratureNodes(x, s, *std::min_element(baseMeans.begin(), baseMeans.end()),
                                        *std::max_element(baseMeans.begin(), baseMeans.end()));
    const std::size_t q = nodes.mu.size();
    const Eigen::Index nq = Eigen::Index(q);
    std::vector<Eigen::ArrayXd> pointLog(n, Eigen::ArrayXd(nq));
    for (int i = 0; i < n; ++i)
        for (Eigen::Index k = 0; k < nq; ++k)
            pointLog[i][k] = dpLogComponentDensity(x[i], nodes.mu[k], s);
    // The prior density times the rule's weight, per base mean.
    std::vector<Eigen::ArrayXd> prior(baseMeans.size(), Eigen::ArrayXd(nq));
    const double logNorm = -0.5 * std::log(2 * std::numbers::pi) - std::log(s.baseSd);
    for (std::size_t g = 0; g < baseMeans.size(); ++g)
        for (Eigen::Index k = 0; k < nq; ++k)
            prior[g][k] =
                nodes.logWeight[k] + logNorm - 0.5 * std::pow((nodes.mu[k] - baseMeans[g]) / s.baseSd, 2);
    std::vector<std::vector<double>> out(baseMeans.size(), std::vector<double>(std::size_t(1) << n, 0));
    // The log-sum-exp over the nodes runs 2ⁿ times per base mean: Eigen's vectorised exp pays here.
    std::vector<Eigen::ArrayXd> stack(n + 1, Eigen::ArrayXd::Zero(nq));
    Eigen::ArrayXd joint(nq);
    auto visit = [&](auto&& self, std::size_t mask, int from, int depth) -> void {
        for (int i = from; i < n; ++i) {
            stack[depth + 1] = stack[depth] + pointLog[i];
            const std::size_t child = mask | (std::size_t(1) << i);
            for (std::size_t g = 0; g < baseMeans.size(); ++g) {
                joint = stack[depth + 1] + prior[g];
                const double best = joint.maxCoeff();
                out[g][child] = best + std::log((joint - best).exp().sum());
            }
            self(self, child, i + 1, depth + 1);
        }
    };
    visit(visit, 0, 0, 0);
    return out;
}

// log w(B) = log α + log Γ(|B|) + log m(B).
std::vector<double> logBlockWeights(const std::vector<double>& logM, double alpha)
{
    std::vector<double> w(logM.size(), 0);
    const double logAlpha = std::log(alpha);
    for (std::size_t mask = 1; mask < logM.size(); ++mask)
        w[mask] = logAlpha + std::lgamma(double(std::popcount(mask))) + logM[mask];
    return w;
}

double logSpaceRecursion(const std::vector<double>& logW, std::size_t full)
{
    std::vector<double> g(full + 1, kNegInf), terms;
    g[0] = 0;
    for (std::size_t set = 1; set <= full; ++set) {
        const std::size_t low = set & (~set + 1), rest = set ^ low;
        terms.clear();
        double best = kNegInf;
        for (std::size_t sub = rest;; sub = (sub - 1) & rest) {
            const std::size_t b = low | sub;
            terms.push_back(logW[b] + g[set ^ b]);
            best = std::max(best, terms.back());
            if (sub == 0)
                break;
        }
        double sum = 0;
        if (std::isfinite(best))
            for (double v : terms)
                sum += std::exp(v - best);
        g[set] = std::isfinite(best) ? best + std::log(sum) : kNegInf;
    }
    return g[full];
}

// Per-point scale c = max log w(B)/|B|: every scaled factor is ≤ 1.
double perPointScale(const std::vector<double>& logW)
{
    double c = kNegInf;
    for (std::size_t mask = 1; mask < logW.size(); ++mask)
        c = std::max(c, logW[mask] / std::popcount(mask));
    return c;
}

} // namespace

void checkDpExactSize(int n)
{
    if (n < 1)
        throw InvalidParameter("the exact evidence needs at least one point");
    if (n > kDpExactMaxPoints)
        throw InvalidParameter("the exact DP evidence sums over all set partitions and is limited to n ≤ " +
                               std::to_string(kDpExactMaxPoints) + " points (got " + std::to_string(n) + ")");
}

std::vector<double> dpLogBlockMarginals(const std::vector<double>& x, const DpSettings& settings)
{
    checkDpExactSize(int(x.size()));
    validateDpSettings(settings);
    if (settings.components == DpComponents::StudentT)
        return studentTTables(x, settings, {settings.baseMean}).front();
    std::vector<double> out;
    gaussianTable(subsetSums(x), settings, out);
    return out;
}

double dpLogEvidenceFromBlocks(const std::vector<double>& logBlockMarginals, int n, double alpha)
{
    checkDpExactSize(n);
    const std::size_t full = (std::size_t(1) << n) - 1;
    if (logBlockMarginals.size() != full + 1)
        throw InvalidParameter("the block table must hold one value per subset");
    const std::vector<double> logW = logBlockWeights(logBlockMarginals, alpha);
    const double c = perPointScale(logW);
    std::vector<double> w(full + 1), f(full + 1, 0);
    for (std::size_t mask = 1; mask <= full; ++mask)
        w[mask] = std::exp(logW[mask] - c * std::popcount(mask));
    f[0] = 1;
    for (std::size_t set = 1; set <= full; ++set) {
        const std::size_t low = set & (~set + 1), rest = set ^ low;
        double sum = 0;
        for (std::size_t sub = rest;; sub = (sub - 1) & rest) {
            const std::size_t b = low | sub;
            sum += w[b] * f[set ^ b];
            if (sub == 0)
                break;
        }
        f[set] = sum;
    }
    const double logNorm = std::lgamma(alpha + n) - std::lgamma(alpha);
    // Terms lost to underflow are below 1e-300 of factors ≤ 1 (times at most Bell(14) ≈ 2e8 of
    // them), negligible next to a total above 1e-250.
    if (f[full] > 1e-250 && std::isfinite(f[full]))
        return std::log(f[full]) + c * n - logNorm;
    return logSpaceRecursion(logW, full) - logNorm;
}

double dpExactLogEvidence(const std::vector<double>& x, const DpSettings& settings)
{
    return dpLogEvidenceFromBlocks(dpLogBlockMarginals(x, settings), int(x.size()), settings.alpha);
}

std::vector<double> dpExactLogEvidenceOverBaseMeans(const std::vector<double>& x, const DpSettings& settings,
                                                    const std::vector<double>& baseMeans)
{
    checkDpExactSize(int(x.size()));
    validateDpSettings(settings);
    std::vector<double> out;
    out.reserve(baseMeans.size());
    DpSettings s = settings;
    if (settings.components == DpComponents::StudentT) {
        if (baseMeans.empty())
            return out;
        for (const auto& table : studentTTables(x, settings, baseMeans))
            out.push_back(dpLogEvidenceFromBlocks(table, int(x.size()), s.alpha));
        return out;
    }
    const SubsetSums sums = subsetSums(x);
    std::vector<double> table;
    for (double lam : baseMeans) {
        s.baseMean = lam;
        gaussianTable(sums, s, table);
        out.push_back(dpLogEvidenceFromBlocks(table, int(x.size()), s.alpha));
    }
    return out;
}

std::vector<double> dpExactLogEvidenceOverDofs(const std::vector<double>& x, const DpSettings& settings,
                                               const std::vector<double>& dofs)
{
    std::vector<double> out;
    out.reserve(dofs.size());
    DpSettings s = settings;
    s.components = DpComponents::StudentT;
    for (double nu : dofs) {
        s.dof = nu;
        out.push_back(dpExactLogEvidence(x, s));
    }
    return out;
}

std::vector<double> dpBlockCountPosterior(const std::vector<double>& x, const DpSettings& settings)
{
    const int n = int(x.size());
    const std::vector<double> logW = logBlockWeights(dpLogBlockMarginals(x, settings), settings.alpha);
    const std::size_t full = (std::size_t(1) << n) - 1;
    const double c = perPointScale(logW);
    std::vector<double> w(full + 1);
    for (std::size_t mask = 1; mask <= full; ++mask)
        w[mask] = std::exp(logW[mask] - c * std::popcount(mask));
    // f[set · (n + 1) + k]: the scaled sum over partitions of `set` into k blocks.
    const std::size_t stride = n + 1;
    std::vector<double> f((full + 1) * stride, 0);
    f[0] = 1;
    for (std::size_t set = 1; set <= full; ++set) {
        const std::size_t low = set & (~set + 1), rest = set ^ low;
        const int maxK = std::popcount(set);
        for (std::size_t sub = rest;; sub = (sub - 1) & rest) {
            const std::size_t b = low | sub, other = set ^ b;
            for (int k = 1; k <= maxK; ++k)
                f[set * stride + k] += w[b] * f[other * stride + k - 1];
            if (sub == 0)
                break;
        }
    }
    std::vector<double> p(stride, 0);
    double total = 0;
    for (int k = 1; k <= n; ++k)
        total += f[full * stride + k];
    if (!(total > 0) || !std::isfinite(total))
        throw NumericalError("P(K | x): the sum over partitions underflowed");
    for (int k = 1; k <= n; ++k)
        p[k] = f[full * stride + k] / total;
    return p;
}

double dpLogCrp(const std::vector<int>& labels, double alpha)
{
    std::vector<int> sorted(labels);
    std::sort(sorted.begin(), sorted.end());
    double v = std::lgamma(alpha) - std::lgamma(alpha + double(labels.size()));
    for (std::size_t i = 0; i < sorted.size();) {
        std::size_t j = i;
        while (j < sorted.size() && sorted[j] == sorted[i])
            ++j;
        v += std::log(alpha) + std::lgamma(double(j - i));
        i = j;
    }
    return v;
}

double dpEnumeratedLogEvidence(const std::vector<double>& x, const DpSettings& settings)
{
    const int n = int(x.size());
    if (n < 1 || n > kDpEnumerationMaxPoints)
        throw InvalidParameter("explicit enumeration of set partitions is limited to n ≤ " +
                               std::to_string(kDpEnumerationMaxPoints));
    validateDpSettings(settings);
    // Restricted growth strings a_0 = 0, a_i ≤ 1 + max(a_0..a_{i−1}): each set partition once.
    std::vector<int> a(n, 0);
    std::vector<double> terms;
    std::vector<double> block;
    while (true) {
        const int k = *std::max_element(a.begin(), a.end()) + 1;
        double term = dpLogCrp(a, settings.alpha);
        for (int b = 0; b < k; ++b) {
            block.clear();
            for (int i = 0; i < n; ++i)
                if (a[i] == b)
                    block.push_back(x[i]);
            term += dpLogBlockMarginal(block, settings);
        }
        terms.push_back(term);
        // Next string: increment the last position that may grow, reset the ones after it.
        int i = n - 1;
        for (; i > 0; --i) {
            const int prefixMax = *std::max_element(a.begin(), a.begin() + i);
            if (a[i] <= prefixMax)
                break;
        }
        if (i == 0)
            break;
        ++a[i];
        std::fill(a.begin() + i + 1, a.end(), 0);
    }
    const double best = *std::max_element(terms.begin(), terms.end());
    double sum = 0;
    for (double t : terms)
        sum += std::exp(t - best);
    return best + std::log(sum);
}

} // namespace evx::bq::structured
