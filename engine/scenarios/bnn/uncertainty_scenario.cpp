#include "scenarios/bnn/uncertainty_scenario.h"

#include "bnn/bnn_predictive.h"
#include "bnn/hmc.h"
#include "bnn/synthetic_datasets.h"
#include "scenarios/bnn/bnn_training.h"
#include "stats/predictive_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <numbers>
#include <optional>

namespace evx::scenarios {
namespace {

using namespace bnn_training;

// The synthetic sets with one input; choice indices are stored in sessions: append only.
const std::vector<std::string> kDatasets{"heavy-tail", "goldberg", "williams", "yuan", "depeweg", "bimodal"};
constexpr int kGridPoints = 60;
constexpr double kHmcWeightVariance = 10; // σ_w² of the paper's HMC (Fig. 6)
constexpr int kTotalColour = 3, kAleatoricColour = 0, kEpistemicColour = 2;
// Within a phase a progress figure at most this often: each phase (the truth's curve, two
// trainings, HMC) runs for 0.2–8 s, and the longest pieces that cannot publish (HMC's predictive
// draws, one decomposition) took up to 160 ms on the Bimodal data.
constexpr double kPublishSeconds = 0.1;
// workBudget's calibration (see there): the work per point beside the weights, and the limit.
constexpr double kViPointWork = 1700, kHmcPointWork = 500, kNearestNeighbourPointWork = 950,
                 kQuadraturePointWork = 4000;
// Runs near 1.6·10¹¹ units took 33–50 s of CPU (user + sys) here, each data set's worst corner.
constexpr double kWorkLimit = 1.6e11;
constexpr double kMaxHmcRows = 1e6;

struct Decomposition {
    std::vector<double> total, aleatoric, epistemic;
};

std::vector<double> asStd(const Eigen::VectorXd& v)
{
    return {v.data(), v.data() + v.size()};
}

Plot methodPlot(const std::string& title, const std::vector<double>& x, const std::optional<Decomposition>& d,
                const std::vector<double>& truth, int row, int column)
{
    Plot p;
    p.title = d ? title : title + " (computing…)";
    p.xLabel = "x";
    p.yLabel = "entropy (nats, raw y)";
    p.row = row;
    p.column = column;
    p.legend = LegendPlace::Shared;
    if (d) {
        p.series.push_back({"total H[p(y|x)]", SeriesKind::Line, x, d->total, kTotalColour});
        p.series.push_back(
            {"aleatoric E_W H[p(y|x,W)]", SeriesKind::Line, x, d->aleatoric, kAleatoricColour});
        p.series.push_back(
            {"epistemic (total − aleatoric)", SeriesKind::Line, x, d->epistemic, kEpistemicColour});
    }
    if (truth.size() == x.size()) // not yet while the truth's curve is computed
        p.series.push_back(
            {"truth's entropy (all aleatoric)", SeriesKind::Line, x, truth, kReferenceColour, true});
    return p;
}

double rmsDifference(const std::vector<double>& a, const std::vector<double>& b)
{
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return std::sqrt(s / double(a.size()));
}

double mean(const std::vector<double>& a)
{
    double s = 0;
    for (double v : a)
        s += v / double(a.size());
    return s;
}

// The whole run's work in one unit, so that settings each within their range cannot add up to a
// run of minutes (most epochs with most draws, say). The unit is one weight at one point; each
// kind of step also does work per point beside its weights (the latent variables, the KL terms,
// the entropy estimators), counted as the weights it is worth. Fitted to timed runs of the
// release build on this machine (2 cores, shared), where a unit takes about 0.24 ns: per
// point, a VI epoch took 0.45 µs (Depeweg, 151 weights) and 1.07 µs (Bimodal, 2701), an HMC
// leapfrog step 0.16 and 0.76 µs; a predictive draw at a grid point 0.24 and 0.42 µs with the
// nearest-neighbour estimator (its forward pass costs a third of a unit a weight), 0.97 µs with
// the quadrature (Depeweg, Heavy-Tail). The truth's curve (up to 1.5 s) is not counted. Runs at
// 2.4·10¹¹ took 53–71 s of CPU (sys time included: a million draws are 0.5 GB), hence the limit.
struct RunWork {
    double vi, hmc, viDraws, hmcDraws; // training, HMC, and the predictive draws of each
    double total() const { return vi + hmc + viDraws + hmcDraws; }
};

RunWork runWork(const ParameterValues& v)
{
    const bnn::DatasetInfo& info = bnn::datasetInfo(kDatasets.at(std::size_t(v.at("dataset"))));
    double weights = 3.0 * info.hiddenUnits + 1;
    for (int l = 1; l < info.hiddenLayers; ++l)
        weights += (info.hiddenUnits + 1) * info.hiddenUnits;
    // Per point, on top of the weights: VI epoch, HMC leapfrog step, predictive draw at a grid point.
    const double viPerPoint = weights + kViPointWork, hmcPerPoint = weights + kHmcPointWork,
                 drawPerPoint = weights / 3 +
                                (v.at("estimator") != 0 ? kQuadraturePointWork : kNearestNeighbourPointWork);
    const double latentDraws = v.at("latent_draws");
    return {// Two trainings (MFVI, NCAI) of `epochs`, and NCAI's warm start of the point network.
            (2 * v.at("epochs") + 2000) * info.nTrain * viPerPoint,
            // Each iteration draws its leapfrog steps from half the most up to it: 3/4 on average.
            v.at("hmc_chains") * (v.at("hmc_draws") + v.at("hmc_warmup")) * 0.75 * v.at("hmc_leapfrog") *
                info.nTrain * hmcPerPoint,
            2 * v.at("weight_draws") * latentDraws * kGridPoints * drawPerPoint,
            v.at("hmc_chains") * v.at("hmc_draws") * latentDraws * kGridPoints * drawPerPoint};
}

} // namespace

double trueAleatoricEntropy(const std::string& id, double x)
{
    const bnn::DatasetInfo& info = bnn::datasetInfo(id);
    const double sz = std::isfinite(info.sigmaZ2) ? std::sqrt(info.sigmaZ2) : 0;
    // The support: f over z within ±6 σ_z, widened by 10 noise sds.
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k <= 200; ++k) {
        const double f = bnn::syntheticF(id, x, -6 * sz + 12 * sz * k / 200);
        lo = std::min(lo, f);
        hi = std::max(hi, f);
    }
    const double noiseSd = std::sqrt(bnn::syntheticNoiseVariance(id, x));
    lo -= 10 * noiseSd;
    hi += 10 * noiseSd;
    // A step of a tenth of the noise sd resolves every component of the density.
    const int steps = std::clamp(int((hi - lo) / (0.1 * noiseSd)), 400, 20000);
    const double h = (hi - lo) / steps;
    double entropy = 0;
    for (int i = 0; i <= steps; ++i) {
        const double logp = bnn::syntheticLogDensity(id, x, lo + i * h);
        const double w = (i == 0 || i == steps) ? 0.5 * h : h;
        if (std::isfinite(logp))
            entropy -= w * std::exp(logp) * logp;
    }
    return entropy;
}

// The truth's curve at xs, remembered for the last data sets and splits shown: on Heavy-Tail each
// point is a double integral (~25 ms), while a slider over the seed or the epochs keeps xs.
// afterEachPoint runs after each point computed afresh.
std::vector<double> trueAleatoricEntropyCurve(const std::string& id, const std::vector<double>& xs,
                                              const std::function<void()>& afterEachPoint)
{
    struct Entry {
        std::string id;
        std::vector<double> xs, entropy;
    };
    static std::mutex mutex;
    static std::deque<Entry> cache;
    {
        const std::lock_guard lock(mutex);
        for (const Entry& e : cache)
            if (e.id == id && e.xs == xs)
                return e.entropy;
    }
    std::vector<double> entropy;
    for (const double x : xs) {
        entropy.push_back(trueAleatoricEntropy(id, x));
        afterEachPoint();
    }
    const std::lock_guard lock(mutex);
    cache.push_front({id, xs, entropy});
    if (cache.size() > 8)
        cache.pop_back();
    return entropy;
}

BnnUncertaintyScenario::BnnUncertaintyScenario()
    : m_schema({
          choiceParameter("dataset", "Data set", kDatasets, 4,
                          "A synthetic set with one input (its truth is known)"),
          integerParameter("epochs", "VI epochs", 100, 100000, 3000, "Epochs of mean-field VI and of NCAI"),
          integerParameter("hmc_draws", "HMC draws per chain", 20, 20000, 200,
                           "Kept draws of each HMC chain"),
          integerParameter("hmc_warmup", "HMC warm-up per chain", 20, 20000, 200,
                           "Iterations tuning the step size, then discarded"),
          integerParameter("hmc_chains", "HMC chains", 1, 16, 2, "Independent chains from different starts"),
          integerParameter("hmc_leapfrog", "HMC leapfrog steps", 2, 200, 20,
                           "Most leapfrog steps per iteration (each draws from half of it up to it)"),
          integerParameter("weight_draws", "Weight draws S_W", 10, 2000, 100,
                           "Draws of W behind each decomposition (HMC uses all its draws)"),
          integerParameter("latent_draws", "Latent draws per W", 10, 500, 30,
                           "Draws of z per W: the aleatoric entropy of each W comes from these"),
          choiceParameter(
              "estimator", "Entropy estimator",
              {"nearest neighbour (k = 5, the paper's)", "mixture quadrature (exact given the draws)"}, 0,
              "The paper uses Kozachenko–Leonenko nearest-neighbour entropies; the quadrature integrates "
              "each Gaussian mixture itself"),
          integerParameter("split", "Data split", 0, 99, 0, "Which draw of the training data"),
          integerParameter("seed", "Seed", 0, 100000, 0, "Seed of the initialisations and of every draw"),
      })
{
}

ScenarioInfo BnnUncertaintyScenario::info() const
{
    return {"bnn-uncertainty", "BNN+LV: aleatoric and epistemic uncertainty, VI and NCAI against HMC",
            "BNN with latent variables",
            "The entropy decomposition of the predictive over x for MFVI, NCAI and HMC side by side (paper "
            "Sec. 7.3, "
            "Fig. 6)"};
}

std::vector<Preset> BnnUncertaintyScenario::presets() const
{
    return {{"fig6",
             "Fig. 6: Depeweg's data, nearest-neighbour entropies (k = 5)",
             {{"dataset", 4}, {"estimator", 0}}},
            {"heavy-tail", "Heavy-Tail data: skewed, heavy-tailed noise", {{"dataset", 0}}}};
}

std::vector<WorkBudget> BnnUncertaintyScenario::workBudget(const RunInput& input) const
{
    const ParameterValues v = m_schema.complete(input.values);
    const RunWork w = runWork(v);
    const std::string estimator = v.at("estimator") != 0 ? ", or the nearest-neighbour estimator" : "";
    std::vector<std::pair<double, std::string>> parts{
        {w.vi, "epochs"},
        {w.hmc, "hmc_draws, hmc_warmup, hmc_chains or hmc_leapfrog"},
        {w.viDraws, "weight_draws or latent_draws" + estimator},
        {w.hmcDraws, "latent_draws, hmc_draws or hmc_chains" + estimator}};
    // The refusal names what to lower, the largest share first.
    std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string lowerBy;
    for (const auto& [work, names] : parts)
        if (work >= 0.05 * w.total()) {
            char share[48];
            std::snprintf(share, sizeof share, " (%.0f%% of it)", 100 * work / w.total());
            lowerBy += (lowerBy.empty() ? "" : "; or ") + names + share;
        }
    return {{"units of work (VI epochs and HMC leapfrog steps over the training points, predictive draws "
             "over the grid, each × the network's weights and the work per point beside them)",
             w.total(), kWorkLimit, lowerBy},
            // HMC's predictive draws are held at once, a row of grid values each: as many as the
            // variational draws may have (weight_draws × latent_draws at their largest).
            {"HMC predictive draws (hmc_chains × hmc_draws × latent_draws)",
             v.at("hmc_chains") * v.at("hmc_draws") * v.at("latent_draws"), kMaxHmcRows,
             "hmc_draws, hmc_chains or latent_draws"}};
}

Figure BnnUncertaintyScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    const std::string id = kDatasets.at(std::size_t(v.at("dataset")));
    const bnn::DatasetInfo& info = bnn::datasetInfo(id);
    const bnn_eval::PreparedData data = bnn_eval::prepare(bnn::makeDataset(id, 0, int(v.at("split"))));
    const bnn::Standardisation& scaling = data.raw.scaling;
    const std::uint64_t seed = std::uint64_t(v.at("seed"));
    const int epochs = int(v.at("epochs")), weightDraws = int(v.at("weight_draws")),
              latentDraws = int(v.at("latent_draws"));
    const auto estimator = v.at("estimator") == 0 ? stats::EntropyEstimator::NearestNeighbour
                                                  : stats::EntropyEstimator::MixtureQuadrature;

    Eigen::MatrixXd grid(kGridPoints, 1);
    const double lo = data.raw.train.x.minCoeff(), hi = data.raw.train.x.maxCoeff();
    std::vector<double> xs, truth;
    for (int k = 0; k < kGridPoints; ++k) {
        grid(k, 0) = lo + (hi - lo) * k / (kGridPoints - 1);
        xs.push_back(grid(k, 0));
    }
    const Eigen::MatrixXd gridStd = scaling.x(grid);
    auto decompose = [&](const bnn::PredictiveDraws& d, int drawsOfW,
                         const std::function<void()>& afterEachPoint) {
        context.checkCancelled();
        const stats::UncertaintyDecomposition u = stats::decomposeUncertainty(
            d.f, drawsOfW, d.noiseSd, estimator, seed + 3, 5, scaling.ySd, afterEachPoint);
        return Decomposition{asStd(u.total), asStd(u.aleatoric), asStd(u.epistemic)};
    };

    std::optional<Decomposition> mfvi, ncai, hmc;
    auto figure = [&](const std::string& status) {
        Figure f;
        Plot dataPlot;
        dataPlot.title = "Training data (" + info.title + ")";
        dataPlot.xLabel = "x";
        dataPlot.yLabel = "y";
        dataPlot.row = 0;
        dataPlot.column = 0;
        Series points{"training data", SeriesKind::Scatter, asStd(data.raw.train.x.col(0)),
                      asStd(data.raw.train.y), kReferenceColour};
        dataPlot.series.push_back(std::move(points));
        f.plots.push_back(std::move(dataPlot));
        f.plots.push_back(methodPlot("BNN+LV, mean-field VI", xs, mfvi, truth, 0, 1));
        f.plots.push_back(methodPlot("BNN+LV, NCAI_λ", xs, ncai, truth, 1, 0));
        f.plots.push_back(methodPlot("HMC (reference posterior)", xs, hmc, truth, 1, 1));
        if (!status.empty())
            f.warnings.push_back("Still computing: " + status + ".");
        return f;
    };
    PublishPace pace(kPublishSeconds);
    // A phase's start always shows; progress within a phase at most every kPublishSeconds.
    auto publish = [&](const std::string& status, double fraction, bool phaseStart) {
        if (!context.wantsProgress()) {
            context.reportFraction(fraction); // an export's progress line: no figure to build
            return;
        }
        if (!phaseStart && !pace.due())
            return;
        pace.begin();
        context.publish(figure(status), fraction);
    };
    const int every = std::max(100, epochs / 10);
    std::vector<std::string> problems;
    // Progress in the shares of workBudget's count: a run of many draws spends most of its time on
    // them. Within a share of draws the forward passes take a third, the entropies the rest.
    const RunWork work = runWork(v);
    const double trainingShare = work.vi / 2 / work.total(), drawsShare = work.viDraws / 2 / work.total(),
                 hmcEnd = 2 * (trainingShare + drawsShare) + work.hmc / work.total();
    // Polls cancellation, and publishes progress from `from` to `to` over `steps` calls.
    auto stepper = [&](const std::string& status, double from, double to, int steps) {
        return [&, status, from, to, steps, k = 0]() mutable {
            context.checkCancelled();
            publish(status, from + (to - from) * std::min(1.0, double(++k) / steps), false);
        };
    };
    auto trainAndDecompose = [&](bnn::Variant variant, double from) {
        const double to = from + trainingShare;
        const std::string label = inferenceLabel(variant);
        const TrainedRun run = train(data, configFrom(v, data.raw, variant), epochs, every, context,
                                     [&](const TrainedRun& r, double done) {
                                         const std::string stage =
                                             r.snapshot.epoch == 0 && bnn::usesWarmStart(variant)
                                                 ? ", warm start of the point network"
                                                 : ", epoch " + std::to_string(r.snapshot.epoch) + " of " +
                                                       std::to_string(epochs);
                                         publish(label + stage, from + (to - from) * done, false);
                                     });
        if (!run.diverged.empty())
            problems.push_back(inferenceLabel(variant) + " diverged (" + run.diverged + ")");
        const double mid = to + drawsShare / 3, end = to + drawsShare;
        return decompose(bnn::predictiveDraws(run.snapshot, gridStd, weightDraws, seed + 1, latentDraws,
                                              stepper(label + "'s predictive draws", to, mid, weightDraws)),
                         weightDraws, stepper(label + "'s decomposition", mid, end, kGridPoints));
    };

    publish("the true aleatoric entropy", 0.0, true);
    truth = trueAleatoricEntropyCurve(id, xs, [&] {
        context.checkCancelled();
        publish("the true aleatoric entropy", 0.0, false);
    });
    publish("mean-field VI", 0.0, true);
    mfvi = trainAndDecompose(bnn::Variant::Mfvi, 0);
    publish("NCAI", trainingShare + drawsShare, true);
    ncai = trainAndDecompose(bnn::Variant::Ncai, trainingShare + drawsShare);
    const double hmcStart = 2 * (trainingShare + drawsShare);
    publish("HMC", hmcStart, true);

    // HMC as the paper's Fig. 6: σ_z² and σ_ε² at the generating values (σ_ε in standardised
    // units), σ_w² = 10.
    bnn::HmcOptions options;
    options.chains = int(v.at("hmc_chains"));
    options.draws = int(v.at("hmc_draws"));
    options.warmup = int(v.at("hmc_warmup"));
    options.leapfrogSteps = int(v.at("hmc_leapfrog"));
    options.seed = seed;
    const double noiseSd = std::isfinite(info.sigmaEps2) ? std::sqrt(info.sigmaEps2) / scaling.ySd
                                                         : std::sqrt(0.1) / data.raw.reportOutputScale();
    const double latentVariance = std::isfinite(info.sigmaZ2) ? info.sigmaZ2 : 1.0;
    std::vector<int> hidden(std::size_t(info.hiddenLayers), info.hiddenUnits);
    long iterations = 0;
    const double totalIterations = double(options.chains) * (options.draws + options.warmup);
    const bnn::BnnHmcResult chains = bnn::runBnnHmc(
        data.train.x, data.train.y, hidden, true, noiseSd, kHmcWeightVariance, latentVariance, options, [&] {
            // Polled once per iteration: progress is the share of iterations done.
            const double done = double(iterations++) / totalIterations;
            publish("HMC, " + std::to_string(int(100 * done)) + " % of its iterations",
                    hmcStart + (hmcEnd - hmcStart) * done, false);
            return context.cancelled();
        });
    if (chains.cancelled)
        context.checkCancelled();
    publish("HMC's predictive draws", hmcEnd, true);
    const double hmcMid = hmcEnd + (1 - hmcEnd) / 3;
    const bnn::PredictiveDraws hmcDraws = bnn::hmcPredictiveDraws(
        chains, gridStd, seed + 2, latentDraws,
        stepper("HMC's predictive draws", hmcEnd, hmcMid, options.chains * options.draws));
    publish("HMC's decomposition", hmcMid, true);
    hmc = decompose(hmcDraws, int(hmcDraws.f.rows()) / latentDraws,
                    stepper("HMC's decomposition", hmcMid, 1, kGridPoints));

    Figure f = figure("");
    Summary& s = f.summary;
    for (const auto& [name, d] : {std::pair{"mfvi", &*mfvi}, {"ncai", &*ncai}, {"hmc", &*hmc}}) {
        const std::string key = name;
        s.set(key + ".total.mean", mean(d->total));
        s.set(key + ".aleatoric.mean", mean(d->aleatoric));
        s.set(key + ".epistemic.mean", mean(d->epistemic));
    }
    // How close each variational decomposition comes to HMC's, and each aleatoric curve to the
    // truth's (rms over the grid, nats).
    for (const auto& [name, d] : {std::pair{"mfvi", &*mfvi}, {"ncai", &*ncai}}) {
        const std::string key = name;
        s.set(key + ".aleatoric.rms_vs_hmc", rmsDifference(d->aleatoric, hmc->aleatoric));
        s.set(key + ".epistemic.rms_vs_hmc", rmsDifference(d->epistemic, hmc->epistemic));
    }
    for (const auto& [name, d] : {std::pair{"mfvi", &*mfvi}, {"ncai", &*ncai}, {"hmc", &*hmc}})
        s.set(std::string(name) + ".aleatoric.rms_vs_truth", rmsDifference(d->aleatoric, truth));
    double acceptance = 0, stepSize = 0;
    int divergences = 0;
    for (const bnn::HmcChain& c : chains.chains) {
        acceptance += c.acceptance / double(chains.chains.size());
        stepSize += c.stepSize / double(chains.chains.size());
        divergences += c.divergences;
    }
    s.set("hmc.acceptance", acceptance);
    s.set("hmc.step_size", stepSize);
    s.set("hmc.divergences", divergences);
    s.set("hmc.draws", double(hmcDraws.f.rows() / latentDraws));
    if (acceptance < 0.4 || divergences > 0)
        problems.push_back("HMC mixes poorly (acceptance " + std::to_string(acceptance).substr(0, 4) + ", " +
                           std::to_string(divergences) +
                           " divergent transitions): raise hmc_warmup or lower "
                           "hmc_leapfrog");
    for (const std::string& p : problems)
        f.warnings.push_back(p + ".");
    f.data = {{"x", asStd(data.raw.train.x.col(0))}, {"y", asStd(data.raw.train.y)}};
    return f;
}

} // namespace evx::scenarios
