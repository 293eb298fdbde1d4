#include "scenarios/uncertain_evidence/commutativity_scenario.h"

#include "evidence/joint_table.h"
#include "models/linear_gaussian_model.h"
#include "scenarios/uncertain_evidence/evidence_figure.h"
#include "stats/densities.h"

#include <algorithm>
#include <cmath>

namespace evx::scenarios {
namespace {

constexpr int kGridPoints = 301;

struct Moments {
    double mean = 0, sd = 0;
};

Moments momentsOf(const UniformGrid& g, const std::vector<double>& pdf)
{
    double m0 = 0, m1 = 0, m2 = 0;
    for (int i = 0; i < g.size(); ++i) {
        const double w = g.weight(i) * pdf[i];
        m0 += w;
        m1 += w * g.at(i);
        m2 += w * g.at(i) * g.at(i);
    }
    const double mean = m1 / m0;
    return {mean, std::sqrt(std::max(0.0, m2 / m0 - mean * mean))};
}

double maxAbsDiff(const std::vector<double>& a, const std::vector<double>& b)
{
    double d = 0;
    for (size_t i = 0; i < a.size(); ++i)
        d = std::max(d, std::abs(a[i] - b[i]));
    return d;
}

// A curve restricted to [r.lo, r.hi], so the plot frames where the mass is.
Series curve(std::string name, const UniformGrid& g, const std::vector<double>& y, int colour, bool dashed,
             Range r)
{
    Series s;
    s.name = std::move(name);
    s.colour = colour;
    s.dashed = dashed;
    for (int i = 0; i < g.size(); ++i)
        if (g.at(i) >= r.lo && g.at(i) <= r.hi) {
            s.x.push_back(g.at(i));
            s.y.push_back(y[size_t(i)]);
        }
    return s;
}

void addKeyMoments(Summary& s, const std::string& key, Moments m)
{
    s.set(key + ".mean", m.mean);
    s.set(key + ".sd", m.sd);
}

} // namespace

CommutativityScenario::CommutativityScenario()
    : m_schema({
          realParameter("mu_x", "Prior mean μ_x", "", -10, 10, 0, "Mean of the prior p(x) = N(μ_x, σ_x²)"),
          realParameter("sigma_x", "Prior sd σ_x", "", 0.2, 10, 2, "Standard deviation of the prior on x",
                        true),
          realParameter("sigma_y_given_x", "Model noise sd σ_y|x", "", 0.1, 5, 1,
                        "Standard deviation of y given x: p(y | x) = N(x, σ_y|x²)", true),
          realParameter("zeta_a", "Evidence A centre ζ_A", "", -10, 10, -1.5, "Where evidence A puts y"),
          realParameter("sigma_a", "Evidence A sd σ_A", "", 0.1, 5, 0.7, "Spread of evidence A", true),
          realParameter("zeta_b", "Evidence B centre ζ_B", "", -10, 10, 2, "Where evidence B puts y"),
          realParameter("sigma_b", "Evidence B sd σ_B", "", 0.1, 5, 0.7, "Spread of evidence B", true),
          realParameter("mixture_weight", "Mixture weight of A", "", 0, 1, 0.5,
                        "The remedy: Jeffrey's rule with w·q_A + (1 − w)·q_B"),
          emphasisParameter(),
      })
{
}

ScenarioInfo CommutativityScenario::info() const
{
    return {"ue-commutativity", "Two pieces of evidence: does the order matter?", "Uncertain evidence",
            "Jeffrey's rule forgets the first of two pieces of evidence; virtual evidence commutes (App. A)"};
}

std::vector<Preset> CommutativityScenario::presets() const
{
    return {
        {"contradictory",
         "Two sharp, contradictory pieces of evidence on y",
         {{"zeta_a", -3}, {"sigma_a", 0.4}, {"zeta_b", 3}, {"sigma_b", 0.4}}},
        {"agreeing",
         "Two pieces of evidence that agree: the orders still differ in spread",
         {{"zeta_a", 1.8}, {"sigma_a", 0.5}, {"zeta_b", 2.2}, {"sigma_b", 1.2}}},
    };
}

Figure CommutativityScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    context.checkCancelled();
    const models::LinearGaussianModel model(v.at("mu_x"), v.at("sigma_x"), v.at("sigma_y_given_x"));
    const evidence::GaussianEvidence qa(v.at("zeta_a"), v.at("sigma_a"));
    const evidence::GaussianEvidence qb(v.at("zeta_b"), v.at("sigma_b"));
    const double w = v.at("mixture_weight");

    // The grids hold the prior, both pieces of evidence and every posterior between them.
    const double mu = model.priorMean(), sx = model.priorSd(), sy = model.noiseSd();
    const double predSd = std::hypot(sx, sy);
    const double yLo = std::min({mu - 7 * predSd, qa.centre() - 7 * qa.sd(), qb.centre() - 7 * qb.sd()});
    const double yHi = std::max({mu + 7 * predSd, qa.centre() + 7 * qa.sd(), qb.centre() + 7 * qb.sd()});
    const double xLo = std::min(mu - 7 * sx, yLo), xHi = std::max(mu + 7 * sx, yHi);
    const UniformGrid xg(xLo, xHi, kGridPoints), yg(yLo, yHi, kGridPoints);

    auto logA = [&](double y) { return qa.logDensity(y); };
    auto logB = [&](double y) { return qb.logDensity(y); };
    auto logMix = [&](double y) {
        const double la = qa.logDensity(y), lb = qb.logDensity(y);
        const double terms[2] = {std::log(w) + la, std::log1p(-w) + lb};
        return stats::logSumExp(terms);
    };

    const evidence::JointTable base(model, xg, yg);
    context.checkCancelled();
    const evidence::JointTable jrAB = base.jeffrey(logA).jeffrey(logB);
    const evidence::JointTable jrBA = base.jeffrey(logB).jeffrey(logA);
    context.checkCancelled();
    const evidence::JointTable veAB = base.virtualEvidence(logA).virtualEvidence(logB);
    const evidence::JointTable veBA = base.virtualEvidence(logB).virtualEvidence(logA);
    const evidence::JointTable mixture = base.jeffrey(logMix);

    const std::vector<double> prior = base.marginalX(), pAB = jrAB.marginalX(), pBA = jrBA.marginalX(),
                              vAB = veAB.marginalX(), vBA = veBA.marginalX(), pMix = mixture.marginalX();

    Figure figure;
    const ReadingStyle jr = readingStyle(Reading::Jeffrey), ve = readingStyle(Reading::Virtual);
    std::vector<std::pair<double, double>> shownMoments;
    for (const auto* pdf : {&prior, &pAB, &pBA, &vAB, &pMix}) {
        const Moments m = momentsOf(xg, *pdf);
        shownMoments.push_back({m.mean, m.sd});
    }
    const Range xr = displayRange(shownMoments);
    const Range yr = displayRange({{mu, predSd}, {qa.centre(), qa.sd()}, {qb.centre(), qb.sd()}});
    Plot posterior;
    posterior.title = "Posterior over x after evidence A and B";
    posterior.xLabel = "x";
    posterior.yLabel = "probability density";
    posterior.series = {
        curve("Prior", xg, prior, kReferenceColour, true, xr),
        curve(std::string(jr.legend) + ", A then B", xg, pAB, jr.colour, false, xr),
        curve(std::string(jr.legend) + ", B then A", xg, pBA, jr.colour, true, xr),
        curve(std::string(ve.legend) + ", A and B (either order)", xg, vAB, ve.colour, false, xr),
        curve(std::string(jr.legend) + " with the mixture w·q_A + (1 − w)·q_B", xg, pMix, 5, false, xr)};
    figure.plots.push_back(std::move(posterior));

    Plot observable;
    observable.title = "The observable y: the model's prediction and the two pieces of evidence";
    observable.xLabel = "y";
    observable.yLabel = "probability density";
    std::vector<double> qA(yg.size()), qB(yg.size()), qMix(yg.size());
    for (int j = 0; j < yg.size(); ++j) {
        qA[j] = std::exp(logA(yg.at(j)));
        qB[j] = std::exp(logB(yg.at(j)));
        qMix[j] = std::exp(logMix(yg.at(j)));
    }
    observable.series = {curve("Prior predictive p(y)", yg, base.marginalY(), kReferenceColour, true, yr),
                         curve("Evidence A: q_A(y)", yg, qA, kEvidenceColour, false, yr),
                         curve("Evidence B: q_B(y)", yg, qB, 1, false, yr),
                         curve("Mixture w·q_A + (1 − w)·q_B", yg, qMix, 5, true, yr)};
    observable.markers = {{"ζ_A", qa.centre()}, {"ζ_B", qb.centre()}};
    figure.plots.push_back(std::move(observable));

    Summary& s = figure.summary;
    addKeyMoments(s, "prior", momentsOf(xg, prior));
    addKeyMoments(s, "jeffrey_a_then_b", momentsOf(xg, pAB));
    addKeyMoments(s, "jeffrey_b_then_a", momentsOf(xg, pBA));
    addKeyMoments(s, "virtual", momentsOf(xg, vAB));
    addKeyMoments(s, "virtual_b_then_a", momentsOf(xg, vBA));
    addKeyMoments(s, "mixture", momentsOf(xg, pMix));
    s.set("commutativity.jeffrey_max_abs_diff", maxAbsDiff(pAB, pBA));
    s.set("commutativity.virtual_max_abs_diff", maxAbsDiff(vAB, vBA));
    // Each Jeffrey update must be consistent on its own: the stricter of the two is reported.
    const double varY = predSd * predSd;
    addConsistency(figure, {varY, std::max(qa.variance(), qb.variance())}, "y");
    applyEmphasis(figure, v);
    return figure;
}

} // namespace evx::scenarios
