#include "scenarios/uncertain_evidence/drop_ball_scenario.h"

#include "core/errors.h"
#include "evidence/readings.h"
#include "models/drop_ball_model.h"
#include "scenarios/uncertain_evidence/evidence_figure.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace evx::scenarios {
namespace {

constexpr double kEarthG = 9.81;
// The prior must leave g > 0 with certainty: its mean minus this many sds must stay above
// kMinimumG, so truncating it at 0 changes nothing that double precision can see.
constexpr double kPriorSdsAboveZero = 6;
constexpr double kMinimumG = 0.5;

int pointsFor(double width, double step, int lo, int hi)
{
    return std::clamp(int(std::ceil(width / step)) + 1, lo, hi);
}

// Grids sized from the model. The observable grid resolves the narrower of the model error
// and the evidence at 1.5 points per sd. Against 4 points, Jeffrey's mean and sd then move by
// 6e-11 and 1e-9 of themselves (σ_model 0.001, σ_obs 0.1, t̂ 0.6; at 2 points per sd, 7e-12
// and 6e-10), and that sharp-model corner, whose time is mostly these columns, has a quarter
// fewer of them. The latent grid must hold every posterior, and Jeffrey's rule mixes
// p(g | t) over all plausible timings t ~ q: for a sharp model these land where the timing
// puts them, even far into the prior's tail. So it spans the g implied by t̂ ± 8 σ_obs
// (q beyond that weighs < 1e-14) together with the prior's core, resolving the narrowest
// posterior (the model error seen through dt/dg) at 3 points per sd, which the trapezoid
// rule integrates to ~1e-30 (and which still draws a smooth curve).
evidence::ReadingGrids makeGrids(const models::DropBallModel& m, double tObs, double sigmaObs)
{
    const double mu = m.priorMean(), sd = m.priorSd();
    const double priorLo = std::max(mu - 10 * sd, 0.5 * (mu - kPriorSdsAboveZero * sd));
    const double priorHi = mu + 10 * sd;
    const UniformGrid prior(priorLo, priorHi, 801);

    const double tLo = std::max(tObs - 10 * sigmaObs, 0.1 * tObs);
    const double tHi = tObs + 10 * sigmaObs;
    const double tStep = std::min(m.modelSd(), sigmaObs) / 1.5;
    const UniformGrid observable(tLo, tHi, pointsFor(tHi - tLo, tStep, 201, 4001));

    const double reachLo = std::max(tObs - 8 * sigmaObs - 6 * m.modelSd(), 0.1 * tObs);
    const double reachHi = tObs + 8 * sigmaObs + 6 * m.modelSd();
    const double gLo = std::max(priorLo, std::min(m.gForTime(reachHi), mu - 3 * sd));
    const double gHi = std::min(mu + 60 * sd, std::max(m.gForTime(reachLo), mu + 3 * sd));
    const double gStar = std::clamp(m.gForTime(tObs), gLo, gHi);
    const double dtdg = 0.5 * std::sqrt(2 * m.height()) * std::pow(gStar, -1.5);
    const double narrowest = std::min(m.modelSd() / dtdg, sd);
    const UniformGrid latent(gLo, gHi, pointsFor(gHi - gLo, narrowest / 3, 401, 4001));
    return {prior, latent, observable};
}

// p(t) = ∫ p(g) N(t; sqrt(2h/g), σ_model²) dg on a plotting grid, written as a convolution in the
// noiseless fall time u = sqrt(2h/g): p(t) = ∫ π(u) N(t; u, σ_model²) du with π(u) = p(2h/u²)·4h/u³
// the prior pushed onto u. A uniform u grid then resolves both factors (step ≤ σ_model/2 and ≤ 1/800
// of the prior's u range) whatever h and the prior, and each t sums only the band u ∈ t ± 9 σ_model
// (the terms beyond are below e^-40 of the largest).
Series predictiveSeries(const models::DropBallModel& m, const GridDensity& prior, Range range)
{
    Series s;
    s.name = "Prior predictive p(t)";
    s.kind = SeriesKind::Line;
    s.colour = kReferenceColour;
    s.dashed = true;
    const double sm = m.modelSd();
    const double uLo = m.fallTime(prior.x.back()), uHi = m.fallTime(prior.x.front());
    const double step = std::min(sm / 2, (uHi - uLo) / 800);
    const UniformGrid ug(uLo, uHi, pointsFor(uHi - uLo, step, 801, 40001));
    Eigen::ArrayXd u(ug.size()), logPi(ug.size());
    for (int k = 0; k < ug.size(); ++k) {
        u[k] = ug.at(k);
        const double g = m.gForTime(u[k]);
        logPi[k] = m.logPrior(g) + std::log(4 * m.height() / (u[k] * u[k] * u[k]));
    }
    Eigen::ArrayXd pi = (logPi - logPi.maxCoeff()).exp();
    pi[0] *= 0.5; // trapezoid weights (the common step cancels in the normalisation)
    pi[ug.size() - 1] *= 0.5;
    pi /= pi.sum() * ug.step();
    const double halfWidth = 9 * sm, norm = 1 / (sm * std::sqrt(2 * std::numbers::pi));
    const int n = 301;
    for (int k = 0; k < n; ++k) {
        const double t = range.lo + (range.hi - range.lo) * k / (n - 1);
        const int from = std::max(0, int(std::ceil((t - halfWidth - uLo) / ug.step())));
        const int to = std::min(ug.size(), int(std::floor((t + halfWidth - uLo) / ug.step())) + 1);
        double p = 0;
        if (from < to) {
            const Eigen::ArrayXd z = (t - u.segment(from, to - from)) / sm;
            p = ug.step() * norm * (pi.segment(from, to - from) * (-0.5 * z.square()).exp()).sum();
        }
        s.x.push_back(t);
        s.y.push_back(p);
    }
    return s;
}

} // namespace

DropBallScenario::DropBallScenario()
    : m_schema({
          realParameter("height", "Fall height h", "m", 0.1, 10, 1, "Height the ball falls from"),
          realParameter("t_obs", "Stopwatch reading t̂", "s", 0.05, 2, 0.43,
                        "The time read off the stopwatch"),
          realParameter("sigma_model", "Model error sd", "s", 0.001, 0.05, 0.005,
                        "Physics the formula t = sqrt(2h/g) ignores (air resistance, vibrations)", true),
          realParameter("sigma_obs", "Timing error sd", "s", 0.001, 0.1, 0.025,
                        "How far the student's reaction may be off the true time", true),
          realParameter("g_prior_mean", "Prior mean of g", "m/s²", 1, 30, 10,
                        "Mean of the Normal prior on g (not stated in the paper)"),
          realParameter("g_prior_sd", "Prior sd of g", "m/s²", 0.05, 5, 1,
                        "Standard deviation of the Normal prior on g", true),
          emphasisParameter(),
      })
{
}

ScenarioInfo DropBallScenario::info() const
{
    return {"ue-drop-ball", "Drop of a ball: inferring g", "Uncertain evidence",
            "A stopwatch reading with reaction-time error, read three ways (paper Fig. 4)"};
}

std::vector<Preset> DropBallScenario::presets() const
{
    return {{"fig4",
             "Fig. 4: 1 m fall timed at 0.43 s ± 0.025 s, model error 0.005 s",
             {{"height", 1},
              {"t_obs", 0.43},
              {"sigma_model", 0.005},
              {"sigma_obs", 0.025},
              {"g_prior_mean", 10},
              {"g_prior_sd", 1}}}};
}

Figure DropBallScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    const double mu = v.at("g_prior_mean"), sd = v.at("g_prior_sd");
    if (mu - kPriorSdsAboveZero * sd < kMinimumG) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "the prior on g must keep g positive: g_prior_mean − 6·g_prior_sd = %.3g m/s² "
                      "must be at least %.1f m/s²",
                      mu - kPriorSdsAboveZero * sd, kMinimumG);
        throw InvalidParameter(buf);
    }
    const models::DropBallModel model(v.at("height"), v.at("sigma_model"), mu, sd);
    const double tObs = v.at("t_obs"), sigmaObs = v.at("sigma_obs");
    const evidence::GaussianEvidence q(tObs, sigmaObs);

    Figure figure;
    const evidence::ReadingGrids grids = makeGrids(model, tObs, sigmaObs);
    const evidence::Readings r = evidence::computeReadings(model, q, tObs, grids, context);

    Plot posterior;
    posterior.title = "Posterior over g under each reading of the stopwatch";
    posterior.xLabel = "g (m/s²)";
    posterior.yLabel = "probability density (s²/m)";
    const Range range = displayRange({{r.prior.mean, r.prior.sd},
                                      {r.jeffrey.mean, r.jeffrey.sd},
                                      {r.virtualEvidence.mean, r.virtualEvidence.sd},
                                      {r.distributional.mean, r.distributional.sd}});
    posterior.series = {
        densitySeries(Reading::Prior, r.prior.x, r.prior.pdf, range.lo, range.hi),
        densitySeries(Reading::Jeffrey, r.jeffrey.x, r.jeffrey.pdf, range.lo, range.hi),
        densitySeries(Reading::Virtual, r.virtualEvidence.x, r.virtualEvidence.pdf, range.lo, range.hi),
        densitySeries(Reading::Distributional, r.distributional.x, r.distributional.pdf, range.lo, range.hi)};
    posterior.markers.push_back({"g = 9.81 m/s²", kEarthG});
    figure.plots.push_back(std::move(posterior));

    context.checkCancelled();
    Plot observable;
    observable.title = "Fall time t: what the model predicts and what the stopwatch says";
    observable.xLabel = "t (s)";
    observable.yLabel = "probability density (1/s)";
    const double tMin = model.fallTime(r.prior.mean + 4 * r.prior.sd);
    const double tMax = model.fallTime(std::max(r.prior.mean - 4 * r.prior.sd, kMinimumG));
    const Range tRange{std::min(tMin - 3 * model.modelSd(), tObs - 4.5 * sigmaObs),
                       std::max(tMax + 3 * model.modelSd(), tObs + 4.5 * sigmaObs)};
    Series evidenceSeries;
    evidenceSeries.name = "Stopwatch evidence N(t̂, σ_obs²)";
    evidenceSeries.colour = kEvidenceColour;
    for (int k = 0; k < 301; ++k) {
        const double t = tRange.lo + (tRange.hi - tRange.lo) * k / 300;
        evidenceSeries.x.push_back(t);
        evidenceSeries.y.push_back(std::exp(q.logDensity(t)));
    }
    observable.series = {predictiveSeries(model, r.prior, tRange), std::move(evidenceSeries)};
    observable.markers.push_back({"t̂", tObs});
    figure.plots.push_back(std::move(observable));

    addMoments(figure.summary, Reading::Prior, r.prior.mean, r.prior.sd);
    addMoments(figure.summary, Reading::Jeffrey, r.jeffrey.mean, r.jeffrey.sd);
    addMoments(figure.summary, Reading::Virtual, r.virtualEvidence.mean, r.virtualEvidence.sd);
    addMoments(figure.summary, Reading::Distributional, r.distributional.mean, r.distributional.sd);
    addMoments(figure.summary, Reading::Exact, r.exact.mean, r.exact.sd);
    addGridCoverage(figure, Reading::Jeffrey, r.jeffrey);
    addGridCoverage(figure, Reading::Virtual, r.virtualEvidence);
    addGridCoverage(figure, Reading::Distributional, r.distributional);
    addGridCoverage(figure, Reading::Exact, r.exact);
    addConsistency(figure, r.consistency, "t");
    applyEmphasis(figure, v);
    return figure;
}

} // namespace evx::scenarios
