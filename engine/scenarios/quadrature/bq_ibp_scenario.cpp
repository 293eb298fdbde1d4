#include "scenarios/quadrature/bq_ibp_scenario.h"

#include "bq/structured/feature_kernels.h"
#include "bq/structured/ibp_gibbs.h"
#include "core/errors.h"
#include "models/csv_table.h"
#include "scenarios/quadrature/bq_ibp_figure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace evx::scenarios {
namespace {

using namespace bq::structured;
using namespace ibpbq;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kLn10 = 2.302585092994046;
// Row updates of the chain (S × sweeps × N) a run may ask for: ~12 µs each at N = 25, D = 36.
constexpr double kWorkLimit = 1e6;

std::string fmt(const char* format, double a, double b = 0)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, format, a, b);
    return buf;
}

std::vector<ParameterSpec> ibpParameters()
{
    return {
        integerParameter("rows", "Rows N", 3, 25, 5, "Images in the toy data (exact evidence for N ≤ 5)"),
        integerParameter("seed", "Seed", 1, 1000000, 1,
                         "Seed of the toy data, the chain and the prior draws"),
        realParameter("sigma_x", "Noise sd σ_X", "", 0.2, 1.2, 0.5, "Where the evidence is read", true),
        realParameter("sigma_a", "Feature sd σ_A", "", 0.2, 2, 1, "Where the evidence is read", true),
        realParameter("alpha", "IBP concentration α", "", 0.2, 5, 1, "Prior mean number of features per row",
                      true),
        choiceParameter("kernel", "Kernel", {"paper", "gram"}, 1,
                        "paper: (1.70) Σ_n r_n r'_n with (1.72)/(1.73), which fails; gram: "
                        "exp(−‖ZZᵀ − Z'Z'ᵀ‖²/2ℓ²)"),
        choiceParameter("design", "Design", {"posterior", "prior", "mixed"}, 2,
                        "Gibbs samples, prior draws, or alternating halves"),
        integerParameter("samples", "Evaluations S", 10, 1000, 100, "Likelihood evaluations the BQ uses",
                         true),
        integerParameter("sweeps", "Gibbs sweeps between samples", 1, 50, 5,
                         "Sweeps between kept posterior samples (burn-in: 50 sweeps before the first)"),
        choiceParameter("transform", "Transform", {"none", "wsabi"}, 0,
                        "none: a GP on f; wsabi: WSABI-L, a GP on sqrt(2(f − a))"),
        realParameter("sample_sigma_x", "Sampling σ_X", "", 0.2, 1.2, 0.5,
                      "σ_X at which the Gibbs chain drew its samples", true),
        realParameter("sample_sigma_a", "Sampling σ_A", "", 0.2, 2, 1,
                      "σ_A at which the Gibbs chain drew its samples", true),
    };
}

std::vector<double> gramLengthscales()
{
    // Smaller than defaultGramLengthscales(): the evidence sits on a few isolated ZZᵀ, and at
    // ℓ ≥ 0.125·rms the marginal likelihood still picks lengthscales that spread each sample's f
    // over its neighbours (N = 5, mixed design: log10 ratios up to 1.5 on seeds 1–6, against
    // ≤ 0.03 with this grid).
    return {0.01, 0.02, 0.04, 0.0625};
}

std::string matrixKey(const Eigen::MatrixXd& m)
{
    std::ostringstream s;
    s.precision(17);
    s << m.rows() << 'x' << m.cols();
    for (Eigen::Index i = 0; i < m.size(); ++i)
        s << ',' << m.data()[i];
    return s.str();
}

double logMeanExp(const std::vector<IbpGramLikelihood>& l, double sx, double sa)
{
    const Eigen::VectorXd f = logF(l, sx, sa, l.size());
    const double top = f.maxCoeff();
    return top + std::log((f.array() - top).exp().mean());
}

} // namespace

BqIbpScenario::BqIbpScenario() : m_schema(ibpParameters()) {}

std::shared_ptr<const IbpEnumeration> BqIbpScenario::enumeration(int n, double alpha) const
{
    const std::string key = std::to_string(n) + fmt("|%.17g", alpha);
    {
        std::lock_guard lock(m_cacheMutex);
        if (auto it = m_enumerations.find(key); it != m_enumerations.end())
            return it->second;
    }
    // 5·10⁴ states: 0.3–2 s at N = 5; the classes left out matter only where σ_X is small
    // (a warning says so where a short chain finds them).
    auto e = std::make_shared<const IbpEnumeration>(n, alpha, 1e-6, 50000);
    std::lock_guard lock(m_cacheMutex);
    if (m_enumerations.size() > 8)
        m_enumerations.clear();
    m_enumerations[key] = e;
    return e;
}

ScenarioInfo BqIbpScenario::info() const
{
    return {"bq-ibp", "BQ over feature matrices: the Indian buffet process", "Bayesian quadrature",
            "The evidence of a linear-Gaussian IBP by BQ over binary matrices, beside the exact sum (N ≤ 5)"};
}

std::vector<Preset> BqIbpScenario::presets() const
{
    return {{"fig1.4",
             "Fig. 1.4: N = 25 images like the paper (no exact value past N = 5), gram kernel, mixed design",
             {{"rows", 25}, {"samples", 200}, {"sweeps", 2}}},
            {"paper-kernel-fails",
             "N = 5, the paper's kernel (1.70): the estimate is orders of magnitude off the exact value",
             {{"rows", 5}, {"kernel", 0}, {"seed", 3}}},
            {"gram-kernel-works",
             "The same data with exp(−‖ZZᵀ − Z'Z'ᵀ‖²/2ℓ²): within a few per cent of the exact value",
             {{"rows", 5}, {"kernel", 1}, {"seed", 3}}}};
}

ScenarioInputs BqIbpScenario::inputs() const
{
    ScenarioInputs in;
    in.dataFile = true;
    in.dataFileFilter = "CSV files (*.csv)";
    return in;
}

std::vector<WorkBudget> BqIbpScenario::workBudget(const RunInput& input) const
{
    const ParameterValues v = m_schema.complete(input.values);
    const double rows = v.at("rows"), s = v.at("samples"), sweeps = v.at("sweeps");
    return {{"Gibbs row updates (samples × sweeps × rows)", s * sweeps * rows, kWorkLimit,
             "samples, sweeps or rows"}};
}

void BqIbpScenario::dataFor(const ParameterValues& v, const std::string& dataPath, Eigen::MatrixXd& x,
                            Eigen::MatrixXd& zTrue)
{
    if (dataPath.empty()) {
        const IbpToyData d = makeIbpToyData(int(v.at("rows")), std::uint64_t(v.at("seed")));
        x = d.x;
        zTrue = d.zTrue;
        return;
    }
    const models::CsvTable t = models::readCsv(dataPath);
    const Eigen::Index n = Eigen::Index(t.rows.size()) + 1, d = Eigen::Index(t.header.size());
    // The reader takes the first row as a header; these files have none, so it is row 1.
    x.resize(n, d);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < d; ++j) {
            const std::string& cell = i == 0 ? t.header[size_t(j)] : t.rows[size_t(i - 1)][size_t(j)];
            char* end = nullptr;
            const double value = std::strtod(cell.c_str(), &end);
            if (end == cell.c_str() || !std::isfinite(value))
                throw InvalidParameter(dataPath + ": row " + std::to_string(i + 1) + ", column " +
                                       std::to_string(j + 1) +
                                       " is not a number (the file is N rows of D "
                                       "numbers, no header)");
            x(i, j) = value;
        }
    if (n < 3 || n > 25)
        throw InvalidParameter(dataPath + ": " + std::to_string(n) + " rows; bq-ibp takes 3 to 25 images");
    for (Eigen::Index i = 0; i < n; ++i)
        if ((x.row(i).array() == 0).all())
            throw InvalidParameter(dataPath + ": image (row) " + std::to_string(i + 1) +
                                   " is all zero; remove it or add its noise");
    if (((x.rowwise() - x.row(0)).array() == 0).all())
        throw InvalidParameter(dataPath + ": every row is the same image; the evidence of features needs "
                                          "images that differ");
    zTrue.resize(n, 0);
}

Figure BqIbpScenario::run(const ParameterValues& values, const RunContext& context) const
{
    return runWith(RunInput{values, {}, {}}, context);
}

Figure BqIbpScenario::runWith(const RunInput& input, const RunContext& context) const
{
    // A run whose answer is all cached would otherwise finish after its cancellation.
    context.checkCancelled();
    // The work budget is checked by runChecked (validateRunInput), before this.
    const ParameterValues v = m_schema.complete(input.values);
    Eigen::MatrixXd x, zTrue;
    dataFor(v, input.dataPath, x, zTrue);
    const int n = int(x.rows());
    const double sx = v.at("sigma_x"), sa = v.at("sigma_a"), alpha = v.at("alpha");
    const bool paper = v.at("kernel") == 0;
    const bool wsabi = v.at("transform") == 1 && !paper;
    const std::uint64_t seed = std::uint64_t(v.at("seed"));
    Figure figure;
    if (v.at("transform") == 1 && paper)
        figure.warnings.push_back(
            "WSABI-L needs a kernel over prior draws: the paper's kernel runs a GP on f");

    // The enumeration depends on N and α only; the evidence over it on the data too.
    std::shared_ptr<const ExactState> exact;
    if (n <= kIbpEnumerationMaxRows) {
        const std::string key = matrixKey(x) + fmt("|%.17g", alpha);
        {
            std::lock_guard lock(m_cacheMutex);
            if (auto it = m_exact.find(key); it != m_exact.end())
                exact = it->second;
        }
        if (!exact) {
            auto e = std::make_shared<ExactState>();
            e->enumeration = enumeration(n, alpha);
            context.checkCancelled();
            e->evidence = std::make_shared<IbpExactEvidence>(*e->enumeration, x);
            for (int iy = 0; iy < kGridSide; ++iy)
                for (int ix = 0; ix < kGridSide; ++ix)
                    e->surface.push_back(
                        e->evidence->logEvidence(gridSigma(ix, kGridSide, kSigmaMin, kSigmaXMax),
                                                 gridSigma(iy, kGridSide, kSigmaMin, kSigmaAMax)) /
                        kLn10);
            for (int i = 0; i < kSlicePoints; ++i)
                e->slice.push_back(e->evidence->logEvidence(gridSigma(i, kSlicePoints, kSigmaMin, kSigmaXMax),
                                                            kSliceSigmaA) /
                                   kLn10);
            exact = e;
            std::lock_guard lock(m_cacheMutex);
            if (m_exact.size() > 8)
                m_exact.clear();
            m_exact[key] = exact;
        }
    } else {
        figure.warnings.push_back("no exact evidence: N = " + std::to_string(n) +
                                  " rows, the enumeration of column types is limited to N ≤ 5");
    }

    // Samples, kernel and factored BQ, by everything but the σ's where the evidence is read.
    const std::string stateKey =
        matrixKey(x) + fmt("|a%.17g", alpha) + fmt("|k%g|d%g", v.at("kernel"), v.at("design")) +
        fmt("|s%g|w%g", v.at("samples"), v.at("sweeps")) + fmt("|t%d|seed%g", wsabi, double(seed)) +
        fmt("|sx%.17g|sa%.17g", v.at("sample_sigma_x"), v.at("sample_sigma_a"));
    std::shared_ptr<const SampleState> state;
    {
        std::lock_guard lock(m_cacheMutex);
        if (auto it = m_states.find(stateKey); it != m_states.end())
            state = it->second;
    }
    if (!state) {
        IbpDesignOptions o;
        o.design = IbpDesign(int(v.at("design")));
        o.samples = int(v.at("samples"));
        o.sweepsBetween = int(v.at("sweeps"));
        o.sigmaX = v.at("sample_sigma_x");
        o.sigmaA = v.at("sample_sigma_a");
        o.alpha = alpha;
        o.seed = seed;
        auto s = std::make_shared<SampleState>();
        PublishPace pace(0.25);
        s->samples = ibpDesignSamples(x, o, [&](int k) {
            context.checkCancelled();
            if (context.wantsProgress() && pace.due()) {
                pace.begin();
                context.publish(ibpbq::samplingFigure(x, zTrue, {}, k), 0.8 * k / o.samples);
            }
        });
        for (const FeatureMatrix& z : s->samples)
            s->likelihoods.emplace_back(x, z * z.transpose());
        std::mt19937_64 rng(seed ^ 0xB0B0B0B0ULL);
        std::vector<WeightedGram> draws;
        for (int i = 0; i < kPriorDraws; ++i) {
            const FeatureMatrix z = drawIbpPrior(n, alpha, rng);
            draws.push_back({z * z.transpose(), 1.0 / kPriorDraws});
            s->priorLikelihoods.emplace_back(x, draws.back().zzt);
        }
        context.checkCancelled();
        std::vector<GramSet> grid;
        if (paper) {
            grid.push_back(paperFeatureGram(s->samples, alpha));
        } else if (exact) {
            s->exactSupport = true;
            const auto support =
                ibpStratifiedSupport(*exact->enumeration, 1500, 1500, seed, &s->supportExactMass);
            grid = gramFeatureGrams(s->samples, support, gramLengthscales(), wsabi, true);
        } else {
            grid = gramFeatureGrams(s->samples, draws, gramLengthscales(), wsabi, false);
        }
        s->bq = std::make_shared<StructuredBq>(std::move(grid), wsabi ? Transform::Wsabi : Transform::None);
        ibpbq::fillGrids(*s, x, alpha, seed, context);
        state = s;
        std::lock_guard lock(m_cacheMutex);
        if (m_states.size() > 16)
            m_states.clear();
        m_states[stateKey] = state;
    }

    // At the current σ's: only f and the solves.
    const size_t total = state->samples.size();
    const StructuredEstimate e = state->bq->estimate(logF(state->likelihoods, sx, sa, total));
    const double mcLog = logMeanExp(state->priorLikelihoods, sx, sa);
    const IbpChainBound chain = ibpChainLowerBound(x, sx, sa, alpha, kChainSweeps, seed + 17);
    ibpbq::Current cur;
    cur.sigmaX = sx;
    cur.sigmaA = sa;
    cur.alpha = alpha;
    cur.estimate = e;
    cur.mcLogEvidence = mcLog;
    cur.chainLogBound = chain.logLowerBound;
    for (int k = 0; k < 24; ++k) {
        const size_t m = size_t(std::lround(3 * std::pow(double(total) / 3, k / 23.0)));
        if (!cur.prefixN.empty() && int(m) == cur.prefixN.back())
            continue;
        cur.prefixN.push_back(int(m));
        cur.prefix.push_back(state->bq->estimate(logF(state->likelihoods, sx, sa, m)));
    }
    if (exact)
        cur.exactLogEvidence = exact->evidence->logEvidence(sx, sa);

    figure.summary.set("samples", double(total));
    figure.summary.set("bq.log_scale", e.logScale);
    figure.summary.set("bq.evidence.mean", e.mean);
    figure.summary.set("bq.evidence.sd", e.sd());
    if (!e.negative())
        figure.summary.set("bq.log_evidence", e.logMean());
    figure.summary.set("mc.log_evidence", mcLog);
    figure.summary.set("chain.log_lower_bound", chain.logLowerBound);
    if (exact) {
        figure.summary.set("exact.log_evidence", cur.exactLogEvidence);
        figure.summary.set("exact.evidence", std::exp(cur.exactLogEvidence - e.logScale));
        figure.summary.set("exact.prior_mass_left_out", exact->enumeration->massLeftOut());
        figure.summary.set("exact.states", double(exact->enumeration->states().size()));
        if (!e.negative())
            figure.summary.set("bq.log_ratio", e.logMean() - cur.exactLogEvidence);
        if (state->exactSupport)
            figure.summary.set("kernel.support_exact_mass", state->supportExactMass);
    }
    figure.summary.set("surface.argmax.sigma_x", state->argmaxSigmaX);
    figure.summary.set("surface.argmax.sigma_a", state->argmaxSigmaA);
    figure.summary.set("surface.negative_points", state->negativePoints);

    if (e.negative())
        figure.warnings.push_back(exact ? "the BQ mean is not positive: no bq.log_ratio"
                                        : "the BQ mean is not positive");
    if (paper)
        figure.warnings.push_back("the paper's kernel (1.70) sees only the row sums of Z (rank ≤ N): its "
                                  "estimate is not to be trusted (METHODS.md §2b)");
    const double moved = std::max(std::fabs(std::log(sx / v.at("sample_sigma_x"))),
                                  std::fabs(std::log(sa / v.at("sample_sigma_a"))));
    if (moved > std::log(1.5) && v.at("design") != 1)
        figure.warnings.push_back(
            fmt("σ_X or σ_A is a factor %.2g from where the chain drew its samples: the "
                "posterior's structure may have changed and re-used samples fail silently",
                std::exp(moved)));
    if (exact && chain.logLowerBound > cur.exactLogEvidence + 1e-3)
        figure.warnings.push_back(
            fmt("the enumeration misses classes a short chain finds here (it leaves out "
                "prior mass %.2g): exact.log_evidence is a lower bound, short by at least "
                "%.2g nats",
                exact->enumeration->massLeftOut(), chain.logLowerBound - cur.exactLogEvidence));
    if (!e.negative() && chain.logLowerBound > e.logMean())
        figure.warnings.push_back(fmt("the BQ mean is below a certain lower bound (the classes a short chain "
                                      "visits sum to 10^%.4g): it is too low by at least a factor 10^%.3g",
                                      chain.logLowerBound / kLn10,
                                      (chain.logLowerBound - e.logMean()) / kLn10));
    if (!e.negative() && chain.logLowerBound > std::log(e.mean + 2 * e.sd()) + e.logScale)
        figure.warnings.push_back(
            fmt("a short chain at (σ_X, σ_A) finds classes worth 10^%.3g, more than the BQ "
                "mean + 2 sd: the band is wrong here",
                chain.logLowerBound / kLn10));
    ibpbq::addPlots(figure, x, zTrue, *state, exact.get(), cur, paper);
    std::vector<std::vector<double>> xs, zs;
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        xs.emplace_back(x.cols());
        Eigen::Map<Eigen::RowVectorXd>(xs.back().data(), x.cols()) = x.row(i);
        zs.emplace_back(zTrue.cols());
        Eigen::Map<Eigen::RowVectorXd>(zs.back().data(), zTrue.cols()) = zTrue.row(i);
    }
    figure.dataMatrices.push_back({"X", std::move(xs)});
    figure.dataMatrices.push_back({"Z_true", std::move(zs)});
    return figure;
}

} // namespace evx::scenarios
