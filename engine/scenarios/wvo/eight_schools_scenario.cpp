#include "scenarios/wvo/eight_schools_scenario.h"

#include "core/errors.h"
#include "models/eight_schools.h"
#include "scenarios/wvo/wvo_common.h"
#include "scenarios/wvo/wvo_figure.h"
#include "wvo/grid_reconstruction.h"

#include <boost/math/distributions/gamma.hpp>

#include <cmath>
#include <numbers>
#include <random>

namespace evx::scenarios {

using namespace wvo_figure;

namespace {

constexpr int kMuCells = 140;  // 0.5 per cell over [−30, 40]
constexpr int kTauCells = 120; // 1/3 per cell over [0, 40]

const wvo::Axis kMuAxis{models::kSchoolsMuLo, models::kSchoolsMuHi, kMuCells};
const wvo::Axis kTauAxis{models::kSchoolsTauLo, models::kSchoolsTauHi, kTauCells};

double sampleSd(const std::vector<double>& v)
{
    double m = 0;
    for (double x : v)
        m += x / v.size();
    double s = 0;
    for (double x : v)
        s += (x - m) * (x - m);
    return std::sqrt(s / (v.size() - 1));
}

// The marginal-empirical-Bayes prior: a Normal fitted to μ and a Gamma fitted to τ (by
// moments) on draws from the seven-school posterior.
struct MebPrior {
    double muMean, muSd, shape, rate;
    MebPrior(const Eigen::MatrixXd& draws)
    {
        const Eigen::VectorXd mu = draws.col(0), tau = draws.col(1);
        muMean = mu.mean();
        muSd = std::sqrt((mu.array() - muMean).square().sum() / (mu.size() - 1));
        const double tm = tau.mean();
        const double tv = (tau.array() - tm).square().sum() / (tau.size() - 1);
        shape = tm * tm / tv;
        rate = tm / tv;
    }
    double logDensity(double mu, double tau) const
    {
        const double z = (mu - muMean) / muSd;
        return -0.5 * z * z + (shape - 1) * std::log(tau) - rate * tau;
    }
};

} // namespace

WvoEightSchoolsScenario::WvoEightSchoolsScenario()
    : m_schema({
          integerParameter("virtual_count", "Virtual schools K", 2, 64, 16,
                           "Number of virtual schools drawn from the posterior predictive", true),
          integerParameter("posterior_draws", "Posterior draws M", 100, 20000, 2000,
                           "Posterior draws (μ_m, τ_m) used by the Monte Carlo objective"),
          integerParameter("seed", "Random seed", 1, 100000, 1, "Seed of the draws and the virtual schools"),
          {"leave_one_out",
           "Leave-one-school-out study",
           "",
           ParameterKind::Boolean,
           0,
           1,
           1,
           1,
           0,
           {},
           "Also run the incremental updates for each left-out school, with WVO and with marginal "
           "empirical Bayes"},
      })
{
}

ScenarioInfo WvoEightSchoolsScenario::info() const
{
    return {"wvo-eight-schools", "WVO: eight schools", "Weighted virtual observations",
            "The eight-schools hyperparameter posterior rebuilt from virtual schools; leave-one-school-out "
            "incremental updates against empirical Bayes (WVO paper Sec. 4.1)"};
}

std::vector<Preset> WvoEightSchoolsScenario::presets() const
{
    return {{"fig4",
             "Figs. 4–5: reconstruction with 16 virtual schools and the leave-one-out study",
             {{"virtual_count", 16}, {"leave_one_out", 1}}},
            {"reconstruction-only", "Only the reconstruction (fast)", {{"leave_one_out", 0}}}};
}

Figure WvoEightSchoolsScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    const int kVirtual = static_cast<int>(v.at("virtual_count"));
    const int m = static_cast<int>(v.at("posterior_draws"));
    const bool loo = v.at("leave_one_out") != 0;
    context.checkCancelled();
    std::mt19937_64 rng(static_cast<std::uint64_t>(v.at("seed")));

    // One table per school: log N(y_j | μ, σ_j² + τ²) at every cell.
    const std::size_t cells = static_cast<std::size_t>(kMuCells) * kTauCells;
    std::vector<std::vector<double>> tables(models::kEightSchools.size(), std::vector<double>(cells));
    std::vector<double> total(cells, 0.0);
    for (std::size_t j = 0; j < models::kEightSchools.size(); ++j)
        for (int iy = 0; iy < kTauCells; ++iy)
            for (int ix = 0; ix < kMuCells; ++ix) {
                const auto& s = models::kEightSchools[j];
                const double t =
                    models::schoolLogMarginal(s.y, s.sigma, kMuAxis.centre(ix), kTauAxis.centre(iy));
                tables[j][iy * kMuCells + ix] = t;
                total[iy * kMuCells + ix] += t;
            }
    const wvo::GridPosterior full(kMuAxis, kTauAxis, total); // flat prior on the box

    auto schoolsLogLik = [](int leaveOut) {
        return [leaveOut](double mu, double tau) {
            double s = 0;
            for (int j = 0; j < static_cast<int>(models::kEightSchools.size()); ++j)
                if (j != leaveOut)
                    s += models::schoolLogMarginal(models::kEightSchools[j].y, models::kEightSchools[j].sigma,
                                                   mu, tau);
            return s;
        };
    };
    // A virtual school: its effect θ ~ N(μ, τ²), a standard error σ̃ taken from the real
    // schools, and ỹ ~ N(θ, σ̃²); its exact marginal is N(ỹ | μ, σ̃² + τ²).
    auto drawSchool = [](double mu, double tau, std::mt19937_64& r) -> wvo::VirtualGroup {
        std::normal_distribution<double> z;
        std::uniform_int_distribution<std::size_t> pick(0, models::kEightSchools.size() - 1);
        const double sigma = models::kEightSchools[pick(r)].sigma;
        const double y = mu + tau * z(r) + sigma * z(r);
        return {[y, sigma](double m, double t) { return models::schoolLogMarginal(y, sigma, m, t); },
                nullptr};
    };

    wvo::GridReconstructionInput rin;
    rin.original = &full;
    rin.logPrior = models::schoolsLogPrior;
    rin.originalLogLik = schoolsLogLik(-1);
    rin.totalWeight = static_cast<double>(models::kEightSchools.size());
    rin.virtualCount = kVirtual;
    rin.posteriorDraws = m;
    rin.drawVirtual = drawSchool;
    rin.unweighted = true;
    const wvo::GridReconstruction rec = wvo::reconstructOnGrid(rin, rng, context);

    Figure f;
    Plot joint;
    joint.title = "p(μ, τ | y): heat map original; 50\u00a0% (thick) and 90\u00a0% (thin) regions";
    joint.xLabel = "μ (population mean effect)";
    joint.yLabel = "τ (between-school sd)";
    HeatMap map;
    map.name = "original posterior density";
    map.nx = kMuCells;
    map.ny = kTauCells;
    map.xMin = kMuAxis.centre(0);
    map.xMax = kMuAxis.centre(kMuCells - 1);
    map.yMin = kTauAxis.centre(0);
    map.yMax = kTauAxis.centre(kTauCells - 1);
    map.values = full.mass();
    for (double& d : map.values)
        d /= kMuAxis.step() * kTauAxis.step();
    joint.heatMaps.push_back(std::move(map));
    addContours(joint, full, 0);
    addContours(joint, *rec.unweighted, 1);
    addContours(joint, *rec.weighted, 2);
    addContourKeys(joint);
    f.plots.push_back(std::move(joint));

    Plot muPlot;
    muPlot.title = "Marginal posterior of μ";
    muPlot.xLabel = "μ";
    muPlot.yLabel = "probability density";
    muPlot.series = {densityCurve(0, kMuAxis.centres(), full.marginalX()),
                     densityCurve(1, kMuAxis.centres(), rec.unweighted->marginalX()),
                     densityCurve(2, kMuAxis.centres(), rec.weighted->marginalX())};
    f.plots.push_back(std::move(muPlot));
    Plot tauPlot;
    tauPlot.title = "Marginal posterior of τ";
    tauPlot.xLabel = "τ";
    tauPlot.yLabel = "probability density";
    tauPlot.series = {densityCurve(0, kTauAxis.centres(), full.marginalY()),
                      densityCurve(1, kTauAxis.centres(), rec.unweighted->marginalY()),
                      densityCurve(2, kTauAxis.centres(), rec.weighted->marginalY())};
    f.plots.push_back(std::move(tauPlot));
    f.plots.push_back(
        weightsPlot(rec.weights.weights, "Weights of the virtual schools (Σ w = 8)", "virtual school k"));

    addWvoSummary(f.summary, models::kEightSchools.size(), kVirtual, wvo::klDivergence(full, *rec.weighted),
                  wvo::klDivergence(full, *rec.unweighted), rec.weights.weights.sum());
    f.summary.set("original.mu.mean", full.meanX());
    f.summary.set("original.tau.mean", full.meanY());
    f.summary.set("original.mu.sd", full.sdX());
    f.summary.set("original.tau.sd", full.sdY());
    f.summary.set("weighted.mu.mean", rec.weighted->meanX());
    f.summary.set("weighted.tau.mean", rec.weighted->meanY());
    // τ = 0 is a natural boundary with mass; warn only when μ's ends or τ's top hold mass.
    double clipped = 0;
    for (int iy = 0; iy < kTauCells; ++iy)
        for (int ix = 0; ix < kMuCells; ++ix)
            if (ix == 0 || ix == kMuCells - 1 || iy == kTauCells - 1)
                clipped += full.mass()[iy * kMuCells + ix];
    if (clipped > 1e-3)
        f.warnings.push_back("The posterior reaches the edge of the prior box.");
    // The eight schools' estimated effects y_j and their standard errors σ_j, A to H.
    std::vector<double> effects, standardErrors;
    for (const auto& school : models::kEightSchools) {
        effects.push_back(school.y);
        standardErrors.push_back(school.sigma);
    }
    f.data = {{"y", std::move(effects)}, {"sigma", std::move(standardErrors)}};

    if (!loo)
        return f;

    // Leave one school out: WVO for the other seven plus the left-out school's data, and
    // marginal empirical Bayes, both compared with the full posterior.
    const int schools = static_cast<int>(models::kEightSchools.size());
    std::vector<double> muWvo, muMeb, tauWvo, tauMeb;
    std::vector<wvo::Quantiles> qMuO, qMuW, qMuM, qTauO, qTauW, qTauM;
    std::vector<double> posO, posW, posM;
    double klWvo = 0, klMeb = 0;
    for (int j = 0; j < schools; ++j) {
        context.publish(f, static_cast<double>(j) / schools);
        std::vector<double> rest(cells);
        for (std::size_t c = 0; c < cells; ++c)
            rest[c] = total[c] - tables[j][c];
        const wvo::GridPosterior seven(kMuAxis, kTauAxis, rest);
        wvo::GridReconstructionInput lin = rin;
        lin.original = &seven;
        lin.originalLogLik = schoolsLogLik(j);
        lin.totalWeight = schools - 1;
        lin.extraLogTable = &tables[j];
        lin.unweighted = false;
        const wvo::GridReconstruction inc = wvo::reconstructOnGrid(lin, rng, context);

        const MebPrior meb(seven.sample(m, rng));
        std::vector<double> mebTable(cells);
        for (int iy = 0; iy < kTauCells; ++iy)
            for (int ix = 0; ix < kMuCells; ++ix) {
                const std::size_t c = static_cast<std::size_t>(iy) * kMuCells + ix;
                mebTable[c] = meb.logDensity(kMuAxis.centre(ix), kTauAxis.centre(iy)) + tables[j][c];
            }
        const wvo::GridPosterior mebPost(kMuAxis, kTauAxis, mebTable);

        muWvo.push_back(inc.weighted->meanX());
        tauWvo.push_back(inc.weighted->meanY());
        muMeb.push_back(mebPost.meanX());
        tauMeb.push_back(mebPost.meanY());
        klWvo += wvo::klDivergence(full, *inc.weighted) / schools;
        klMeb += wvo::klDivergence(full, mebPost) / schools;
        posO.push_back(j + 1 - 0.25);
        posW.push_back(j + 1);
        posM.push_back(j + 1 + 0.25);
        qMuO.push_back(full.quantilesX());
        qTauO.push_back(full.quantilesY());
        qMuW.push_back(inc.weighted->quantilesX());
        qTauW.push_back(inc.weighted->quantilesY());
        qMuM.push_back(mebPost.quantilesX());
        qTauM.push_back(mebPost.quantilesY());
    }
    for (auto [name, qo, qw, qm] :
         {std::tuple{"μ", &qMuO, &qMuW, &qMuM}, std::tuple{"τ", &qTauO, &qTauW, &qTauM}}) {
        Plot box;
        box.title = std::string("Leave one school out: ") + name + " (box 25–75%, median, whiskers 5–95%)";
        box.xLabel = "left-out school (1 = A … 8 = H)";
        box.xInteger = true;
        box.yLabel = name;
        Series ref; // the full posterior's median across all folds; it also frames the outer boxes
        ref.name = "median of the full posterior";
        ref.colour = kReferenceColour;
        ref.dashed = true;
        const double median = (*qo)[0].q50;
        for (int i = 0; i <= 20; ++i) {
            ref.x.push_back(0.5 + (schools)*i / 20.0);
            ref.y.push_back(median);
        }
        box.series.push_back(std::move(ref));
        box.series.push_back(
            boxSeries("Full posterior (all eight schools)", kOriginalColour, posO, *qo, 0.1));
        box.series.push_back(
            boxSeries("WVO (seven schools) + left-out school", kWeightedColour, posW, *qw, 0.1));
        box.series.push_back(
            boxSeries("Marginal empirical Bayes + left-out school", kMebColour, posM, *qm, 0.1));
        f.plots.push_back(std::move(box));
    }
    f.summary.set("loo.sd_of_means.mu.wvo", sampleSd(muWvo));
    f.summary.set("loo.sd_of_means.mu.meb", sampleSd(muMeb));
    f.summary.set("loo.sd_of_means.tau.wvo", sampleSd(tauWvo));
    f.summary.set("loo.sd_of_means.tau.meb", sampleSd(tauMeb));
    f.summary.set("loo.kl.wvo.mean", klWvo);
    f.summary.set("loo.kl.meb.mean", klMeb);
    return f;
}

} // namespace evx::scenarios
