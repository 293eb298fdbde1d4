#include "scenarios/quadrature/bq_dp_mixture_scenario.h"

#include "bq/structured/dp_exact.h"
#include "bq/structured/dp_prior.h"
#include "core/errors.h"
#include "models/csv_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace evx::scenarios {

using namespace bq::structured;
using dpbq::Curve;
using dpbq::EvidencePoint;
using dpbq::SampleState;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The λ beyond which the samples count as drawn elsewhere, in prior sds: the prior mass of the
// atoms moves by half its width; and the dof below which Student-t components count as far from
// the Gaussian ones the samples were drawn with (at ν = 10 the t and normal densities differ
// by ~10 % at 2 sd; bq-dp-mixture.md).
constexpr double kFarBaseMean = 0.5;
constexpr double kFarDof = 10;
constexpr int kShortChainSweeps = 40;
// Work budget: kernel matrices and their factors, hyperparameter settings × S × (S²/3 + M).
constexpr double kWorkLimit = 1.5e9;

std::string fmt(const char* format, double a, double b = 0, double c = 0)
{
    char buf[400];
    std::snprintf(buf, sizeof buf, format, a, b, c);
    return buf;
}

std::vector<ParameterSpec> parameters()
{
    return {
        integerParameter("n", "Number of points n", 4, kDpExactMaxPoints, 10,
                         "Points simulated from the DP mixture (σ = 1, λ = 0, σ_p = 3, α = 1); the exact "
                         "evidence sums over all their set partitions"),
        integerParameter("seed", "Data and sampler seed", 1, 9999, 1, "Seeds the data and the samplers"),
        realParameter("component_sd", "Component sd σ", "", 0.2, 3, 1, "Scale of each mixture component",
                      true),
        realParameter("base_mean", "Base mean λ", "", -5, 5, 0,
                      "Mean of the DP's base N(λ, σ_p²): the query; the samples stay where they were drawn"),
        realParameter("base_sd", "Base sd σ_p", "", 0.5, 10, 3, "Sd of the DP's base measure", true),
        realParameter("alpha", "Concentration α", "", 0.1, 10, 1, "DP concentration", true),
        choiceParameter("components", "Components", {"gaussian", "student-t"}, 0,
                        "Gaussian or Student-t mixture components (the query)"),
        realParameter("dof", "Student-t dof ν", "", 1, 30, 5, "Degrees of freedom of Student-t components",
                      true),
        choiceParameter("kernel", "Kernel", {"paper", "mmd"}, 1,
                        "paper: (1.74)+(1.78), bilinear in G (fails); mmd: exp(−MMD²/2ℓ²)"),
        choiceParameter("design", "Samples", {"posterior", "prior", "mixed"}, 2,
                        "Gibbs draws at the sampling point, prior draws, or half each"),
        choiceParameter("transform", "GP on", {"none", "wsabi"}, 1,
                        "A GP on f, or WSABI-L (a GP on √(2(f − a)))"),
        integerParameter("samples", "Likelihood evaluations S", 10, 1000, 100,
                         "Mixing measures at which p(x | G) is evaluated", true),
        realParameter("sample_base_mean", "Sampling λ", "", -5, 5, 0,
                      "The base mean at which the Gibbs chain ran (Gaussian components)"),
    };
}

bool sameKey(const dpbq::SampleKey& a, const dpbq::SampleKey& b)
{
    return a.x == b.x && a.componentSd == b.componentSd && a.baseSd == b.baseSd && a.alpha == b.alpha &&
           a.sampleBaseMean == b.sampleBaseMean && a.paperKernel == b.paperKernel && a.design == b.design &&
           a.wsabi == b.wsabi && a.samples == b.samples && a.seed == b.seed;
}

Plot dataPlot(const std::vector<double>& x, const SampleState* state)
{
    Plot p;
    p.title =
        "Data and the posterior predictive density (Gibbs draws at the sampling λ, Gaussian components)";
    p.xLabel = "x";
    p.yLabel = "density";
    if (state) {
        Series pred;
        pred.name = "posterior predictive";
        pred.colour = 3;
        pred.x = state->predictiveX;
        pred.y = state->predictiveDensity;
        p.series.push_back(std::move(pred));
    }
    Series points;
    points.name = "data x_i";
    points.kind = SeriesKind::Scatter;
    points.colour = kReferenceColour;
    points.x = x;
    points.y.assign(x.size(), 0.0);
    p.series.push_back(std::move(points));
    return p;
}

// Exact, BQ ± 2 sd (lower edge clipped at exact/1000 where not positive: the plot is logarithmic),
// Monte Carlo, and marks where the BQ mean is not positive.
void addCurve(Plot& p, const Curve& c, const std::string& bqName)
{
    Series exact{"exact", SeriesKind::Line, c.at, {}, kReferenceColour};
    Series bqMean{bqName, SeriesKind::Line, c.at, {}, 3};
    Series mc{"Monte Carlo (M = 2000 prior draws)", SeriesKind::Line, c.at, {}, 2, true};
    Series negative{"BQ mean ≤ 0 here", SeriesKind::Scatter, {}, {}, 4};
    Band band{"BQ ±2 sd (lower edge clipped at exact/1000 where ≤ 0)", c.at, {}, {}, 1};
    for (std::size_t i = 0; i < c.at.size(); ++i) {
        const double z = std::exp(c.exactLog[i]), floor = 1e-3 * z;
        const EvidencePoint& e = c.bq[i];
        exact.y.push_back(z);
        mc.y.push_back(std::exp(c.mcLog[i]));
        bqMean.y.push_back(e.mean > 0 ? e.mean : kNaN);
        band.lower.push_back(std::max(e.mean - 2 * e.sd, floor));
        band.upper.push_back(std::max(e.mean + 2 * e.sd, floor));
        if (!(e.mean > 0)) {
            negative.x.push_back(c.at[i]);
            negative.y.push_back(z);
        }
    }
    p.bands.push_back(std::move(band));
    p.series.push_back(std::move(exact));
    p.series.push_back(std::move(bqMean));
    p.series.push_back(std::move(mc));
    if (!negative.x.empty())
        p.series.push_back(std::move(negative));
    p.logY = true;
}

int negativeCount(const Curve& c)
{
    return int(std::count_if(c.bq.begin(), c.bq.end(), [](const EvidencePoint& e) { return !(e.mean > 0); }));
}

} // namespace

BqDpMixtureScenario::BqDpMixtureScenario() : m_schema(parameters()) {}

ScenarioInfo BqDpMixtureScenario::info() const
{
    return {"bq-dp-mixture", "BQ over mixing measures: the evidence of a DP mixture", "Bayesian quadrature",
            "The evidence of a Dirichlet-process mixture by BQ over mixing measures, against the exact sum "
            "over partitions (Fig. 1.5)"};
}

std::vector<Preset> BqDpMixtureScenario::presets() const
{
    return {
        {"fig1.5-lambda",
         "Fig. 1.5 left: the evidence against the base mean λ from one sample set (MMD kernel, WSABI-L)",
         {{"n", 10}, {"seed", 1}, {"kernel", 1}, {"design", 2}, {"transform", 1}, {"samples", 100}}},
        {"fig1.5-dof",
         "Fig. 1.5 right: Student-t components (ν = 2) queried with samples drawn for Gaussian ones",
         {{"n", 10}, {"seed", 1}, {"components", 1}, {"dof", 2}, {"kernel", 1}, {"design", 2}}},
        {"paper-kernel-fails",
         "The paper's kernel on posterior samples: its estimate is negative (the exact evidence is 4e-11)",
         {{"n", 10}, {"seed", 2}, {"kernel", 0}, {"design", 0}, {"transform", 0}, {"samples", 100}}},
        {"mmd-kernel-works",
         "The same data with the MMD kernel, half posterior, half prior samples, WSABI-L",
         {{"n", 10}, {"seed", 2}, {"kernel", 1}, {"design", 2}, {"transform", 1}, {"samples", 100}}}};
}

ScenarioInputs BqDpMixtureScenario::inputs() const
{
    ScenarioInputs in;
    in.dataFile = true;
    in.dataFileFilter = "CSV files (*.csv)";
    return in;
}

std::vector<WorkBudget> BqDpMixtureScenario::workBudget(const RunInput& input) const
{
    const ParameterValues v = m_schema.complete(input.values);
    const double s = v.at("samples");
    const double units = dpbq::hyperparameterCount(v.at("kernel") == 0) * s * (s * s / 3 + dpbq::kPriorDraws);
    return {{"BQ kernel work (hyperparameter settings × S × (S²/3 + M))", units, kWorkLimit,
             "the number of evaluations S"}};
}

std::vector<double> BqDpMixtureScenario::dataFor(const ParameterValues& v, const std::string& dataPath)
{
    if (dataPath.empty())
        return simulateDpData(int(v.at("n")), std::uint64_t(v.at("seed")));
    const models::CsvTable table = models::readCsv(dataPath);
    if (table.header.size() != 1)
        throw InvalidParameter("the data file must have one column of values (it has " +
                               std::to_string(table.header.size()) + ")");
    std::vector<double> x = models::numericColumn(table, table.header[0], dataPath, 1e6);
    if (x.size() < 4 || int(x.size()) > kDpExactMaxPoints)
        throw InvalidParameter("the data file must hold 4 to " + std::to_string(kDpExactMaxPoints) +
                               " values (the exact evidence sums over all set partitions); it holds " +
                               std::to_string(x.size()));
    if (std::all_of(x.begin(), x.end(), [&](double v) { return v == x.front(); }))
        throw InvalidParameter("all values in the data file are equal: a mixture cannot tell components "
                               "apart in such data; use a file with distinct values");
    return x;
}

std::shared_ptr<const std::vector<MixingMeasure>> BqDpMixtureScenario::priorDraws(double alpha) const
{
    {
        std::lock_guard lock(m_cacheMutex);
        if (auto it = m_priorDraws.find(alpha); it != m_priorDraws.end())
            return it->second;
    }
    auto draws = std::make_shared<const std::vector<MixingMeasure>>(
        drawDpPriorMeasures(alpha, dpbq::kPriorDraws, dpbq::kPriorDrawSeed));
    std::lock_guard lock(m_cacheMutex);
    if (m_priorDraws.size() >= 4)
        m_priorDraws.clear();
    m_priorDraws[alpha] = draws;
    return draws;
}

std::shared_ptr<const SampleState> BqDpMixtureScenario::sampleState(const dpbq::SampleKey& key,
                                                                    const RunContext& context,
                                                                    const dpbq::PartialFigure& partial) const
{
    {
        std::lock_guard lock(m_cacheMutex);
        for (const auto& s : m_states)
            if (sameKey(s->key, key))
                return s;
    }
    auto state = dpbq::buildSampleState(key, priorDraws(key.alpha), context, partial);
    std::lock_guard lock(m_cacheMutex);
    if (m_states.size() >= 4)
        m_states.erase(m_states.begin());
    m_states.push_back(state);
    return state;
}

Figure BqDpMixtureScenario::run(const ParameterValues& values, const RunContext& context) const
{
    return runWith(RunInput{values, {}, {}}, context);
}

Figure BqDpMixtureScenario::runWith(const RunInput& input, const RunContext& context) const
{
    // A run whose answer is all cached would otherwise finish after its cancellation.
    context.checkCancelled();
    const ParameterValues v = m_schema.complete(input.values);
    for (const WorkBudget& b : workBudget(input))
        if (b.count > b.limit)
            throw InvalidParameter(fmt("%.3g units of ", b.count) + b.what +
                                   fmt(" exceed the budget of %.3g: lower ", b.limit) + b.lowerBy);
    const std::vector<double> x = dataFor(v, input.dataPath);
    dpbq::SampleKey key;
    key.x = x;
    key.componentSd = v.at("component_sd");
    key.baseSd = v.at("base_sd");
    key.alpha = v.at("alpha");
    key.sampleBaseMean = v.at("sample_base_mean");
    key.paperKernel = v.at("kernel") == 0;
    key.design = DpDesign(int(v.at("design")));
    key.wsabi = v.at("transform") == 1;
    key.samples = int(v.at("samples"));
    key.seed = std::uint64_t(v.at("seed")) * 1000003 + 17;

    DpSettings query;
    query.componentSd = key.componentSd;
    query.baseSd = key.baseSd;
    query.alpha = key.alpha;
    query.baseMean = v.at("base_mean");
    query.components = v.at("components") == 1 ? DpComponents::StudentT : DpComponents::Gaussian;
    query.dof = v.at("dof");
    validateDpSettings(query);

    auto partial = [&](const std::vector<DpDesignSample>& drawn, double) {
        Figure f;
        f.plots.push_back(dataPlot(x, nullptr));
        f.summary.set("samples", double(drawn.size()));
        f.data.push_back({"x", x});
        return f;
    };
    const std::shared_ptr<const SampleState> state = sampleState(key, context, partial);
    context.checkCancelled();

    // The query: p(x | G) at the samples, one solve per hyperparameter setting.
    const std::vector<double> logF = dpLogLikelihoods(x, state->measures, query);
    const EvidencePoint bq = dpbq::evidencePoint(
        state->bq->estimate(Eigen::Map<const Eigen::VectorXd>(logF.data(), Eigen::Index(logF.size()))));
    const double exactLog = dpExactLogEvidence(x, query);
    const double mcLog = dpbq::logMeanExp(dpLogLikelihoods(x, *state->priorDraws, query));
    const double lowerLog = dpShortChainLogLowerBound(x, query, kShortChainSweeps, key.seed + 2);
    const double exact = std::exp(exactLog);

    Figure figure;
    const double lambda = query.baseMean, lambdaS = key.sampleBaseMean;
    const bool studentT = query.components == DpComponents::StudentT;
    if (!input.dataPath.empty())
        figure.warnings.push_back(fmt("n is ignored: the data file holds %.0f points", double(x.size())));
    const std::string bqName = key.paperKernel ? "BQ mean (paper's kernel: known to fail)" : "BQ mean";
    if (key.paperKernel) {
        figure.warnings.push_back("The paper's kernel (1.74) is bilinear in G while p(x | G) has degree n in "
                                  "G: its estimate cannot "
                                  "depend on α and is known to fail (METHODS.md §2b). Compare kernel = mmd.");
        if (key.wsabi)
            figure.warnings.push_back(
                "The paper's kernel runs with a GP on f, as in the paper: its z and V are "
                "closed form and use no prior draws, which WSABI-L needs.");
    }
    if (!(bq.mean > 0))
        figure.warnings.push_back(
            fmt("The BQ mean is not positive (%.3g): it says nothing about the evidence "
                "here, and bq.log_ratio is left out.",
                bq.mean));
    const bool farLambda = std::fabs(lambda - lambdaS) > kFarBaseMean * query.baseSd;
    if (farLambda)
        figure.warnings.push_back(
            fmt("λ = %.3g is more than σ_p/2 from the sampling λ = %.3g: the samples may "
                "miss the mixing measures that now explain the data.",
                lambda, lambdaS));
    if (studentT && query.dof < kFarDof)
        figure.warnings.push_back(fmt("Student-t components with ν = %.3g < 10 are far from the Gaussian "
                                      "components the samples were drawn with.",
                                      query.dof));
    const bool boundAbove = std::exp(lowerLog) > bq.mean + 2 * bq.sd;
    if (boundAbove)
        figure.warnings.push_back(
            fmt("A short Gibbs chain at the query settings (%.0f sweeps) finds evidence of "
                "at least %.3g, above the BQ band's upper edge %.3g: the band is wrong "
                "here.",
                kShortChainSweeps, std::exp(lowerLog), bq.mean + 2 * bq.sd));

    figure.plots.push_back(dataPlot(x, state.get()));

    Plot overLambda;
    overLambda.title = "Evidence against the base mean λ (Gaussian components), one sample set";
    overLambda.xLabel = "base mean λ";
    overLambda.yLabel = "evidence p(x)";
    addCurve(overLambda, state->overBaseMean, bqName);
    overLambda.markers.push_back({"samples drawn here", lambdaS});
    overLambda.markers.push_back({"current λ", lambda});
    Plot overDof;
    overDof.title = "Evidence against the Student-t components' dof at the sampling λ, one sample set";
    overDof.xLabel = "degrees of freedom ν";
    overDof.yLabel = "evidence p(x)";
    addCurve(overDof, state->overDof, bqName);
    const std::vector<double> dofEnds = {state->overDof.at.front(), state->overDof.at.back()};
    overDof.series.push_back({"Gaussian components, exact", SeriesKind::Line, dofEnds,
                              std::vector<double>(2, std::exp(state->gaussianExactLog)), kReferenceColour,
                              true});
    overDof.series.push_back(
        {"Gaussian components, BQ", SeriesKind::Line, dofEnds,
         std::vector<double>(2, state->gaussianBq.mean > 0 ? state->gaussianBq.mean : kNaN), 3, true});
    if (studentT)
        overDof.markers.push_back({"current ν", query.dof});
    // The query itself, on the plot whose other settings it shares.
    Plot* home = !studentT ? &overLambda : (lambda == lambdaS ? &overDof : nullptr);
    if (home) {
        const double at = studentT ? query.dof : lambda;
        home->series.push_back(
            {"query: BQ mean", SeriesKind::Scatter, {at}, {bq.mean > 0 ? bq.mean : kNaN}, 5});
        home->series.push_back({boundAbove ? "query: short-chain lower bound (above the band!)"
                                           : "query: short-chain lower bound",
                                SeriesKind::Scatter,
                                {at},
                                {std::exp(lowerLog)},
                                boundAbove ? 4 : 0});
    }
    figure.plots.push_back(std::move(overLambda));
    figure.plots.push_back(std::move(overDof));

    Plot conv;
    conv.title = "Evidence against the number of evaluations, at the sampling point";
    conv.xLabel = "likelihood evaluations";
    conv.yLabel = "evidence p(x)";
    conv.xInteger = true;
    addCurve(conv, state->overSamples, bqName);
    conv.series[2].name = "Monte Carlo (as many prior draws)";
    figure.plots.push_back(std::move(conv));

    figure.summary.set("exact.log_evidence", exactLog);
    figure.summary.set("bq.evidence.mean", bq.mean);
    figure.summary.set("bq.evidence.sd", bq.sd);
    if (bq.mean > 0) {
        figure.summary.set("bq.log_evidence", std::log(bq.mean));
        figure.summary.set("bq.log_ratio", std::log(bq.mean) - exactLog);
    }
    if (bq.sd > 0)
        figure.summary.set("bq.z_error", (bq.mean - exact) / bq.sd);
    if (std::isfinite(mcLog))
        figure.summary.set("mc.log_evidence", mcLog);
    if (std::isfinite(lowerLog))
        figure.summary.set("lower_bound.log_evidence", lowerLog);
    figure.summary.set("samples", double(key.samples));
    figure.summary.set("samples.posterior", double(state->posteriorCount));
    figure.summary.set("bq.negative_points",
                       double(negativeCount(state->overBaseMean) + negativeCount(state->overDof)));
    figure.data.push_back({"x", x});
    return figure;
}

} // namespace evx::scenarios
