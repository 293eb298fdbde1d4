#include "scenarios/wvo/beta_bernoulli_scenario.h"

#include "core/errors.h"
#include "scenarios/wvo/wvo_common.h"
#include "scenarios/wvo/wvo_figure.h"
#include "stats/densities.h"
#include "wvo/multilevel.h"
#include "wvo/optimiser.h"

#include <boost/math/distributions/beta.hpp>

#include <algorithm>
#include <cmath>
#include <random>

namespace evx::scenarios {

using namespace wvo_figure;

WvoBetaBernoulliScenario::WvoBetaBernoulliScenario()
    : m_schema(wvo_common::withVirtualObservationParameters(
          {
              integerParameter("observations", "Observations N", 1, 100, 12,
                               "Number of original Bernoulli observations"),
              integerParameter("successes", "Successes among them", 0, 100, 3,
                               "How many of the N original observations are 1"),
          },
          12, 3))
{
}

ScenarioInfo WvoBetaBernoulliScenario::info() const
{
    return {"wvo-beta-bernoulli", "WVO: Beta-Bernoulli", "Weighted virtual observations",
            "A Bernoulli posterior rebuilt from weighted virtual observations (WVO paper Fig. 1)"};
}

std::vector<Preset> WvoBetaBernoulliScenario::presets() const
{
    return {{"fig1",
             "Fig. 1: 12 observations, 12 virtual observations, uniform prior",
             {{"observations", 12}, {"successes", 3}, {"virtual_count", 12}}}};
}

Figure WvoBetaBernoulliScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    const int n = static_cast<int>(v.at("observations"));
    const int k = static_cast<int>(v.at("successes"));
    const int kVirtual = static_cast<int>(v.at("virtual_count"));
    const int m = static_cast<int>(v.at("posterior_draws"));
    if (k > n)
        throw InvalidParameter("successes (" + std::to_string(k) + ") cannot exceed observations (" +
                               std::to_string(n) + ")");
    context.checkCancelled();
    std::mt19937_64 rng(static_cast<std::uint64_t>(v.at("seed")));

    // Posterior Beta(1 + k, 1 + N − k); draws for the objective, and fresh ones for the
    // posterior predictive.
    const double a0 = 1 + k, b0 = 1 + n - k;
    Eigen::MatrixXd draws(m, 1);
    for (int i = 0; i < m; ++i)
        draws(i, 0) = wvo_common::betaDraw(a0, b0, rng);
    std::vector<int> ySim(kVirtual);
    for (int i = 0; i < kVirtual; ++i)
        ySim[i] = std::bernoulli_distribution(wvo_common::betaDraw(a0, b0, rng))(rng) ? 1 : 0;

    auto logLik = [](int y, double theta) { return y ? std::log(theta) : std::log1p(-theta); };
    const wvo::WvoProblem problem = wvo::buildProblem(
        draws, kVirtual, [&](const Eigen::VectorXd& t, int i) { return logLik(ySim[i], t(0)); },
        [&](const Eigen::VectorXd& t) { return k * std::log(t(0)) + (n - k) * std::log1p(-t(0)); }, n);
    context.checkCancelled();
    const wvo::WeightResult opt = wvo::optimiseWeights(problem);

    double sw1 = 0, sw0 = 0;
    int s1 = 0;
    for (int i = 0; i < kVirtual; ++i) {
        (ySim[i] ? sw1 : sw0) += opt.weights(i);
        s1 += ySim[i];
    }
    const double aw = 1 + sw1, bw = 1 + sw0;
    const double au = 1 + s1, bu = 1 + kVirtual - s1;

    Figure f;
    Plot post;
    post.title = "Posterior of the success probability θ";
    post.xLabel = "θ";
    post.yLabel = "probability density";
    const int points = 401;
    std::vector<double> x(points), yo(points), yu(points), yw(points);
    const boost::math::beta_distribution<> po(a0, b0), pu(au, bu), pw(aw, bw);
    for (int i = 0; i < points; ++i) {
        x[i] = (i + 0.5) / points;
        yo[i] = boost::math::pdf(po, x[i]);
        yu[i] = boost::math::pdf(pu, x[i]);
        yw[i] = boost::math::pdf(pw, x[i]);
    }
    post.series.push_back(densityCurve(0, x, yo));
    post.series.push_back(densityCurve(1, x, yu));
    post.series.push_back(densityCurve(2, x, yw));
    f.plots.push_back(std::move(post));

    Plot weights;
    weights.title = "Weights of the virtual observations (Σ w = N)";
    weights.xLabel = "virtual observation i";
    weights.yLabel = "weight w_i";
    for (int value : {1, 0}) {
        Series s;
        s.name = value ? "ỹ_i = 1" : "ỹ_i = 0";
        s.kind = SeriesKind::Bar;
        s.colour = value ? kWeightedColour : kMebColour;
        for (int i = 0; i < kVirtual; ++i) {
            s.x.push_back(i + 1);
            s.y.push_back(ySim[i] == value ? opt.weights(i) : 0.0);
        }
        if (kVirtual <= 10) { // the view wants more than ten points per series: pad with empty bars
            for (int i = kVirtual; i <= 10; ++i) {
                s.x.push_back(i + 1);
                s.y.push_back(0.0);
            }
        }
        weights.series.push_back(std::move(s));
    }
    f.plots.push_back(std::move(weights));

    addWvoSummary(f.summary, n, kVirtual, stats::klBeta(a0, b0, aw, bw), stats::klBeta(a0, b0, au, bu),
                  opt.weights.sum());
    f.summary.set("original.successes", k);
    f.summary.set("weighted.successes", sw1);
    f.summary.set("unweighted.successes", s1);
    f.summary.set("original.mean", a0 / (a0 + b0));
    f.summary.set("weighted.mean", aw / (aw + bw));
    f.summary.set("unweighted.mean", au / (au + bu));
    f.summary.set("objective.gain", opt.objective - opt.initialObjective);
    if (s1 == 0 || s1 == kVirtual)
        f.warnings.push_back("All virtual observations are equal: no weighting can reproduce the posterior; "
                             "change the seed or draw more virtual observations.");
    // The N original 0/1 observations the likelihood is a product over, successes first:
    // they are exchangeable, so only the count k enters the posterior and the order is ours.
    std::vector<double> yOriginal(n, 0.0);
    std::fill_n(yOriginal.begin(), k, 1.0);
    f.data = {{"y", std::move(yOriginal)}};
    return f;
}

} // namespace evx::scenarios
