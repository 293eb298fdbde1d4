#include "bq/structured/dp_mixture.h"

#include "core/errors.h"

#include <Eigen/Core>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/log1p.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>

namespace evx::bq::structured {

namespace {

const double kLogSqrt2Pi = 0.5 * std::log(2 * std::numbers::pi);

// The parts of a component's log density that do not depend on x − μ.
struct ComponentConstants {
    bool studentT = false;
    double logNorm = 0; // log of the density's normalising constant
    double halfNuPlus1 = 0;
    double invNuSigma2 = 0; // 1/(ν σ²)
    double invSigma2 = 0;   // 1/σ²
};

ComponentConstants componentConstants(const DpSettings& s)
{
    ComponentConstants c;
    c.invSigma2 = 1 / (s.componentSd * s.componentSd);
    if (s.components == DpComponents::StudentT) {
        c.studentT = true;
        c.halfNuPlus1 = 0.5 * (s.dof + 1);
        c.invNuSigma2 = c.invSigma2 / s.dof;
        c.logNorm = std::lgamma(0.5 * (s.dof + 1)) - std::lgamma(0.5 * s.dof) -
                    0.5 * std::log(s.dof * std::numbers::pi) - std::log(s.componentSd);
    } else {
        c.logNorm = -kLogSqrt2Pi - std::log(s.componentSd);
    }
    return c;
}

inline double logComponent(double d, const ComponentConstants& c)
{
    return c.studentT ? c.logNorm - c.halfNuPlus1 * std::log1p(d * d * c.invNuSigma2)
                      : c.logNorm - 0.5 * d * d * c.invSigma2;
}

double gaussianLogBlockMarginal(const std::vector<double>& block, const DpSettings& s)
{
    const double m = double(block.size()), s2 = s.componentSd * s.componentSd, p2 = s.baseSd * s.baseSd;
    double sum = 0, sumSq = 0;
    for (double x : block) {
        sum += x - s.baseMean;
        sumSq += (x - s.baseMean) * (x - s.baseMean);
    }
    const double denom = s2 + m * p2;
    return -m * kLogSqrt2Pi - (m - 1) * std::log(s.componentSd) - 0.5 * std::log(denom) -
           (sumSq - p2 * sum * sum / denom) / (2 * s2);
}

double studentTLogBlockMarginal(const std::vector<double>& block, const DpSettings& s)
{
    const ComponentConstants c = componentConstants(s);
    const double logPriorNorm = -kLogSqrt2Pi - std::log(s.baseSd);
    auto logIntegrand = [&](double mu) {
        double v = logPriorNorm - 0.5 * std::pow((mu - s.baseMean) / s.baseSd, 2);
        for (double x : block)
            v += logComponent(x - mu, c);
        return v;
    };
    // The integrand's modes lie near the block's points and the prior mean: split there, and
    // scale by the largest value among them so that exp() neither overflows nor underflows.
    std::vector<double> breaks(block.begin(), block.end());
    breaks.push_back(s.baseMean);
    std::sort(breaks.begin(), breaks.end());
    breaks.erase(std::unique(breaks.begin(), breaks.end()), breaks.end());
    double scale = -std::numeric_limits<double>::infinity();
    for (double b : breaks)
        scale = std::max(scale, logIntegrand(b));
    // Past 12 prior sds (plus 12 component scales) beyond every point the Gaussian prior has
    // fallen by e^{-72}; the t factors are bounded by their value at the mode.
    const double reach = 12 * s.baseSd + 12 * s.componentSd;
    breaks.insert(breaks.begin(), breaks.front() - reach);
    breaks.push_back(breaks.back() + reach);
    auto f = [&](double mu) { return std::exp(logIntegrand(mu) - scale); };
    double total = 0;
    for (std::size_t k = 0; k + 1 < breaks.size(); ++k)
        total += boost::math::quadrature::gauss_kronrod<double, 31>::integrate(f, breaks[k], breaks[k + 1],
                                                                               12, 1e-11);
    if (!(total > 0) || !std::isfinite(total))
        throw NumericalError("Student-t block marginal: the quadrature over the component mean failed");
    return scale + std::log(total);
}

} // namespace

std::vector<double> simulateDpData(int n, std::uint64_t seed)
{
    if (n < 1)
        throw InvalidParameter("the number of points must be at least 1");
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0, 1);
    std::uniform_real_distribution<double> uniform(0, 1);
    // Generating settings: σ = 1, λ = 0, σ_p = 3, α = 1 (the CRP with α = 1).
    std::vector<double> means;
    std::vector<int> counts;
    std::vector<double> x(n);
    for (int i = 0; i < n; ++i) {
        const double u = uniform(rng) * (i + 1.0);
        int table = 0;
        double acc = 0;
        for (; table < int(counts.size()); ++table) {
            acc += counts[table];
            if (u < acc)
                break;
        }
        if (table == int(counts.size())) {
            means.push_back(3 * normal(rng));
            counts.push_back(0);
        }
        ++counts[table];
        x[i] = means[table] + normal(rng);
    }
    return x;
}

void validateDpSettings(const DpSettings& s)
{
    auto positive = [](double v, const char* what) {
        if (!(v > 0) || !std::isfinite(v))
            throw InvalidParameter(std::string(what) + " must be positive and finite");
    };
    positive(s.componentSd, "the component sd σ");
    positive(s.baseSd, "the base sd σ_p");
    positive(s.alpha, "the concentration α");
    if (!std::isfinite(s.baseMean))
        throw InvalidParameter("the base mean λ must be finite");
    if (s.components == DpComponents::StudentT)
        positive(s.dof, "the degrees of freedom ν");
}

double dpLogComponentDensity(double x, double mu, const DpSettings& settings)
{
    return logComponent(x - mu, componentConstants(settings));
}

double dpLogBlockMarginal(const std::vector<double>& block, const DpSettings& settings)
{
    if (block.empty())
        throw InvalidParameter("a block of a partition needs at least one point");
    return settings.components == DpComponents::Gaussian ? gaussianLogBlockMarginal(block, settings)
                                                         : studentTLogBlockMarginal(block, settings);
}

namespace {

// Σ_i log Σ_j π_j Comp(x_i | λ + σ_p u_j). The mixture density is summed in linear space, over
// all atoms at once with Eigen's vectorised exp and log (this is the scenario's inner loop: a dof
// or λ sweep re-evaluates it for every prior draw); only a point whose sum underflows (every atom
// beyond ~37 scales) is redone in log space.
double logLikelihood(const std::vector<double>& x, const MixingMeasure& g, double baseMean, double baseSd,
                     const ComponentConstants& c, Eigen::ArrayXd& terms)
{
    const Eigen::Index J = Eigen::Index(g.weights.size());
    const Eigen::Map<const Eigen::ArrayXd> atoms(g.atoms.data(), J), weights(g.weights.data(), J);
    terms.resize(J);
    double total = 0;
    for (double xi : x) {
        const double centre = xi - baseMean;
        terms = (centre - baseSd * atoms).square();
        // log(1 + z) rather than log1p: Eigen vectorises only the former for doubles; for small z its
        // absolute error, ~1e-16, is what the density (1 + z)^{−(ν+1)/2} ≈ 1 − (ν+1)z/2 can resolve anyway.
        if (c.studentT)
            terms = (-c.halfNuPlus1 * (1 + terms * c.invNuSigma2).log()).exp();
        else
            terms = (-0.5 * c.invSigma2 * terms).exp();
        const double sum = (weights * terms).sum();
        if (sum > 1e-250) {
            total += c.logNorm + std::log(sum);
            continue;
        }
        for (Eigen::Index j = 0; j < J; ++j)
            terms[j] = std::log(weights[j]) + logComponent(centre - baseSd * atoms[j], c);
        const double best = terms.maxCoeff();
        if (!std::isfinite(best))
            return -std::numeric_limits<double>::infinity();
        total += best + std::log((terms - best).exp().sum());
    }
    return total;
}

} // namespace

std::vector<double> dpLogLikelihoods(const std::vector<double>& x, const std::vector<MixingMeasure>& measures,
                                     const DpSettings& settings)
{
    const ComponentConstants c = componentConstants(settings);
    std::vector<double> out(measures.size());
    Eigen::ArrayXd scratch;
    for (std::size_t m = 0; m < measures.size(); ++m)
        out[m] = logLikelihood(x, measures[m], settings.baseMean, settings.baseSd, c, scratch);
    return out;
}

double dpLogLikelihood(const std::vector<double>& x, const MixingMeasure& measure, const DpSettings& settings)
{
    Eigen::ArrayXd scratch;
    return logLikelihood(x, measure, settings.baseMean, settings.baseSd, componentConstants(settings),
                         scratch);
}

std::vector<std::vector<double>> dpLogLikelihoodsOverBaseMeans(const std::vector<double>& x,
                                                               const std::vector<MixingMeasure>& measures,
                                                               const DpSettings& settings,
                                                               const std::vector<double>& baseMeans)
{
    const ComponentConstants c = componentConstants(settings);
    std::vector<std::vector<double>> out(baseMeans.size(), std::vector<double>(measures.size()));
    Eigen::ArrayXd scratch;
    for (std::size_t g = 0; g < baseMeans.size(); ++g)
        for (std::size_t m = 0; m < measures.size(); ++m)
            out[g][m] = logLikelihood(x, measures[m], baseMeans[g], settings.baseSd, c, scratch);
    return out;
}

} // namespace evx::bq::structured
