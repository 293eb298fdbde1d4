#include "scenarios/wvo/rats_scenario.h"

#include "core/errors.h"
#include "models/rat_tumors.h"
#include "scenarios/wvo/wvo_common.h"
#include "scenarios/wvo/wvo_figure.h"
#include "stats/densities.h"
#include "wvo/grid_reconstruction.h"

#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <random>

namespace evx::scenarios {

using namespace wvo_figure;

namespace {

// The posterior lies in u ∈ [−2.2, −1.4], v ∈ [1.5, 4.5] (BDA3 Fig. 5.3); the margins hold
// the leave-one-out posteriors and keep the mass beyond the grid below 1e-6 (warned otherwise).
constexpr int kUCells = 72;
constexpr int kVCells = 80;
const wvo::Axis kUAxis{-2.5, -1.1, kUCells}; // log(α/β)
const wvo::Axis kVAxis{0.8, 6.0, kVCells};   // log(α + β)
constexpr std::size_t kCells = static_cast<std::size_t>(kUCells) * kVCells;

// Beta-binomial tables by (y, n), shared by every lab, fold and virtual lab with equal data.
class TableCache {
public:
    std::shared_ptr<const std::vector<double>> get(int y, int n)
    {
        auto& slot = m_tables[{y, n}];
        if (!slot) {
            auto t = std::make_shared<std::vector<double>>(kCells);
            for (int iv = 0; iv < kVCells; ++iv)
                for (int iu = 0; iu < kUCells; ++iu) {
                    const double u = kUAxis.centre(iu), v = kVAxis.centre(iv);
                    (*t)[iv * kUCells + iu] =
                        stats::betaBinomialLogPmf(y, n, models::ratsAlpha(u, v), models::ratsBeta(u, v));
                }
            slot = std::move(t);
        }
        return slot;
    }

private:
    std::map<std::pair<int, int>, std::shared_ptr<const std::vector<double>>> m_tables;
};

// Posterior mean and sd of one lab's rate θ ~ Beta(α + y, β + n − y), averaged over (α, β).
std::pair<double, double> labRate(const wvo::GridPosterior& post, int y, int n)
{
    const double m1 = post.expectation([&](double u, double v) {
        const double a = models::ratsAlpha(u, v) + y, b = models::ratsBeta(u, v) + n - y;
        return a / (a + b);
    });
    const double m2 = post.expectation([&](double u, double v) {
        const double a = models::ratsAlpha(u, v) + y, b = models::ratsBeta(u, v) + n - y;
        return a * (a + 1) / ((a + b) * (a + b + 1));
    });
    return {m1, std::sqrt(std::max(m2 - m1 * m1, 0.0))};
}

} // namespace

WvoRatsScenario::WvoRatsScenario()
    : m_schema({
          integerParameter("virtual_count", "Virtual labs K", 2, 142, 71,
                           "Number of virtual labs drawn from the posterior predictive", true),
          integerParameter("posterior_draws", "Posterior draws M", 100, 20000, 1000,
                           "Posterior draws (α_m, β_m) used by the Monte Carlo objective"),
          integerParameter("seed", "Random seed", 1, 100000, 1, "Seed of the draws and the virtual labs"),
          {"leave_one_out",
           "Leave-one-lab-out study",
           "",
           ParameterKind::Boolean,
           0,
           1,
           1,
           1,
           0,
           {},
           "Also infer each lab's rate incrementally: WVO for the other 70 labs plus its own data"},
          {"subsampling",
           "Subsampling study (K' = 5 … 71)",
           "",
           ParameterKind::Boolean,
           0,
           1,
           1,
           1,
           0,
           {},
           "Also rebuild the posterior from K' virtual labs for K' from 5 to 71"},
      })
{
}

ScenarioInfo WvoRatsScenario::info() const
{
    return {
        "wvo-rats", "WVO: rat tumours (71 labs)", "Weighted virtual observations",
        "The beta-binomial hyperparameter posterior of 71 labs rebuilt from virtual labs; leave-one-lab-out "
        "and subsampling (WVO paper Sec. 4.2)"};
}

std::vector<Preset> WvoRatsScenario::presets() const
{
    return {{"fig6",
             "Figs. 6–7: reconstruction, leave-one-lab-out ellipses and subsampling",
             {{"virtual_count", 71}, {"leave_one_out", 1}, {"subsampling", 1}}},
            {"reconstruction-only",
             "Only the reconstruction (fast)",
             {{"leave_one_out", 0}, {"subsampling", 0}}}};
}

// The objective and its gradient touch every (virtual lab, posterior draw) pair: the default
// 7.1e4 pairs take 1.1 s, so 6e5 allow about 9 s (the largest settings took 34 s).
std::vector<WorkBudget> WvoRatsScenario::workBudget(const RunInput& input) const
{
    const ParameterValues v = m_schema.complete(input.values);
    return {{"(virtual lab, posterior draw) pairs", v.at("virtual_count") * v.at("posterior_draws"), 6e5,
             "virtual_count or posterior_draws"}};
}

Figure WvoRatsScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    const int kVirtual = static_cast<int>(v.at("virtual_count"));
    const int m = static_cast<int>(v.at("posterior_draws"));
    context.checkCancelled();
    std::mt19937_64 rng(static_cast<std::uint64_t>(v.at("seed")));
    const int labs = static_cast<int>(models::kRatTumors.size());

    TableCache cache;
    std::vector<double> prior(kCells), total(kCells, 0.0);
    for (int iv = 0; iv < kVCells; ++iv)
        for (int iu = 0; iu < kUCells; ++iu)
            prior[iv * kUCells + iu] = models::ratsLogPrior(kUAxis.centre(iu), kVAxis.centre(iv));
    for (const models::Lab& lab : models::kRatTumors) {
        const auto t = cache.get(lab.y, lab.n);
        for (std::size_t c = 0; c < kCells; ++c)
            total[c] += (*t)[c];
    }
    context.checkCancelled();
    std::vector<double> logPost(kCells);
    for (std::size_t c = 0; c < kCells; ++c)
        logPost[c] = prior[c] + total[c];
    const wvo::GridPosterior full(kUAxis, kVAxis, logPost);

    // A virtual lab: (α, β) from the posterior, a rate θ ~ Beta(α, β), a group size n taken
    // from the real labs, ỹ ~ Bin(n, θ).
    auto drawLab = [&cache, labs](double u, double vv, std::mt19937_64& r) -> wvo::VirtualGroup {
        const double theta = wvo_common::betaDraw(models::ratsAlpha(u, vv), models::ratsBeta(u, vv), r);
        const int n = models::kRatTumors[std::uniform_int_distribution<int>(0, labs - 1)(r)].n;
        const int y = std::binomial_distribution<int>(n, theta)(r);
        return {[y, n](double a, double b) {
                    return stats::betaBinomialLogPmf(y, n, models::ratsAlpha(a, b), models::ratsBeta(a, b));
                },
                cache.get(y, n)};
    };
    const std::function<double(double, double)> logPrior = [](double u, double vv) {
        return models::ratsLogPrior(u, vv);
    };

    // The original posterior at once; the reconstruction, the 71 leave-one-out runs and the
    // subsampling follow, each publishing what it has so far.
    auto heatMapOf = [&] {
        HeatMap map;
        map.name = "original posterior density";
        map.nx = kUCells;
        map.ny = kVCells;
        map.xMin = kUAxis.centre(0);
        map.xMax = kUAxis.centre(kUCells - 1);
        map.yMin = kVAxis.centre(0);
        map.yMax = kVAxis.centre(kVCells - 1);
        map.values = full.mass();
        for (double& d : map.values)
            d /= kUAxis.step() * kVAxis.step();
        return map;
    };
    if (context.wantsProgress()) {
        Figure first;
        Plot joint;
        joint.title =
            "p(log(α/β), log(α+β) | y): heat map original; 50\u00a0% (thick) and 90\u00a0% (thin) regions";
        joint.xLabel = "log(α/β)";
        joint.yLabel = "log(α + β)";
        joint.heatMaps.push_back(heatMapOf());
        addContours(joint, full, 0);
        addContourKeys(joint);
        first.plots.push_back(std::move(joint));
        first.summary.set("original.log_ratio.mean", full.meanX());
        first.summary.set("original.log_sum.mean", full.meanY());
        context.publish(first, 0.05);
    }

    wvo::GridReconstructionInput rin;
    rin.original = &full;
    rin.logPrior = logPrior;
    rin.totalWeight = labs;
    rin.virtualCount = kVirtual;
    rin.posteriorDraws = m;
    rin.drawVirtual = drawLab;
    rin.unweighted = true;
    rin.cellDraws = true;
    rin.originalLogLikTable = &total;
    const wvo::GridReconstruction rec = wvo::reconstructOnGrid(rin, rng, context);

    Figure f;
    // The 71 experiments (the last is the current one): tumours y_j among n_j rats.
    std::vector<double> tumours, rats;
    for (const models::Lab& lab : models::kRatTumors) {
        tumours.push_back(lab.y);
        rats.push_back(lab.n);
    }
    f.data = {{"tumours", std::move(tumours)}, {"rats", std::move(rats)}};
    Plot joint;
    joint.title =
        "p(log(α/β), log(α+β) | y): heat map original; 50\u00a0% (thick) and 90\u00a0% (thin) regions";
    joint.xLabel = "log(α/β)";
    joint.yLabel = "log(α + β)";
    joint.heatMaps.push_back(heatMapOf());
    addContours(joint, full, 0);
    addContours(joint, *rec.unweighted, 1);
    addContours(joint, *rec.weighted, 2);
    addContourKeys(joint);
    f.plots.push_back(std::move(joint));

    Plot uPlot;
    uPlot.title = "Marginal posterior of log(α/β)";
    uPlot.xLabel = "log(α/β)";
    uPlot.yLabel = "probability density";
    uPlot.series = {densityCurve(0, kUAxis.centres(), full.marginalX()),
                    densityCurve(1, kUAxis.centres(), rec.unweighted->marginalX()),
                    densityCurve(2, kUAxis.centres(), rec.weighted->marginalX())};
    f.plots.push_back(std::move(uPlot));
    Plot vPlot;
    vPlot.title = "Marginal posterior of log(α + β)";
    vPlot.xLabel = "log(α + β)";
    vPlot.yLabel = "probability density";
    vPlot.series = {densityCurve(0, kVAxis.centres(), full.marginalY()),
                    densityCurve(1, kVAxis.centres(), rec.unweighted->marginalY()),
                    densityCurve(2, kVAxis.centres(), rec.weighted->marginalY())};
    f.plots.push_back(std::move(vPlot));
    f.plots.push_back(
        weightsPlot(rec.weights.weights, "Weights of the virtual labs (Σ w = 71)", "virtual lab k"));

    addWvoSummary(f.summary, labs, kVirtual, wvo::klDivergence(full, *rec.weighted),
                  wvo::klDivergence(full, *rec.unweighted), rec.weights.weights.sum());
    f.summary.set("original.log_ratio.mean", full.meanX());
    f.summary.set("original.log_sum.mean", full.meanY());
    f.summary.set("weighted.log_ratio.mean", rec.weighted->meanX());
    f.summary.set("weighted.log_sum.mean", rec.weighted->meanY());
    if (full.massBeyondGrid() > 1e-6)
        f.warnings.push_back("The posterior reaches the edge of the grid.");

    if (v.at("leave_one_out") != 0) {
        Plot ell;
        ell.title = "Leave one lab out: each lab's rate θ_j, original vs incremental";
        ell.xLabel = "original posterior of θ_j (all 71 labs)";
        ell.yLabel = "incremental: WVO (70 labs) + lab j";
        ell.equalAspect = true; // circles of means ± sd
        Series ellipses;
        ellipses.name = "lab j: centre = means, width/height = sd";
        ellipses.colour = kWeightedColour;
        double absDiff = 0, sdRatio = 0, kl = 0, lo = 1, hi = 0;
        auto withEllipses = [&](Series ellipsesSoFar) {
            Series diagonal;
            diagonal.name = "equal means (ideal)";
            diagonal.colour = kReferenceColour;
            diagonal.dashed = true;
            for (int t = 0; t <= 20; ++t) {
                diagonal.x.push_back(std::max(0.0, lo) + (hi - std::max(0.0, lo)) * t / 20);
                diagonal.y.push_back(diagonal.x.back());
            }
            Plot p = ell;
            p.series = {std::move(diagonal), std::move(ellipsesSoFar)};
            return p;
        };
        const double looShare = v.at("subsampling") != 0 ? 0.6 : 0.95;
        for (int j = 0; j < labs; ++j) {
            if (context.wantsProgress() && j % 4 == 0) {
                Figure partial = f;
                if (j > 0)
                    partial.plots.push_back(withEllipses(ellipses));
                context.publish(partial, 0.1 + looShare * j / labs);
            }
            const models::Lab lab = models::kRatTumors[j];
            const auto own = cache.get(lab.y, lab.n);
            std::vector<double> rest(kCells);
            for (std::size_t c = 0; c < kCells; ++c)
                rest[c] = logPost[c] - (*own)[c];
            const wvo::GridPosterior seventy(kUAxis, kVAxis, rest);
            std::vector<double> restLik(kCells);
            for (std::size_t c = 0; c < kCells; ++c)
                restLik[c] = total[c] - (*own)[c];
            wvo::GridReconstructionInput lin = rin;
            lin.original = &seventy;
            lin.totalWeight = labs - 1;
            lin.unweighted = false;
            lin.originalLogLikTable = &restLik;
            lin.extraLogTable = own.get();
            const wvo::GridReconstruction inc = wvo::reconstructOnGrid(lin, rng, context);
            const auto [mo, so] = labRate(full, lab.y, lab.n);
            const auto [mi, si] = labRate(*inc.weighted, lab.y, lab.n);
            absDiff += std::abs(mi - mo) / labs;
            sdRatio += si / so / labs;
            kl += wvo::klDivergence(full, *inc.weighted) / labs;
            for (int t = 0; t <= 24; ++t) {
                const double a = 2 * std::numbers::pi * t / 24;
                ellipses.x.push_back(mo + 0.5 * so * std::cos(a));
                ellipses.y.push_back(mi + 0.5 * si * std::sin(a));
            }
            ellipses.x.push_back(NAN);
            ellipses.y.push_back(NAN);
            lo = std::min({lo, mo - so, mi - si});
            hi = std::max({hi, mo + so, mi + si});
        }
        f.plots.push_back(withEllipses(std::move(ellipses)));
        f.summary.set("loo.rate.mean_abs_diff", absDiff);
        f.summary.set("loo.rate.sd_ratio", sdRatio);
        f.summary.set("loo.kl.mean", kl);
    }

    if (v.at("subsampling") != 0) {
        Plot sub;
        sub.title = "Subsampling: reconstruction error with K' virtual labs";
        sub.xLabel = "number of virtual labs K'";
        sub.xInteger = true;
        sub.yLabel = "KL(original ‖ reconstruction), nats";
        sub.logY = true;
        Series err;
        err.name = "weighted virtual labs";
        err.colour = kWeightedColour;
        err.kind = SeriesKind::Line;
        Series unw;
        unw.name = "unweighted virtual labs";
        unw.colour = kUnweightedColour;
        unw.dashed = true;
        const std::vector<int> counts{5, 8, 10, 15, 20, 25, 30, 40, 50, 60, 71};
        for (std::size_t i = 0; i < counts.size(); ++i) {
            const int k = counts[i];
            if (context.wantsProgress() && i > 0) {
                Figure partial = f;
                Plot p = sub;
                p.series = {err, unw};
                partial.plots.push_back(std::move(p));
                context.publish(partial, 0.7 + 0.3 * double(i) / double(counts.size()));
            }
            wvo::GridReconstructionInput sin = rin;
            sin.virtualCount = k;
            const wvo::GridReconstruction r = wvo::reconstructOnGrid(sin, rng, context);
            err.x.push_back(k);
            err.y.push_back(std::max(wvo::klDivergence(full, *r.weighted), 1e-6));
            unw.x.push_back(k);
            unw.y.push_back(std::max(wvo::klDivergence(full, *r.unweighted), 1e-6));
            f.summary.set("subsample.kl.k" + std::to_string(k), err.y.back());
        }
        sub.series = {std::move(err), std::move(unw)};
        f.plots.push_back(std::move(sub));
    }
    return f;
}

} // namespace evx::scenarios
