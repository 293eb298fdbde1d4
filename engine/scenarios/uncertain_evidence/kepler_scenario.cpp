#include "scenarios/uncertain_evidence/kepler_scenario.h"

#include "core/errors.h"
#include "models/kepler_orbit.h"
#include "scenarios/uncertain_evidence/evidence_figure.h"
#include "scenarios/uncertain_evidence/kepler_figure.h"
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
constexpr double kPublishInterval = 0.1; // s between intermediate figures
// A partial figure shows at most about this many of Jeffrey's draws (every k-th): building a
// corner plot is linear in the draws, and all n_e·walkers·jr_steps of them (3.8e5 at the
// defaults) took 80-150 ms a figure, which stretched the wait between figures past 250 ms.
// The final figure uses every draw.
constexpr Eigen::Index kPartialJeffreyDraws = 40000;

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

// The pieces stacked, every k-th row with k the smallest stride that keeps at most `limit` rows
// (0: all of them).
Eigen::MatrixXd stackRows(const std::vector<Eigen::MatrixXd>& pieces, Eigen::Index limit)
{
    Eigen::Index rows = 0;
    for (const auto& p : pieces)
        rows += p.rows();
    const Eigen::Index stride = limit > 0 ? std::max<Eigen::Index>(1, (rows + limit - 1) / limit) : 1;
    Eigen::MatrixXd out((rows + stride - 1) / stride, pieces.empty() ? 0 : pieces.front().cols());
    Eigen::Index at = 0, next = 0;
    for (const auto& p : pieces)
        for (Eigen::Index r = 0; r < p.rows(); ++r, ++at)
            if (at == next) {
                out.row(next / stride) = p.row(r);
                next += stride;
            }
    return out;
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

// Two full runs (virtual, distributional) and n_e inner runs for Jeffrey's rule, every
// step of every walker one likelihood of n_transits times, every kept step a stored draw.
// The default costs 5.5e6 transit times (0.9 s) and fig5-precise 3.9e7 (7.7 s); at 3.6e6 to
// 5e6 a second, the limits allow 12 to 17 s of sampling and 320 MB of draws.
std::vector<WorkBudget> KeplerScenario::workBudget(const RunInput& input) const
{
    const ParameterValues v = m_schema.complete(input.values);
    const double walkers = v.at("walkers"), burnIn = v.at("burn_in"), nE = v.at("n_e");
    const double steps = 2 * (burnIn + v.at("steps")) + nE * (burnIn + v.at("jr_steps"));
    const double kept = 2 * v.at("steps") + nE * v.at("jr_steps");
    return {{"transit-time evaluations", walkers * steps * v.at("n_transits"), 6e7,
             "n_e, walkers, steps, jr_steps, burn_in or n_transits"},
            {"stored draws", walkers * kept, 1e7, "n_e, walkers, steps or jr_steps"}};
}

Figure KeplerScenario::run(const ParameterValues& input, const RunContext& context) const
{
    using Clock = std::chrono::steady_clock;
    const ParameterValues v = m_schema.complete(input);
    const auto start = Clock::now();
    const int n = int(v.at("n_transits"));
    const double sigmaE = v.at("sigma_evidence") / kMinutesPerDay,
                 sigmaM = v.at("sigma_model") / kMinutesPerDay;
    const KeplerTruth truth{210, v.at("true_e"), v.at("true_omega"), v.at("true_omega_plus_m")};
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

    Eigen::MatrixXd jeffrey, virtualEv, distributional;
    const Eigen::MatrixXd* readings[3] = {&jeffrey, &virtualEv, &distributional};
    PublishPace pace(kPublishInterval);
    double firstFigureSeconds = -1;
    const int totalRuns = 2 + int(v.at("n_e"));
    auto publish = [&](double fraction, bool force) {
        if (!force && !pace.due())
            return;
        pace.begin();
        Figure partial = keplerCornerFigure(readings, truth);
        applyEmphasis(partial, v);
        context.publish(partial, fraction);
        if (firstFigureSeconds < 0)
            firstFigureSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    };

    // Virtual evidence first: one run, and the reading the others are compared with.
    auto progressOf = [&](Eigen::MatrixXd& target, int runIndex) {
        return [&publish, totalRuns, runIndex, out = &target](const sampling::EnsembleResult& soFar,
                                                              double fraction) {
            *out = soFar.samples;
            publish((runIndex + fraction) / totalRuns, false);
        };
    };
    const double veNoise = std::hypot(sigmaM, sigmaE);
    const SampledPosterior ve =
        sampleKepler(observed, veNoise, priors, options, context, progressOf(virtualEv, 0));
    virtualEv = ve.samples;
    publish(1.0 / totalRuns, true);

    options.seed += 1;
    const SampledPosterior de =
        sampleKepler(observed, sigmaM, priors, options, context, progressOf(distributional, 1));
    distributional = de.samples;
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
        if (s + 1 == nE || pace.due()) {
            jeffrey = stackRows(pieces, kPartialJeffreyDraws);
            // The last one too: the final figure then follows it by one (full) corner plot.
            publish((2.0 + s + 1) / totalRuns, s + 1 == nE);
        }
    }
    jeffrey = stackRows(pieces, 0);
    const double jrSeconds = std::chrono::duration<double>(Clock::now() - jrStart).count();

    Figure figure = keplerCornerFigure(readings, truth);
    Summary& sm = figure.summary;
    // The summary holds only what the seeds determine; wall-clock costs go to the table below.
    sm.set("virtual.ess", ve.effectiveSampleSize);
    sm.set("virtual.acceptance", ve.acceptanceRate);
    sm.set("virtual.likelihood_evaluations", double(ve.evaluations));
    sm.set("distributional.ess", de.effectiveSampleSize);
    sm.set("distributional.likelihood_evaluations", double(de.evaluations));
    sm.set("jeffrey.n_e", nE);
    sm.set("jeffrey.draws", double(jeffrey.rows())); // every inner run's, though partial figures thin them
    sm.set("jeffrey.likelihood_evaluations", double(jrEvaluations));
    sm.set("jeffrey.inner_ess_min", innerEssMin);
    // The pooled mean's Monte Carlo variance is Var_s(inner means) / n_e (outer draws and
    // inner sampling noise together), so Var_JR(P) · n_e / Var_s(inner mean of P) is the
    // effective sample size of the Jeffrey estimate of P's mean.
    if (nE > 1) {
        const Eigen::VectorXd m = innerMeans.col(0);
        const double varMeans = (m.array() - m.mean()).square().sum() / (nE - 1);
        const auto [mean, sd] = weightedMoments(jeffrey.col(0), Eigen::VectorXd());
        sm.set("jeffrey.ess_p_mean", varMeans > 0 ? sd * sd * nE / varMeans : double(nE));
    }
    const double varT = priorPredictiveVariance(n, sigmaM, priors);
    // Shown in min², as σ_e and σ_m are entered (KeplerScenario::summaryUnits).
    addConsistency(figure, {varT, sigmaE * sigmaE}, "t_n (min²)", kMinutesPerDay * kMinutesPerDay);

    Table data;
    data.title = "Observed (simulated) mid-transit times";
    data.columns = {"n", "t̂_n (d)"}; // absolute times in days; errors and offsets in minutes
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
    // The transit times every reading is conditioned on (days; noisy when data_seed > 0),
    // numbered as in the table: t̂_n = t_0 + (n − 1) P for a Keplerian orbit.
    std::vector<double> transit(n);
    for (int k = 0; k < n; ++k)
        transit[k] = k + 1;
    figure.data = {{"n", std::move(transit)}, {"t", observed}};
    applyEmphasis(figure, v);
    return figure;
}

} // namespace evx::scenarios
