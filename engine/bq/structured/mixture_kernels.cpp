#include "bq/structured/mixture_kernels.h"

#include "core/errors.h"

#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace evx::bq::structured {
namespace {
constexpr double kPi = boost::math::constants::pi<double>();
// Feature nodes per width and how far (in widths) an atom's feature reaches: e^{-36} ≈ 2e-16
// of its peak is left out; trapezoid error of the convolution integral ≈ e^{-2π²·(3/2)²} ≈ 1e-19.
constexpr double kNodesPerWidth = 3;
constexpr double kReach = 6;
constexpr Eigen::Index kMaxNodes = 200000;

void checkMeasures(const std::vector<MixingMeasure>& measures, const char* what)
{
    for (const MixingMeasure& g : measures) {
        if (g.weights.empty() || g.weights.size() != g.atoms.size())
            throw InvalidParameter(std::string("mixture kernel: a ") + what +
                                   " measure has no atoms or as many weights as atoms");
        for (size_t i = 0; i < g.atoms.size(); ++i)
            if (!std::isfinite(g.atoms[i]) || !std::isfinite(g.weights[i]) || g.weights[i] < 0)
                throw InvalidParameter(std::string("mixture kernel: a ") + what +
                                       " measure has a non-finite atom or a negative weight");
    }
}

void checkPositive(const std::vector<double>& values, const char* what)
{
    if (values.empty())
        throw InvalidParameter(std::string("mixture kernel: no ") + what + " given");
    for (double v : values)
        if (!(v > 0) || !std::isfinite(v))
            throw InvalidParameter(std::string("mixture kernel: every ") + what + " must be positive");
}

double normalDensity(double x, double variance)
{
    return std::exp(-0.5 * x * x / variance) / std::sqrt(2 * kPi * variance);
}

// Feature nodes t_q = t0 + q·h, h = w/3, covering every atom ± 6w.
struct Nodes {
    double t0 = 0, h = 0;
    Eigen::Index count = 0;
};

// ψ_G(t_q) = c Σ_i π_i exp(−(u_i − t_q)²/w²), c² = h / (w √(π/2)): since
//   ∫ e^{−(x−t)²/w²} e^{−(y−t)²/w²} dt = w √(π/2) e^{−(x−y)²/2w²},
// ⟨ψ_G, ψ_G'⟩ is the Gaussian-kernel inner product of the two measures, by the trapezoid rule
// (spectrally accurate for a Gaussian integrand sampled at a third of its width).
Eigen::MatrixXd features(const std::vector<MixingMeasure>& measures, const Nodes& nodes, double w)
{
    Eigen::MatrixXd psi =
        Eigen::MatrixXd::Zero(nodes.count, Eigen::Index(measures.size())); // one column each
    const double c = std::sqrt(nodes.h / (w * std::sqrt(kPi / 2))), w2 = w * w, h = nodes.h;
    const double rho = std::exp(-2 * h * h / w2);
    for (size_t s = 0; s < measures.size(); ++s) {
        const MixingMeasure& g = measures[s];
        for (size_t i = 0; i < g.atoms.size(); ++i) {
            const double u = g.atoms[i];
            const Eigen::Index q0 =
                std::max<Eigen::Index>(0, Eigen::Index(std::ceil((u - kReach * w - nodes.t0) / h)));
            const Eigen::Index q1 = std::min<Eigen::Index>(
                nodes.count - 1, Eigen::Index(std::floor((u + kReach * w - nodes.t0) / h)));
            // e_{q+1} = e_q r_q, r_{q+1} = r_q ρ: two exponentials per atom instead of one per node.
            const double d0 = nodes.t0 + q0 * h - u;
            double e = c * g.weights[i] * std::exp(-d0 * d0 / w2);
            double r = std::exp(-(2 * d0 * h + h * h) / w2);
            for (Eigen::Index q = q0; q <= q1; ++q) {
                psi(q, Eigen::Index(s)) += e;
                e *= r;
                r *= rho;
            }
        }
    }
    return psi;
}

// Squared distances between the columns of a and of b from their Gram, clamped at 0 (rounding).
Eigen::MatrixXd squaredDistances(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b)
{
    const Eigen::VectorXd na = a.colwise().squaredNorm().transpose(),
                          nb = b.colwise().squaredNorm().transpose();
    Eigen::MatrixXd d = -2 * a.transpose() * b;
    d.colwise() += na;
    d.rowwise() += nb.transpose();
    return d.cwiseMax(0.0);
}
} // namespace

std::vector<double> defaultPaperWidths()
{
    return {0.125, 0.25, 0.5, 1, 2, 4};
}

std::vector<double> defaultMmdWidths()
{
    return {0.25, 0.5, 1};
}

std::vector<double> defaultMmdLengthscales()
{
    return {0.0625, 0.125, 0.25, 0.5, 1};
}

GramSet paperMixtureGram(const std::vector<MixingMeasure>& samples, double w)
{
    checkMeasures(samples, "sample");
    checkPositive({w}, "atom kernel width");
    const Eigen::Index s = Eigen::Index(samples.size());
    GramSet g;
    g.hyper = {w};
    g.k.resize(s, s);
    g.z.resize(s);
    const double w2 = w * w;
    for (Eigen::Index a = 0; a < s; ++a) {
        const MixingMeasure& ga = samples[size_t(a)];
        double za = 0;
        for (size_t i = 0; i < ga.atoms.size(); ++i)
            za += ga.weights[i] * normalDensity(ga.atoms[i], w2 + 1);
        g.z[a] = za;
        for (Eigen::Index b = 0; b <= a; ++b) {
            const MixingMeasure& gb = samples[size_t(b)];
            double kab = 0;
            for (size_t i = 0; i < ga.atoms.size(); ++i)
                for (size_t j = 0; j < gb.atoms.size(); ++j)
                    kab += ga.weights[i] * gb.weights[j] * normalDensity(ga.atoms[i] - gb.atoms[j], w2);
            g.k(a, b) = g.k(b, a) = kab;
        }
    }
    g.v = normalDensity(0, w2 + 2);
    return g;
}

double directMmdSquared(const MixingMeasure& a, const MixingMeasure& b, double w)
{
    auto inner = [w](const MixingMeasure& p, const MixingMeasure& q) {
        double s = 0;
        for (size_t i = 0; i < p.atoms.size(); ++i)
            for (size_t j = 0; j < q.atoms.size(); ++j)
                s +=
                    p.weights[i] * q.weights[j] * std::exp(-0.5 * std::pow((p.atoms[i] - q.atoms[j]) / w, 2));
        return s;
    };
    return inner(a, a) + inner(b, b) - 2 * inner(a, b);
}

std::vector<GramSet> mmdMixtureGrams(const std::vector<MixingMeasure>& samples,
                                     const std::vector<MixingMeasure>& priorDraws,
                                     const std::vector<double>& widths,
                                     const std::vector<double>& lengthscales, bool withDraws)
{
    checkMeasures(samples, "sample");
    checkMeasures(priorDraws, "prior draw");
    checkPositive(widths, "MMD width");
    checkPositive(lengthscales, "relative lengthscale");
    const Eigen::Index m = Eigen::Index(priorDraws.size());
    if (samples.empty() || m < 3)
        throw InvalidParameter("MMD kernel: needs samples and at least 3 prior draws");
    double lo = samples.front().atoms.front(), hi = lo;
    for (const auto* set : {&samples, &priorDraws})
        for (const MixingMeasure& g : *set)
            for (double u : g.atoms) {
                lo = std::min(lo, u);
                hi = std::max(hi, u);
            }

    // The pairs of draws V averages over: all distinct pairs for few draws, else the pairs
    // (m, m + o mod M), o = 1..kPairOffsets — an incomplete U-statistic, still unbiased.
    const bool allPairs = m <= 2 * kMmdPairOffsets + 1;
    const Eigen::Index mv = std::min<Eigen::Index>(m, kMmdVarianceDraws);
    std::vector<GramSet> out;
    for (double w : widths) {
        Nodes nodes;
        nodes.h = w / kNodesPerWidth;
        nodes.t0 = lo - kReach * w;
        nodes.count = Eigen::Index(std::ceil((hi - lo + 2 * kReach * w) / nodes.h)) + 1;
        if (nodes.count > kMaxNodes)
            throw InvalidParameter("MMD kernel: the atoms spread over " + std::to_string(hi - lo) +
                                   " prior sds, too far for width " + std::to_string(w) +
                                   "; use a larger width");
        const Eigen::MatrixXd px = features(samples, nodes, w), pd = features(priorDraws, nodes, w);
        const Eigen::MatrixXd dxx = squaredDistances(px, px), dxd = squaredDistances(px, pd);
        std::vector<double> pairs;
        if (allPairs) {
            const Eigen::MatrixXd dd = squaredDistances(pd, pd);
            for (Eigen::Index a = 0; a < m; ++a)
                for (Eigen::Index b = a + 1; b < m; ++b)
                    pairs.push_back(dd(a, b));
        } else {
            pairs.reserve(size_t(m * kMmdPairOffsets));
            for (Eigen::Index o = 1; o <= kMmdPairOffsets; ++o)
                for (Eigen::Index a = 0; a < m; ++a)
                    pairs.push_back((pd.col(a) - pd.col((a + o) % m)).squaredNorm());
        }
        const Eigen::ArrayXd pairD =
            Eigen::Map<const Eigen::ArrayXd>(pairs.data(), Eigen::Index(pairs.size()));
        const double rms = std::sqrt(pairD.mean());
        if (!(rms > 0))
            throw InvalidParameter("MMD kernel: the prior draws are all the same measure");
        const Eigen::MatrixXd ddv =
            withDraws ? squaredDistances(pd.leftCols(mv), pd.leftCols(mv)) : Eigen::MatrixXd();
        for (double rel : lengthscales) {
            const double l = rel * rms, c = -0.5 / (l * l);
            GramSet g;
            g.hyper = {w, rel, l};
            g.k = (c * dxx.array()).exp().matrix();
            Eigen::MatrixXd kxd = (c * dxd.array()).exp().matrix();
            g.z = kxd.rowwise().mean();
            g.v = (c * pairD).exp().mean();
            if (withDraws) {
                g.kDraws = std::move(kxd);
                g.kDrawsDraws = (c * ddv.array()).exp().matrix();
                g.drawWeights = Eigen::VectorXd::Constant(m, 1.0 / double(m));
                g.monteCarloDraws = true;
            }
            out.push_back(std::move(g));
        }
    }
    return out;
}

} // namespace evx::bq::structured
