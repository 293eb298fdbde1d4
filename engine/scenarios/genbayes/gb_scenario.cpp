#include "scenarios/genbayes/gb_scenario.h"

#include "core/errors.h"
#include "genbayes/divergence.h"
#include "genbayes/gb_inference.h"
#include "genbayes/ratio_estimation.h"
#include "scenarios/genbayes/gb_figure.h"
#include "scenarios/genbayes/gb_run_keys.h"

#include <algorithm>
#include <array>
#include <functional>
#include <numeric>

namespace evx::scenarios {
namespace {

using namespace genbayes;
using namespace gb_run_keys;

const std::vector<std::string> kMethods{"cv", "eb", "vb", "gen-bayesopt", "gen-grid"};
const std::vector<std::string> kMethodLabels{"classifier (L1, CV)", "classifier (EB)", "classifier (VB)",
                                             "Gen BayesOpt", "Gen grid"};
constexpr std::size_t kCacheLimit = 200000; // δ vectors of ≤ 1000 doubles: ≤ 1.6 GB worst, ~150 MB at n = 90
constexpr double kPublishSeconds = 0.1;

std::vector<ParameterSpec> parametersFor(std::vector<std::string> truths,
                                         std::vector<ParameterSpec> truthParameters,
                                         std::vector<std::string> featureBases, int featureBasis,
                                         std::vector<std::string> generativeGs)
{
    std::vector<ParameterSpec> p;
    p.push_back(
        choiceParameter("truth", "Data-generating distribution", std::move(truths), 1,
                        "Where the data come from: the model's own family (well specified) or another one"));
    for (ParameterSpec& s : truthParameters)
        p.push_back(std::move(s));
    p.push_back(
        choiceParameter("divergence", "Divergence", divergenceIds(), 1,
                        "The f-divergence whose estimate replaces the log-likelihood: exp(−n D̂_f(θ))"));
    p.push_back(
        choiceParameter("method", "Estimate of log r", kMethods, 2,
                        "Classifier (L1 with cross-validation, empirical Bayes, variational Bayes) or a "
                        "generative estimate of g (KDE), through GP + UCB or on the whole grid"));
    p.push_back(integerParameter("seed", "Seed", 0, 100000, 0,
                                 "Seed of the data, the simulations and the initial points"));
    p.push_back(integerParameter("n_obs", "Observations n", 10, 1000, 90, "Points drawn from the truth"));
    p.push_back(
        integerParameter("folds", "Classifier folds K", 2, 20, 10,
                         "Algorithm 1's folds: n (K − 1)/K simulations per θ, δ_i from held-out folds "
                         "(and the folds of the held-out generative g)"));
    p.push_back(choiceParameter(
        "simulation", "Simulation design", {"stratified", "independent", "auto"}, 2,
        "How each θ's simulations draw their random numbers: a Latin hypercube (the simulated sample "
        "matches p(· | θ) closely, so D̂ is far less noisy), independent draws, or auto (default): "
        "stratified for vb and for cv and eb with a fixed penalty, independent for cv and eb, "
        "whichever came closer to the reference"));
    p.push_back(realParameter(
        "eb_precision", "EB prior precision (0 = evidence)", "", 0, 100, 0,
        "Empirical Bayes only: 0 re-estimates the weights' prior precision by the evidence at every θ "
        "(the paper's), which shrinks δ towards 0 where the simulations are hard to tell from the "
        "data and flattens D̂ near its minimum; a positive value fixes the precision at every θ"));
    p.push_back(realParameter(
        "cv_c", "L1 penalty C (0 = cross-validated)", "", 0, 10000, 0,
        "L1 with cross-validation only: 0 chooses C by 5-fold cross-validation at every θ (the paper's), "
        "which, like the evidence, shrinks δ where the simulations are hard to tell from the data; a "
        "positive value fixes C at every θ"));
    p.push_back(choiceParameter(
        "feature_basis", "Classifier feature basis", std::move(featureBases), featureBasis,
        "The paper's features as they are, the same features in the observed sample's principal "
        "coordinates (decorrelated, unit variance), where the classifiers' shrinkage treats every "
        "direction alike, or (regression) x and the residual r = (y − β₀ − β₁x)/σ at each θ: "
        "(x, r, r², x r, x²)"));
    if (!generativeGs.empty())
        p.push_back(choiceParameter(
            "generative_g", "Generative g(y | x)", std::move(generativeGs), 0,
            "The Gen baselines' estimate of g: a GP regression with a fitted noise term (default); "
            "the paper's literal scikit-learn GP (constant · Matérn-3/2, no noise term, jitter 1e-10), "
            "which interpolates the sample, so every log-ratio is clipped and the posterior is the prior; "
            "or that GP held out, fitted to the other folds' points and evaluated at each fold's, "
            "where it has reverted to its prior and ignores x (the reading that fits the paper's Table 4)"));
    p.push_back(integerParameter("acquisitions", "UCB acquisitions", 0, 200, 100,
                                 "Evaluations after the 10 initial ones, each at the UCB maximiser", true));
    p.push_back(
        realParameter("ucb_beta", "UCB β", "", 0, 20, 5, "Exploration weight: acquire at max −n(μ − β σ)"));
    p.push_back(choiceParameter("surface_kernel", "Surface GP kernel", {"matern52", "matern32"}, 0,
                                "Matérn kernel of the GP over θ: 5/2 (default, smoother curvature near the "
                                "minimum) or the paper's 3/2"));
    p.push_back(realParameter("tempering", "Tempering τ", "", 0.05, 2, 1,
                              "Posterior ∝ exp(−τ n D̂_f(θ)); changing it reuses every evaluation"));
    return p;
}

constexpr std::size_t kSurfaceLimit = 48; // a 51³ surface with its sd is 2 MB
// Reference surfaces: 1 MB each on a 51³ grid, eight per data set, at most 48 (51 MB). The
// last loops' stand-ins: 9.6 MB each there (eight means and one sd), kept within 64 MB.
constexpr std::size_t kReferenceLimit = 48;
constexpr std::size_t kRecentBytes = std::size_t(64) << 20;
constexpr int kDivergenceCount = int(std::size(kAllDivergences));

std::vector<double> asVector(const Eigen::VectorXd& v)
{
    return {v.data(), v.data() + v.size()};
}

// D̂_f of each δ vector (rows) under the given divergences (columns; indices into
// kAllDivergences): a loop's evaluations rescored for another f.
Eigen::MatrixXd rescored(const std::vector<Eigen::VectorXd>& logRatios, const std::vector<int>& which)
{
    Eigen::MatrixXd d(Eigen::Index(logRatios.size()), Eigen::Index(which.size()));
    for (Eigen::Index i = 0; i < d.rows(); ++i)
        for (std::size_t k = 0; k < which.size(); ++k)
            d(i, Eigen::Index(k)) = divergenceEstimate(kAllDivergences[which[k]], logRatios[std::size_t(i)]);
    return d;
}

// D̂_f on the whole grid for the given divergences, one column each: the log-ratios with the
// given log g once per grid point, then each f.
Eigen::MatrixXd divergencesOnGrid(const GbModel& model, const Points& observed, const Eigen::MatrixXd& grid,
                                  const Eigen::VectorXd& logDensity, const std::vector<int>& which,
                                  const RunContext& context)
{
    Eigen::MatrixXd d(grid.rows(), Eigen::Index(which.size()));
    for (Eigen::Index g = 0; g < grid.rows(); ++g) {
        if (g % 4096 == 0)
            context.checkCancelled();
        const Eigen::VectorXd logRatios =
            modelLogRatios(model, observed, grid.row(g).transpose(), logDensity);
        for (std::size_t k = 0; k < which.size(); ++k)
            d(g, Eigen::Index(k)) = divergenceEstimate(kAllDivergences[which[k]], logRatios);
    }
    return d;
}

std::vector<int> allDivergences()
{
    std::vector<int> all(kDivergenceCount);
    std::iota(all.begin(), all.end(), 0);
    return all;
}

} // namespace

GbScenario::GbScenario(GbScenarioConfig config)
    : m_config(std::move(config)),
      m_schema(parametersFor(m_config.truths, m_config.truthParameters, m_config.featureBases,
                             m_config.featureBasis, m_config.generativeGs))
{
}

Eigen::VectorXd GbScenario::cachedLogRatios(const std::string& key,
                                            const std::function<Eigen::VectorXd()>& compute) const
{
    {
        std::lock_guard lock(m_cacheMutex);
        if (const auto it = m_cache.find(key); it != m_cache.end())
            return it->second;
    }
    Eigen::VectorXd delta = compute();
    std::lock_guard lock(m_cacheMutex);
    if (m_cache.size() >= kCacheLimit)
        m_cache.clear();
    m_cache.emplace(key, delta);
    return delta;
}

std::shared_ptr<const GbScenario::Surface> GbScenario::findSurface(const std::string& key) const
{
    std::lock_guard lock(m_cacheMutex);
    const auto it = m_surfaces.find(key);
    return it == m_surfaces.end() ? nullptr : it->second;
}

std::shared_ptr<const Eigen::VectorXd> GbScenario::findReference(const std::string& key) const
{
    std::lock_guard lock(m_cacheMutex);
    const auto it = m_references.find(key);
    return it == m_references.end() ? nullptr : it->second;
}

void GbScenario::storeReference(const std::string& key, Eigen::VectorXd surface) const
{
    std::lock_guard lock(m_cacheMutex);
    if (m_references.size() >= kReferenceLimit)
        m_references.clear();
    m_references[key] = std::make_shared<const Eigen::VectorXd>(std::move(surface));
}

std::shared_ptr<const Eigen::MatrixXd> GbScenario::grid(const ParameterBox& box) const
{
    std::lock_guard lock(m_cacheMutex);
    if (!m_grid)
        m_grid = std::make_shared<const Eigen::MatrixXd>(box.grid());
    return m_grid;
}

std::size_t GbScenario::Evaluations::bytes() const
{
    std::size_t doubles =
        std::size_t(thetas.size() + values.size() + means.size() + sdRatio.size() + sd.size());
    for (const Eigen::VectorXd& delta : logRatios)
        doubles += std::size_t(delta.size());
    return doubles * sizeof(double);
}

void GbScenario::storeSurface(const std::string& key, Surface surface) const
{
    std::lock_guard lock(m_cacheMutex);
    if (m_surfaces.size() >= kSurfaceLimit)
        m_surfaces.clear();
    m_surfaces[key] = std::make_shared<const Surface>(std::move(surface));
}

// Classifier training is the cost that grows with the parameters: every evaluation fits one
// classifier per fold on about 2n points of d features, and cross-validation 51 of them
// (5 folds × 10 C's and a refit). The defaults cost 9.9e4 (Poisson, VB: 0.5 s) to 3e7
// (regression, CV: about 18 s) units; 4e7 keeps every allowed run under half a minute.
std::vector<WorkBudget> GbScenario::workBudget(const RunInput& input) const
{
    const ParameterValues v = m_schema.complete(input.values);
    const int method = int(v.at("method"));
    if (method >= 3)
        return {}; // the Gen baselines fit no classifier; their grid and loop are fixed in size
    const double features = m_config.model()->featureCount();
    const double fitsPerFold = method == 0 ? 51 : 1;
    const double units = (10 + v.at("acquisitions")) * v.at("folds") * v.at("n_obs") * features * fitsPerFold;
    return {{"classifier training units (evaluations × folds × n_obs × features × fits)", units, 4e7,
             "acquisitions, folds or n_obs, or use the vb or eb classifier"}};
}

void GbScenario::keepRecent(const std::string& key, std::shared_ptr<const Evaluations> entry) const
{
    std::lock_guard lock(m_cacheMutex);
    std::size_t bytes = entry->bytes();
    for (const auto& [kept, evaluations] : m_recent)
        bytes += kept == key ? 0 : evaluations->bytes();
    if (bytes > kRecentBytes)
        m_recent.clear();
    m_recent[key] = std::move(entry);
}

void GbScenario::prepareSwitches(const DataSet& data, const std::string& recentKey, Evaluations made,
                                 const Eigen::VectorXd& logHyperparameters, const Eigen::VectorXd& sd,
                                 const RunContext& context) const
{
    const ParameterBox box = data.model.box();
    const std::shared_ptr<const Eigen::MatrixXd> grid = this->grid(box);
    made.values = rescored(made.logRatios, allDivergences());
    ShapedSurfaces shaped =
        smoothWithShape(box, *grid, made.thetas, made.values, made.kernel, logHyperparameters, context);
    made.means = std::move(shaped.means);
    made.sdRatio = std::move(shaped.sdRatio);
    made.sd = sd;
    keepRecent(recentKey, std::make_shared<const Evaluations>(std::move(made)));
    // Not before the first figure: on the 51³ grid each f costs about as much as the
    // log-ratios (a scalar expm1 per point and observation), seven about 1 s.
    std::vector<int> missing;
    for (int k = 0; k < kDivergenceCount; ++k)
        if (!findReference(referenceKey(data.key, k)))
            missing.push_back(k);
    if (missing.empty())
        return;
    const Eigen::MatrixXd references =
        divergencesOnGrid(data.model, data.observed, *grid, data.logG, missing, context);
    for (std::size_t k = 0; k < missing.size(); ++k)
        storeReference(referenceKey(data.key, missing[k]), references.col(Eigen::Index(k)));
}

Figure GbScenario::run(const ParameterValues& input, const RunContext& context) const
{
    context.checkCancelled(); // a cached surface below would otherwise answer a cancelled run
    const ParameterValues v = resolvedValues(m_schema.complete(input));
    const int n = int(v.at("n_obs")), folds = int(v.at("folds"));
    const int method = int(v.at("method"));
    if (method < 3 && n < folds)
        throw InvalidParameter("n_obs (" + std::to_string(n) + ") must be at least the number of folds K (" +
                               std::to_string(folds) + ")");
    const Divergence divergence = *divergenceFromId(divergenceIds()[std::size_t(v.at("divergence"))]);
    const gp::KernelKind kernel =
        v.at("surface_kernel") == 0 ? gp::KernelKind::Matern52 : gp::KernelKind::Matern32;
    const double tempering = v.at("tempering");
    const SimulationDesign design =
        v.at("simulation") == 0 ? SimulationDesign::Stratified : SimulationDesign::Independent;
    const auto basis = FeatureBasis(int(v.at("feature_basis")));
    const auto seed = std::uint64_t(v.at("seed"));
    const auto generativeG =
        v.count("generative_g") ? GenerativeG(int(v.at("generative_g"))) : GenerativeG::Noise;
    const std::unique_ptr<GbModel> model = m_config.model();
    const Truth truth = m_config.truth(v);
    const ParameterBox box = model->box();
    const std::shared_ptr<const Eigen::MatrixXd> gridOfBox = this->grid(box);
    const Eigen::MatrixXd& grid = *gridOfBox;

    std::mt19937_64 dataRng(seed);
    const Points observed = truth.sample(n, dataRng);
    const Eigen::VectorXd logG = truthLogDensity(truth, observed);
    const int divergenceIndex = int(v.at("divergence"));
    auto divergenceOnGrid = [&](const Eigen::VectorXd& logDensity) -> Eigen::VectorXd {
        return divergencesOnGrid(*model, observed, grid, logDensity, {divergenceIndex}, context).col(0);
    };

    GbView view;
    view.model = model.get();
    view.box = box;
    view.grid = &grid;
    view.observed = &observed;
    view.truth = &truth;
    view.methodLabel = kMethodLabels[std::size_t(method)];
    view.divergenceLabel = divergenceLabel(divergence);
    // The reference depends on the data and the divergence only.
    const std::string dataKey =
        valuesKey(v, {"divergence", "method", "folds", "simulation", "feature_basis", "eb_precision", "cv_c",
                      "tempering", "acquisitions", "ucb_beta", "surface_kernel", "generative_g"});
    if (const auto hit = findReference(referenceKey(dataKey, divergenceIndex))) {
        view.referenceDivergence = *hit;
    } else {
        // The data first: the reference over the regression's 51³ grid takes ~120 ms.
        if (context.wantsProgress())
            context.publish(gbFigure(view), 0);
        view.referenceDivergence = divergenceOnGrid(logG);
        storeReference(referenceKey(dataKey, divergenceIndex), view.referenceDivergence);
    }
    view.reference = gridPosterior(view.referenceDivergence, n, tempering);

    auto finishView = [&](const Eigen::VectorXd& surface) {
        view.method = gridPosterior(surface, n, tempering);
        view.jsd = jensenShannonDistanceOnGrid(view.reference, view.method);
    };
    int evaluations = 0;
    std::function<void()> afterFinal; // work for later switches, done once the final figure is out
    const std::string surfaceKey = "method:" + valuesKey(v, {"tempering"});
    if (const auto hit = findSurface(surfaceKey)) {
        view.surfaceMean = hit->mean;
        view.surfaceSd = hit->sd;
        view.evaluated = hit->evaluated;
        view.evaluatedValues = hit->values;
        finishView(view.surfaceMean);
        evaluations = hit->evaluations;
    } else if (method == 4) {          // Gen grid
        if (context.wantsProgress()) { // the reference meanwhile: on the regression each takes ~120 ms
            Figure partial = gbFigure(view);
            partial.warnings.push_back("Still computing: Gen grid's divergence at every grid point.");
            context.publish(partial, 0.5);
        }
        view.surfaceMean = divergenceOnGrid(generativeLogDensity(observed, 1.0, generativeG, folds));
        finishView(view.surfaceMean);
        evaluations = int(grid.rows());
        Surface surface;
        surface.mean = view.surfaceMean;
        surface.evaluations = evaluations;
        storeSurface(surfaceKey, std::move(surface));
    } else {
        const Eigen::VectorXd logGHat =
            method == 3 ? generativeLogDensity(observed, 1.0, generativeG, folds) : Eigen::VectorXd();
        Evaluations made;
        made.thetas.resize(0, box.dimension());
        auto record = [&](const Eigen::VectorXd& theta, Eigen::VectorXd delta) {
            made.thetas.conservativeResize(made.thetas.rows() + 1, Eigen::NoChange);
            made.thetas.row(made.thetas.rows() - 1) = theta.transpose();
            made.logRatios.push_back(std::move(delta));
            return divergenceEstimate(divergence, made.logRatios.back());
        };
        auto evaluate = [&](const Eigen::VectorXd& theta, int repeat) {
            if (method == 3)
                return record(theta, modelLogRatios(*model, observed, theta, logGHat));
            const std::string key = cacheKey(v, theta, repeat);
            const Eigen::VectorXd delta = cachedLogRatios(key, [&] {
                // Fresh simulations at every θ (and every repeat), seeded by all the run
                // depends on. Common random numbers across θ looked attractive (METHODS §4,
                // lead 2) but turn the simulated sample's own error into a smooth shift of
                // D̂ along θ that no smoothing can average out: at n = 90 the KL minimum
                // moved from λ ≈ 2.5 to 2.3; independent errors the GP averages instead.
                return classifierLogRatios(*model, observed, theta, Classifier(method), folds,
                                           std::hash<std::string>{}(key), design, basis,
                                           EbOptions{.fixedPrecision = v.at("eb_precision")},
                                           L1Options{.fixedC = v.at("cv_c")});
            });
            return record(theta, delta);
        };
        const int total = 10 + int(v.at("acquisitions"));
        const bool drawsSd = box.dimension() == 1; // 2-D and 3-D figures draw only the mean
        // Partial figures fill `view` itself (the final one overwrites every field they
        // set): copying its grid vectors cost more than the stand-in's own work.
        auto publishView = [&](int step) {
            if (view.surfaceMean.size()) // none before the surface GP's first fit
                finishView(view.surfaceMean);
            context.publish(gbFigure(view), double(step) / total);
        };
        auto progress = [&](const BayesOptState& s) {
            view.surfaceMean = s.meanOnGrid;
            view.surfaceSd = s.sdOnGrid;
            view.evaluated = s.thetas;
            view.evaluatedValues = s.divergences;
            publishView(s.step);
        };
        // Another divergence's evaluations, rescored with this f and smoothed once, stand in
        // until this loop has its own: the figure answers a change of divergence at once.
        const std::string recentKey = evaluationsKey(v);
        std::shared_ptr<const Evaluations> recent;
        {
            std::lock_guard lock(m_cacheMutex);
            if (const auto it = m_recent.find(recentKey); it != m_recent.end())
                recent = it->second;
        }
        if (recent && context.wantsProgress()) {
            if (recent->means.size() && recent->kernel == kernel) {
                view.surfaceMean = recent->means.col(divergenceIndex);
                view.surfaceSd = recent->sdRatio(divergenceIndex) * recent->sd;
                view.evaluated = recent->thetas;
                view.evaluatedValues = recent->values.col(divergenceIndex);
                publishView(int(recent->thetas.rows()));
            } else { // another surface kernel: its own fit
                progress(smoothEvaluations(box, grid, recent->thetas,
                                           rescored(recent->logRatios, {divergenceIndex}).col(0), kernel,
                                           drawsSd));
            }
        }
        const BayesOptState s = runBayesOpt(
            box, grid, evaluate,
            {.initial = 10,
             .acquisitions = int(v.at("acquisitions")),
             .beta = v.at("ucb_beta"),
             .seed = seed + 1,
             .kernel = kernel,
             .partialSd = drawsSd},
            context, context.wantsProgress() ? std::function<void(const BayesOptState&)>(progress) : nullptr,
            kPublishSeconds);
        view.surfaceMean = s.meanOnGrid;
        view.surfaceSd = s.sdOnGrid;
        view.evaluated = s.thetas;
        view.evaluatedValues = s.divergences;
        finishView(view.surfaceMean);
        evaluations = s.step;
        storeSurface(surfaceKey,
                     {view.surfaceMean, view.surfaceSd, view.evaluated, view.evaluatedValues, evaluations});
        made.kernel = kernel;
        auto raw = std::make_shared<const Evaluations>(std::move(made));
        keepRecent(recentKey, raw); // a switch during the preparation below still finds them
        if (context.wantsProgress() && raw->thetas.rows() >= 2) {
            // A window is watching: prepare for a switch of divergence once the final figure
            // is out. Batch runs (tables) skip this.
            afterFinal = [&, raw, recentKey, hyperparameters = s.logHyperparameters, sd = s.sdOnGrid] {
                prepareSwitches({*model, observed, logG, dataKey}, recentKey, *raw, hyperparameters, sd,
                                context);
            };
        }
    }

    Figure f = gbFigure(view);
    const auto ref = gridMoments(grid, view.reference), got = gridMoments(grid, view.method);
    for (int k = 0; k < box.dimension(); ++k) {
        const std::string& p = box.names[std::size_t(k)];
        f.summary.set("reference." + p + ".mean", ref[std::size_t(k)].mean);
        f.summary.set("reference." + p + ".sd", ref[std::size_t(k)].sd);
        f.summary.set("method." + p + ".mean", got[std::size_t(k)].mean);
        f.summary.set("method." + p + ".sd", got[std::size_t(k)].sd);
    }
    f.summary.set("jsd", view.jsd);
    f.summary.set("evaluations", evaluations);
    for (Eigen::Index c = 0; c < observed.cols(); ++c)
        f.data.emplace_back(m_config.dataNames[std::size_t(c)], asVector(observed.col(c)));
    if (afterFinal) {
        // The finished figure first: the preparation costs the regression about 1.5 s of CPU
        // on a new data set, which the window should not wait for.
        context.publishFinal(f);
        afterFinal();
    }
    return f;
}

} // namespace evx::scenarios
