#include "scenarios/quadrature/bq_dp_mixture_state.h"

#include "bq/structured/dp_exact.h"
#include "bq/structured/mixture_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace evx::scenarios::dpbq {

using namespace bq::structured;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kPredictiveDraws = 100;
constexpr int kPredictivePoints = 241;

Eigen::VectorXd toVector(const std::vector<double>& v)
{
    return Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
}

EvidencePoint estimateAt(const StructuredBq& bq, const std::vector<double>& logF, int n)
{
    return evidencePoint(bq.estimate(toVector(logF).head(n)));
}

// ~30 evaluation counts from 3 to S, every one when S is small: each costs one solve per setting.
std::vector<int> prefixSizes(int s)
{
    std::vector<int> sizes;
    if (s <= 40) {
        for (int k = 3; k <= s; ++k)
            sizes.push_back(k);
        return sizes;
    }
    for (int g = 0; g < 30; ++g) {
        const int k = int(std::lround(3 * std::pow(s / 3.0, g / 29.0)));
        if (sizes.empty() || k > sizes.back())
            sizes.push_back(k);
    }
    sizes.back() = s;
    return sizes;
}

void predictive(SampleState& state, const std::vector<MixingMeasure>& posterior)
{
    const auto [lo, hi] = std::minmax_element(state.key.x.begin(), state.key.x.end());
    const double sd = state.sampling.componentSd;
    const double a = *lo - 4 * sd, b = *hi + 4 * sd;
    for (int i = 0; i < kPredictivePoints; ++i) {
        const double t = a + (b - a) * i / (kPredictivePoints - 1);
        double density = 0;
        for (const MixingMeasure& g : posterior)
            for (std::size_t j = 0; j < g.weights.size(); ++j)
                density += g.weights[j] * std::exp(dpLogComponentDensity(
                                              t, state.sampling.baseMean + state.sampling.baseSd * g.atoms[j],
                                              state.sampling));
        state.predictiveX.push_back(t);
        state.predictiveDensity.push_back(density / posterior.size());
    }
}

} // namespace

double EvidencePoint::logMean() const
{
    return mean > 0 ? std::log(mean) : kNaN;
}

EvidencePoint evidencePoint(const StructuredEstimate& e)
{
    const double scale = std::exp(e.logScale);
    return {scale * e.mean, scale * e.sd()};
}

int hyperparameterCount(bool paperKernel)
{
    return paperKernel ? int(defaultPaperWidths().size())
                       : int(defaultMmdWidths().size() * defaultMmdLengthscales().size());
}

std::vector<double> baseMeanGrid()
{
    std::vector<double> g;
    for (int i = 0; i <= 40; ++i)
        g.push_back(-5 + 0.25 * i);
    return g;
}

std::vector<double> dofGrid()
{
    std::vector<double> g;
    for (int i = 0; i < 20; ++i)
        g.push_back(std::pow(30.0, i / 19.0));
    return g;
}

double logMeanExp(const std::vector<double>& logF)
{
    double best = -std::numeric_limits<double>::infinity();
    for (double l : logF)
        best = std::max(best, l);
    if (!std::isfinite(best))
        return best;
    double sum = 0;
    for (double l : logF)
        sum += std::exp(l - best);
    return best + std::log(sum / logF.size());
}

std::shared_ptr<const SampleState>
buildSampleState(const SampleKey& key, std::shared_ptr<const std::vector<MixingMeasure>> priorDraws,
                 const RunContext& context, const PartialFigure& partial)
{
    auto state = std::make_shared<SampleState>();
    state->key = key;
    state->priorDraws = std::move(priorDraws);
    DpSettings& s = state->sampling;
    s.componentSd = key.componentSd;
    s.baseSd = key.baseSd;
    s.alpha = key.alpha;
    s.baseMean = key.sampleBaseMean;
    s.components = DpComponents::Gaussian;

    PublishPace pace(0.1);
    DpDesignSampler sampler(key.x, s, key.design, key.seed);
    std::vector<MixingMeasure> posterior;
    for (int i = 0; i < key.samples; ++i) {
        context.checkCancelled();
        state->samples.push_back(sampler.next());
        state->measures.push_back(state->samples.back().measure);
        if (state->samples.back().fromPosterior) {
            ++state->posteriorCount;
            posterior.push_back(state->measures.back());
        }
        if (context.wantsProgress() && partial && pace.due()) {
            pace.begin();
            context.publish(partial(state->samples, 0.3 * (i + 1) / key.samples),
                            0.3 * (i + 1) / key.samples);
        }
    }
    // The data plot needs posterior draws even when the design has none.
    if (posterior.empty()) {
        DpDesignSampler chain(key.x, s, DpDesign::Posterior, key.seed + 1);
        for (int i = 0; i < kPredictiveDraws; ++i)
            posterior.push_back(chain.next().measure);
    }
    predictive(*state, posterior);
    context.checkCancelled();

    std::vector<GramSet> grid;
    if (key.paperKernel) {
        for (double w : defaultPaperWidths())
            grid.push_back(paperMixtureGram(state->measures, w));
    } else {
        grid = mmdMixtureGrams(state->measures, *state->priorDraws, defaultMmdWidths(),
                               defaultMmdLengthscales(), key.wsabi);
    }
    // The paper's kernel has closed-form z and V but no prior draws: it runs as the paper does,
    // a GP on f (the scenario warns).
    const Transform transform = key.wsabi && !key.paperKernel ? Transform::Wsabi : Transform::None;
    state->bq = std::make_shared<const StructuredBq>(std::move(grid), transform);
    context.checkCancelled();

    // Evidence against λ, Gaussian components.
    Curve& lam = state->overBaseMean;
    lam.at = baseMeanGrid();
    lam.exactLog = dpExactLogEvidenceOverBaseMeans(key.x, s, lam.at);
    const auto fOverLambda = dpLogLikelihoodsOverBaseMeans(key.x, state->measures, s, lam.at);
    const auto mcOverLambda = dpLogLikelihoodsOverBaseMeans(key.x, *state->priorDraws, s, lam.at);
    for (std::size_t g = 0; g < lam.at.size(); ++g) {
        context.checkCancelled();
        lam.bq.push_back(estimateAt(*state->bq, fOverLambda[g], key.samples));
        lam.mcLog.push_back(logMeanExp(mcOverLambda[g]));
    }
    if (context.wantsProgress() && partial)
        context.publish(partial(state->samples, 0.6), 0.6);

    // Evidence against dof at the sampling λ, with the Gaussian as the reference (ν → ∞).
    Curve& dof = state->overDof;
    dof.at = dofGrid();
    dof.exactLog = dpExactLogEvidenceOverDofs(key.x, s, dof.at);
    DpSettings t = s;
    t.components = DpComponents::StudentT;
    for (double nu : dof.at) {
        context.checkCancelled();
        t.dof = nu;
        dof.bq.push_back(estimateAt(*state->bq, dpLogLikelihoods(key.x, state->measures, t), key.samples));
        dof.mcLog.push_back(logMeanExp(dpLogLikelihoods(key.x, *state->priorDraws, t)));
    }
    state->gaussianExactLog = dpExactLogEvidence(key.x, s);
    const std::vector<double> fSampling = dpLogLikelihoods(key.x, state->measures, s);
    const std::vector<double> mcSampling = dpLogLikelihoods(key.x, *state->priorDraws, s);
    state->gaussianBq = estimateAt(*state->bq, fSampling, key.samples);
    state->gaussianMcLog = logMeanExp(mcSampling);
    if (context.wantsProgress() && partial)
        context.publish(partial(state->samples, 0.8), 0.8);

    // Against the number of evaluations, at the sampling point; Monte Carlo over as many prior draws.
    Curve& conv = state->overSamples;
    for (int k : prefixSizes(key.samples)) {
        context.checkCancelled();
        conv.at.push_back(k);
        conv.exactLog.push_back(state->gaussianExactLog);
        conv.bq.push_back(estimateAt(*state->bq, fSampling, k));
        conv.mcLog.push_back(logMeanExp(std::vector<double>(mcSampling.begin(), mcSampling.begin() + k)));
    }
    return state;
}

} // namespace evx::scenarios::dpbq
