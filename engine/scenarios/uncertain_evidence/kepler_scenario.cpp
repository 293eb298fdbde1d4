#include "scenarios/uncertain_evidence/kepler_scenario.h"

#include "core/errors.h"
#include "models/kepler_orbit.h"
#include "scenarios/uncertain_evidence/evidence_figure.h"
#include "scenarios/uncertain_evidence/kepler_inference.h"
#include "scenarios/uncertain_evidence/sample_plots.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

namespace evx::scenarios {
namespace {

constexpr double kMinutesPerDay = 1440;
constexpr int kBins = 40;
constexpr int kContourBins = 32;
constexpr double kPublishInterval = 0.1; // s between intermediate figures

// One reading's draws; weights empty means equal weights.
struct Draws {
    Eigen::MatrixXd samples;
    bool empty() const { return samples.rows() == 0; }
};

struct Dimension {
    const char* key;   // summary key
    const char* label; // axis label
    const char* name;  // in titles
};
constexpr Dimension kDims[4] = {{"P", "P − P_true (minutes)", "the period P"},
                                {"e", "eccentricity e", "the eccentricity e"},
                                {"omega", "argument of periapsis ω (deg)", "the argument of periapsis ω"},
                                {"omega_plus_m", "ω + M (deg)", "the phase ω + M"}};

// Column k of the draws as displayed (P as minutes from the true period).
Eigen::VectorXd shown(const Draws& d, int k, double truePeriod)
{
    Eigen::VectorXd v = d.samples.col(k);
    if (k == 0)
        v = (v.array() - truePeriod) * kMinutesPerDay;
    return v;
}

struct Truth {
    double period, e, omega, lambda;
};

Figure buildFigure(const Draws* readings[3], const Truth& truth)
{
    constexpr Reading kOrder[3] = {Reading::Jeffrey, Reading::Virtual, Reading::Distributional};
    const Eigen::VectorXd noWeights;
    // Shared ranges: from the 0.5 % to the 99.5 % quantile over every reading present.
    double lo[4], hi[4];
    for (int k = 0; k < 4; ++k) {
        lo[k] = INFINITY;
        hi[k] = -INFINITY;
        for (int r = 0; r < 3; ++r) {
            if (readings[r]->empty())
                continue;
            const Eigen::VectorXd v = shown(*readings[r], k, truth.period);
            lo[k] = std::min(lo[k], weightedQuantile(v, noWeights, 0.005));
            hi[k] = std::max(hi[k], weightedQuantile(v, noWeights, 0.995));
        }
        if (!std::isfinite(lo[k]) || !(hi[k] > lo[k])) {
            lo[k] = k == 0 ? -10 : 0;
            hi[k] = k == 0 ? 10 : (k == 1 ? 0.15 : 360);
        }
        const double pad = 0.08 * (hi[k] - lo[k]);
        lo[k] -= pad;
        hi[k] += pad;
    }
    lo[1] = std::max(lo[1], 0.0);
    hi[1] = std::min(hi[1], 0.15);
    lo[2] = std::max(lo[2], 0.0);
    hi[2] = std::min(hi[2], 360.0);
    const double truthShown[4] = {0, truth.e, truth.omega, truth.lambda};

    Figure figure;
    for (int k = 0; k < 4; ++k) {
        Plot p;
        p.title = std::string("Posterior of ") + kDims[k].name;
        p.xLabel = kDims[k].label;
        p.yLabel = k == 0 ? "density (1/minute)" : (k == 1 ? "density" : "density (1/deg)");
        for (int r = 0; r < 3; ++r) {
            if (readings[r]->empty())
                continue;
            const ReadingStyle st = readingStyle(kOrder[r]);
            p.series.push_back(histogramSeries(st.legend, shown(*readings[r], k, truth.period), noWeights,
                                               lo[k], hi[k], kBins, st.colour, st.dashed));
        }
        if (k == 1 || k == 2) {
            // The prior, flat on [0, e_max] or [0°, 360°]: drawn as a box so the axis starts at
            // 0 and a flat posterior reads as flat, not as magnified noise.
            const double top = k == 1 ? 1 / 0.15 : 1 / 360.0, right = k == 1 ? 0.15 : 360.0;
            Series prior;
            prior.name = "Prior";
            prior.colour = kReferenceColour;
            prior.dashed = true;
            prior.x = {0};
            prior.y = {0};
            for (int i = 0; i <= 20; ++i) {
                prior.x.push_back(right * i / 20);
                prior.y.push_back(top);
            }
            prior.x.push_back(right);
            prior.y.push_back(0);
            p.series.push_back(std::move(prior));
        }
        p.markers.push_back({"true value", truthShown[k]});
        figure.plots.push_back(std::move(p));
    }
    // The two pairs that carry the structure: P with the phase ω + M (the identified pair), and
    // ω with ω + M (which moves with e cos ω: the transit time pins ω + M only given e and ω).
    const int pairs[2][2] = {{0, 3}, {2, 3}};
    for (const auto& pair : pairs) {
        const int a = pair[0], b = pair[1];
        Plot p;
        p.title = std::string(a == 0 ? "ω + M against P" : "ω + M against ω") + ": 68 % and 95 % regions";
        p.xLabel = kDims[a].label;
        p.yLabel = kDims[b].label;
        for (int r = 0; r < 3; ++r) {
            if (readings[r]->empty())
                continue;
            const ReadingStyle st = readingStyle(kOrder[r]);
            p.series.push_back(hpdContourSeries(
                st.legend, shown(*readings[r], a, truth.period), shown(*readings[r], b, truth.period),
                noWeights, lo[a], hi[a], lo[b], hi[b], kContourBins, {0.68, 0.95}, st.colour, st.dashed));
        }
        // The true orbit as a thin crosshair across the plot (a line series, so it reads at any zoom).
        Series t;
        t.name = "True orbit";
        t.colour = kReferenceColour;
        t.dashed = true;
        constexpr int kCrossPoints = 21;
        for (int i = 0; i < kCrossPoints; ++i) {
            t.x.push_back(lo[a] + (hi[a] - lo[a]) * i / (kCrossPoints - 1));
            t.y.push_back(truthShown[b]);
        }
        t.x.push_back(std::numeric_limits<double>::quiet_NaN());
        t.y.push_back(std::numeric_limits<double>::quiet_NaN());
        for (int i = 0; i < kCrossPoints; ++i) {
            t.x.push_back(truthShown[a]);
            t.y.push_back(lo[b] + (hi[b] - lo[b]) * i / (kCrossPoints - 1));
        }
        p.series.push_back(std::move(t));
        figure.plots.push_back(std::move(p));
    }
    for (int r = 0; r < 3; ++r) {
        if (readings[r]->empty())
            continue;
        const std::string key = readingStyle(kOrder[r]).summaryKey;
        for (int k = 0; k < 4; ++k) {
            const auto [mean, sd] = weightedMoments(readings[r]->samples.col(k), noWeights);
            figure.summary.set(key + "." + kDims[k].key + ".mean", mean);
            figure.summary.set(key + "." + kDims[k].key + ".sd", sd);
        }
    }
    return figure;
}

// Var[t_n] under the base model's prior predictive, by Monte Carlo over the prior (there is no
// closed form: t_n is a nonlinear function of the uniform phase and of e and ω); the smallest
// over n is what Thm 3.3 (III) compares with σ_e².
double priorPredictiveVariance(int n, double sigmaModel, const KeplerPriors& priors)
{
    std::mt19937_64 rng(12345);
    std::normal_distribution<double> normal(0, 1);
    std::uniform_real_distribution<double> unit(0, 1);
    constexpr int kDraws = 4000;
    std::vector<double> sum(n, 0), sum2(n, 0), t(n);
    for (int i = 0; i < kDraws; ++i) {
        const models::OrbitElements o{priors.periodMean + priors.periodSd * normal(rng),
                                      priors.eMax * unit(rng), 360 * unit(rng), 360 * unit(rng)};
        models::transitTimesInto(o, n, t.data());
        for (int k = 0; k < n; ++k) {
            sum[k] += t[k];
            sum2[k] += t[k] * t[k];
        }
    }
    double smallest = INFINITY;
    for (int k = 0; k < n; ++k) {
        const double mean = sum[k] / kDraws;
        smallest = std::min(smallest, sum2[k] / kDraws - mean * mean);
    }
    return smallest + sigmaModel * sigmaModel;
}

} // namespace

KeplerScenario::KeplerScenario()
    : m_schema({
          integerParameter("n_transits", "Transits observed", 3, 20, 7,
                           "Number of simulated mid-transit times"),
          realParameter("sigma_evidence", "Transit-time error σ_e", "min", 1, 120, 20,
                        "Error of the extracted transit times, q(t | t̂) = N(t̂, σ_e²)"),
          realParameter("sigma_model", "Model error σ_m", "min", 1, 60, 10,
                        "Distrust in the Keplerian model: p(t | θ) = N(t(θ), σ_m²)"),
          realParameter("true_e", "True eccentricity", "", 0, 0.15, 0.05,
                        "Eccentricity of the simulated orbit"),
          realParameter("true_omega", "True ω", "deg", 0, 359, 100,
                        "Argument of periapsis of the simulated orbit"),
          realParameter("true_omega_plus_m", "True ω + M", "deg", 0, 359, 198,
                        "ω plus the mean anomaly at t = 0 of the simulated orbit"),
          integerParameter(
              "data_seed", "Noise seed of the data", 0, 1000, 0,
              "0: the exact simulated transit times; otherwise add N(0, σ_e²) noise drawn with this seed"),
          integerParameter("n_e", "Jeffrey's rule: outer draws n_e", 1, 400, 40,
                           "Draws t ~ q(t | t̂) averaged over, each needing its own posterior sampling run"),
          integerParameter("walkers", "Walkers", 8, 128, 32, "Ensemble size (even, at least 8)"),
          integerParameter("steps", "Steps per walker", 100, 20000, 2000,
                           "Steps after burn-in (virtual and distributional)"),
          integerParameter("jr_steps", "Steps per outer draw", 50, 5000, 300,
                           "Steps after burn-in of each inner run of Jeffrey's rule"),
          integerParameter("burn_in", "Burn-in steps", 0, 5000, 200,
                           "Steps discarded at the start of every run"),
          integerParameter("seed", "Sampler seed", 1, 100000, 1, "Seed of the sampler's random numbers"),
          emphasisParameter(),
      })
{
}

ScenarioInfo KeplerScenario::info() const
{
    return {"ue-kepler", "Planet orbit from uncertain transit times", "Uncertain evidence",
            "Kepler-90g-like orbit from 7 transit times read three ways, sampled by MCMC (paper Fig. 5)"};
}

std::vector<Preset> KeplerScenario::presets() const
{
    return {{"fig5",
             "Fig. 5: 7 transits, evidence error 20 min, model error 10 min",
             {{"n_transits", 7},
              {"sigma_evidence", 20},
              {"sigma_model", 10},
              {"true_e", 0.05},
              {"true_omega", 100},
              {"true_omega_plus_m", 198}}},
            {"fig5-precise",
             "Fig. 5 with more draws: n_e = 200 and longer chains",
             {{"n_e", 200}, {"steps", 6000}, {"jr_steps", 600}}}};
}

Figure KeplerScenario::run(const ParameterValues& input, const RunContext& context) const
{
    using Clock = std::chrono::steady_clock;
    const ParameterValues v = m_schema.complete(input);
    const auto start = Clock::now();
    const int n = int(v.at("n_transits"));
    const double sigmaE = v.at("sigma_evidence") / kMinutesPerDay,
                 sigmaM = v.at("sigma_model") / kMinutesPerDay;
    const Truth truth{210, v.at("true_e"), v.at("true_omega"), v.at("true_omega_plus_m")};
    const KeplerPriors priors;
    std::vector<double> observed =
        models::transitTimes({truth.period, truth.e, truth.omega, truth.lambda}, n);
    if (const int dataSeed = int(v.at("data_seed")); dataSeed > 0) {
        std::mt19937_64 rng{std::uint64_t(dataSeed)};
        std::normal_distribution<double> normal(0, sigmaE);
        for (double& t : observed)
            t += normal(rng);
    }

    sampling::EnsembleOptions options;
    options.walkers = int(v.at("walkers")) + int(v.at("walkers")) % 2;
    options.steps = int(v.at("steps"));
    options.burnIn = int(v.at("burn_in"));
    options.seed = std::uint64_t(v.at("seed"));
    options.progressEvery = 20;
    options.progressDiagnostics = false;

    Draws jeffrey, virtualEv, distributional;
    const Draws* readings[3] = {&jeffrey, &virtualEv, &distributional};
    auto lastPublish = Clock::now() - std::chrono::seconds(1);
    double firstFigureSeconds = -1;
    const int totalRuns = 2 + int(v.at("n_e"));
    auto publish = [&](double fraction, bool force) {
        if (!force && std::chrono::duration<double>(Clock::now() - lastPublish).count() < kPublishInterval)
            return;
        Figure partial = buildFigure(readings, truth);
        applyEmphasis(partial, v);
        context.publish(partial, fraction);
        lastPublish = Clock::now();
        if (firstFigureSeconds < 0)
            firstFigureSeconds = std::chrono::duration<double>(lastPublish - start).count();
    };

    // Virtual evidence first: one run, and the reading the others are compared with.
    auto progressOf = [&](Draws& target, int runIndex) {
        return [&publish, totalRuns, runIndex, out = &target](const sampling::EnsembleResult& soFar,
                                                              double fraction) {
            out->samples = soFar.samples;
            publish((runIndex + fraction) / totalRuns, false);
        };
    };
    const double veNoise = std::hypot(sigmaM, sigmaE);
    const SampledPosterior ve =
        sampleKepler(observed, veNoise, priors, options, context, progressOf(virtualEv, 0));
    virtualEv.samples = ve.samples;
    publish(1.0 / totalRuns, true);

    options.seed += 1;
    const SampledPosterior de =
        sampleKepler(observed, sigmaM, priors, options, context, progressOf(distributional, 1));
    distributional.samples = de.samples;
    publish(2.0 / totalRuns, true);

    // Jeffrey's rule: an expected posterior over t ~ q(t | t̂), by n_e honest inner runs.
    const int nE = int(v.at("n_e"));
    sampling::EnsembleOptions inner = options;
    inner.steps = int(v.at("jr_steps"));
    inner.progressEvery = 0;
    std::mt19937_64 outerRng(options.seed * 7919 + 17);
    std::normal_distribution<double> normal(0, 1);
    const auto jrStart = Clock::now();
    long long jrEvaluations = 0;
    double innerEssMin = INFINITY;
    std::vector<Eigen::MatrixXd> pieces;
    Eigen::MatrixXd innerMeans(nE, 4);
    for (int s = 0; s < nE; ++s) {
        context.checkCancelled();
        std::vector<double> drawn = observed;
        for (double& t : drawn)
            t += sigmaE * normal(outerRng);
        inner.seed = options.seed + 1000 + std::uint64_t(s);
        const SampledPosterior r = sampleKepler(drawn, sigmaM, priors, inner, context);
        jrEvaluations += r.evaluations;
        innerEssMin = std::min(innerEssMin, r.effectiveSampleSize);
        innerMeans.row(s) = r.samples.colwise().mean();
        pieces.push_back(r.samples);
        if (s + 1 == nE ||
            std::chrono::duration<double>(Clock::now() - lastPublish).count() >= kPublishInterval) {
            Eigen::Index rows = 0;
            for (const auto& p : pieces)
                rows += p.rows();
            jeffrey.samples.resize(rows, 4);
            rows = 0;
            for (const auto& p : pieces) {
                jeffrey.samples.middleRows(rows, p.rows()) = p;
                rows += p.rows();
            }
            publish((2.0 + s + 1) / totalRuns, s + 1 == nE);
        }
    }
    const double jrSeconds = std::chrono::duration<double>(Clock::now() - jrStart).count();

    Figure figure = buildFigure(readings, truth);
    Summary& sm = figure.summary;
    // The summary holds only what the seeds determine; wall-clock costs go to the table below.
    sm.set("virtual.ess", ve.effectiveSampleSize);
    sm.set("virtual.acceptance", ve.acceptanceRate);
    sm.set("virtual.likelihood_evaluations", double(ve.evaluations));
    sm.set("distributional.ess", de.effectiveSampleSize);
    sm.set("distributional.likelihood_evaluations", double(de.evaluations));
    sm.set("jeffrey.n_e", nE);
    sm.set("jeffrey.likelihood_evaluations", double(jrEvaluations));
    sm.set("jeffrey.inner_ess_min", innerEssMin);
    // The pooled mean's Monte Carlo variance is Var_s(inner means) / n_e (outer draws and
    // inner sampling noise together), so Var_JR(P) · n_e / Var_s(inner mean of P) is the
    // effective sample size of the Jeffrey estimate of P's mean.
    if (nE > 1) {
        const Eigen::VectorXd m = innerMeans.col(0);
        const double varMeans = (m.array() - m.mean()).square().sum() / (nE - 1);
        const auto [mean, sd] = weightedMoments(jeffrey.samples.col(0), Eigen::VectorXd());
        sm.set("jeffrey.ess_p_mean", varMeans > 0 ? sd * sd * nE / varMeans : double(nE));
    }
    const double varT = priorPredictiveVariance(n, sigmaM, priors);
    addConsistency(figure, {varT, sigmaE * sigmaE}, "t_n (d²)");

    Table data;
    data.title = "Observed (simulated) mid-transit times";
    data.columns = {"n", "t̂_n (d)"};
    for (int k = 0; k < n; ++k) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.5f", observed[k]);
        data.rows.push_back({std::to_string(k + 1), buf});
    }
    figure.tables.push_back(std::move(data));

    Table cost;
    cost.title = "Cost of each reading (this run)";
    cost.columns = {"reading", "sampler runs", "log-density evaluations", "effective sample size", "seconds"};
    auto row = [](const char* name, int runs, long long evaluations, double ess, double seconds) {
        char e[32], s[32], t[32];
        std::snprintf(e, sizeof e, "%lld", evaluations);
        std::snprintf(s, sizeof s, "%.0f", ess);
        std::snprintf(t, sizeof t, "%.3f", seconds);
        return std::vector<std::string>{name, std::to_string(runs), e, s, t};
    };
    cost.rows.push_back(row("Virtual evidence", 1, ve.evaluations, ve.effectiveSampleSize, ve.seconds));
    cost.rows.push_back(
        row("Distributional evidence", 1, de.evaluations, de.effectiveSampleSize, de.seconds));
    cost.rows.push_back(row("Jeffrey's rule", nE, jrEvaluations,
                            sm.contains("jeffrey.ess_p_mean") ? sm.value("jeffrey.ess_p_mean") : nE,
                            jrSeconds));
    char first[64];
    std::snprintf(first, sizeof first, "%.3f", firstFigureSeconds);
    cost.rows.push_back({"First intermediate figure after (s)", "", "", "", first});
    figure.tables.push_back(std::move(cost));
    applyEmphasis(figure, v);
    return figure;
}

} // namespace evx::scenarios
