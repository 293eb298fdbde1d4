#include "bq/structured/feature_kernels.h"

#include "core/errors.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace evx::bq::structured {
namespace {
void checkFeatureMatrix(const Eigen::MatrixXd& z, Eigen::Index rows)
{
    if (z.rows() != rows)
        throw InvalidParameter("feature kernel: every feature matrix must have " + std::to_string(rows) +
                               " rows");
    if (!((z.array() == 0) || (z.array() == 1)).all())
        throw InvalidParameter("feature kernel: a feature matrix has entries other than 0 and 1");
}

// Each N × N matrix as a row of length N², so Frobenius distances come from one product.
Eigen::MatrixXd flatten(const std::vector<Eigen::MatrixXd>& grams, Eigen::Index n)
{
    Eigen::MatrixXd out(Eigen::Index(grams.size()), n * n);
    for (size_t i = 0; i < grams.size(); ++i)
        out.row(Eigen::Index(i)) = Eigen::Map<const Eigen::RowVectorXd>(grams[i].data(), n * n);
    return out;
}

Eigen::MatrixXd squaredDistances(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b)
{
    const Eigen::VectorXd na = a.rowwise().squaredNorm(), nb = b.rowwise().squaredNorm();
    Eigen::MatrixXd d = -2 * a * b.transpose();
    d.colwise() += na;
    d.rowwise() += nb.transpose();
    return d.cwiseMax(0.0);
}
} // namespace

std::vector<double> defaultGramLengthscales()
{
    return {0.0625, 0.125, 0.25, 0.5, 1};
}

GramSet paperFeatureGram(const std::vector<FeatureMatrix>& samples, double alpha)
{
    if (samples.empty())
        throw InvalidParameter("feature kernel: no samples");
    if (!(alpha > 0) || !std::isfinite(alpha))
        throw InvalidParameter("feature kernel: α must be positive");
    const Eigen::Index n = samples.front().rows(), s = Eigen::Index(samples.size());
    Eigen::MatrixXd r(n, s); // r(·, s): the ones in each row of Z_s
    for (Eigen::Index j = 0; j < s; ++j) {
        checkFeatureMatrix(samples[size_t(j)], n);
        r.col(j) = samples[size_t(j)].rowwise().sum();
    }
    GramSet g;
    g.hyper = {alpha};
    g.k = r.transpose() * r;
    g.z = alpha * r.colwise().sum().transpose();
    g.v = alpha * alpha * double(n);
    return g;
}

std::vector<GramSet> gramFeatureGrams(const std::vector<FeatureMatrix>& samples,
                                      const std::vector<WeightedGram>& prior,
                                      const std::vector<double>& lengthscales, bool withDraws,
                                      bool exactPrior)
{
    if (samples.empty() || prior.size() < 2)
        throw InvalidParameter("gram kernel: needs samples and at least 2 prior support points");
    if (lengthscales.empty())
        throw InvalidParameter("gram kernel: no lengthscales given");
    for (double l : lengthscales)
        if (!(l > 0) || !std::isfinite(l))
            throw InvalidParameter("gram kernel: every relative lengthscale must be positive");
    const Eigen::Index n = samples.front().rows();
    std::vector<Eigen::MatrixXd> sampleGrams;
    for (const FeatureMatrix& z : samples) {
        checkFeatureMatrix(z, n);
        sampleGrams.push_back(z * z.transpose());
    }
    // An enumeration is taken heaviest first, so the draws kDrawsDraws covers carry most mass.
    std::vector<size_t> order(prior.size());
    std::iota(order.begin(), order.end(), size_t(0));
    if (exactPrior)
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return prior[a].weight > prior[b].weight; });
    std::vector<Eigen::MatrixXd> priorGrams;
    const Eigen::Index m = Eigen::Index(prior.size());
    Eigen::VectorXd weights(m);
    for (Eigen::Index i = 0; i < m; ++i) {
        const WeightedGram& p = prior[order[size_t(i)]];
        if (p.zzt.rows() != n || p.zzt.cols() != n || !(p.weight >= 0) || !std::isfinite(p.weight))
            throw InvalidParameter(
                "gram kernel: a prior support point is not N × N or has a negative weight");
        priorGrams.push_back(p.zzt);
        weights[i] = p.weight;
    }
    const Eigen::MatrixXd fx = flatten(sampleGrams, n), fp = flatten(priorGrams, n);
    const Eigen::MatrixXd dxx = squaredDistances(fx, fx), dxp = squaredDistances(fx, fp);
    const double mass = weights.sum();
    if (!(mass > 0))
        throw InvalidParameter("gram kernel: the prior support carries no weight");

    // The scale d̄² = E‖A − B‖² and V = E k(A, B), A and B independent under the prior. An
    // enumeration sums every pair, the diagonal included (A and B may coincide): d̄² in closed
    // form, 2(E‖A‖² − ‖E A‖²), and V over row blocks (no M × M matrix). Monte Carlo draws average
    // over distinct pairs: all of them for few draws, else (m, m + o mod M), o = 1..kGramPairOffsets
    // (an incomplete U-statistic, still unbiased).
    Eigen::ArrayXd pairD;
    double rms = 0;
    if (exactPrior) {
        const Eigen::VectorXd meanGram = fp.transpose() * weights / mass;
        rms = std::sqrt(
            std::max(0.0, 2 * (weights.dot(fp.rowwise().squaredNorm()) / mass - meanGram.squaredNorm())));
    } else {
        std::vector<double> pairs;
        if (m <= 2 * kGramPairOffsets + 1) {
            const Eigen::MatrixXd dd = squaredDistances(fp, fp);
            for (Eigen::Index a = 0; a < m; ++a)
                for (Eigen::Index b = a + 1; b < m; ++b)
                    pairs.push_back(dd(a, b));
        } else {
            for (Eigen::Index o = 1; o <= kGramPairOffsets; ++o)
                for (Eigen::Index a = 0; a < m; ++a)
                    pairs.push_back((fp.row(a) - fp.row((a + o) % m)).squaredNorm());
        }
        pairD = Eigen::Map<const Eigen::ArrayXd>(pairs.data(), Eigen::Index(pairs.size()));
        rms = std::sqrt(pairD.mean());
    }
    if (!(rms > 0))
        throw InvalidParameter("gram kernel: every prior support point has the same ZZᵀ");

    std::vector<double> rels = lengthscales, cs;
    for (double rel : rels)
        cs.push_back(-0.5 / std::pow(rel * rms, 2));
    std::vector<double> vs(rels.size(), 0.0);
    if (exactPrior) {
        constexpr Eigen::Index kBlock = 256;
        for (Eigen::Index b0 = 0; b0 < m; b0 += kBlock) {
            const Eigen::Index rows = std::min(kBlock, m - b0);
            const Eigen::MatrixXd d = squaredDistances(fp.middleRows(b0, rows), fp);
            for (size_t j = 0; j < rels.size(); ++j)
                vs[j] += weights.segment(b0, rows).dot((cs[j] * d.array()).exp().matrix() * weights);
        }
    } else {
        for (size_t j = 0; j < rels.size(); ++j)
            vs[j] = (cs[j] * pairD).exp().mean();
    }

    const Eigen::Index mv = std::min<Eigen::Index>(m, kGramVarianceDraws);
    const Eigen::MatrixXd dvv =
        withDraws ? squaredDistances(fp.topRows(mv), fp.topRows(mv)) : Eigen::MatrixXd();
    std::vector<GramSet> out;
    for (size_t j = 0; j < rels.size(); ++j) {
        GramSet g;
        g.hyper = {rels[j], rels[j] * rms};
        g.k = (cs[j] * dxx.array()).exp().matrix();
        Eigen::MatrixXd kxp = (cs[j] * dxp.array()).exp().matrix();
        g.z = kxp * weights;
        g.v = vs[j];
        if (withDraws) {
            g.kDraws = std::move(kxp);
            g.kDrawsDraws = (cs[j] * dvv.array()).exp().matrix();
            g.drawWeights = weights;
            g.monteCarloDraws = !exactPrior;
        }
        out.push_back(std::move(g));
    }
    return out;
}

} // namespace evx::bq::structured
