#include "scenarios/uncertain_evidence/hetero_scenario.h"

#include "evidence/distributional_evidence.h"
#include "evidence/readings.h"
#include "models/heteroscedastic_gaussian_model.h"
#include "scenarios/uncertain_evidence/evidence_figure.h"

#include <algorithm>
#include <cmath>

namespace evx::scenarios {
namespace {

// The latent grid holds the prior's core and the region the evidence points to (x near ζ,
// where s(x) can be wide); 801 points keep a sweep under a few milliseconds.
evidence::ReadingGrids makeGrids(const models::HeteroscedasticGaussianModel& m, double zeta, double sq)
{
    const double mu = m.priorMean(), sd = m.priorSd();
    const UniformGrid prior(mu - 10 * sd, mu + 10 * sd, 801);
    const double reach = 6 * (sq + m.noiseSd(zeta));
    const double lo = std::min(mu - 8 * sd, zeta - reach);
    const double hi = std::max(mu + 8 * sd, zeta + reach);
    const UniformGrid latent(lo, hi, 801);
    const double narrowest = std::min(sq, m.noiseSd(0));
    const int ny = std::clamp(int(20 * sq / (narrowest / 2)) + 1, 201, 1201);
    const UniformGrid observable(zeta - 10 * sq, zeta + 10 * sq, ny);
    return {prior, latent, observable};
}

Series line(std::string name, const std::vector<double>& x, const std::vector<double>& y, int colour,
            bool dashed, Range r)
{
    Series s;
    s.name = std::move(name);
    s.colour = colour;
    s.dashed = dashed;
    for (size_t i = 0; i < x.size(); ++i)
        if (x[i] >= r.lo && x[i] <= r.hi) {
            s.x.push_back(x[i]);
            s.y.push_back(y[i]);
        }
    return s;
}

} // namespace

HeteroScenario::HeteroScenario()
    : m_schema({
          realParameter("mu_x", "Prior mean μ_x", "", -10, 10, 0, "Mean of the prior p(x) = N(μ_x, σ_x²)"),
          realParameter("sigma_x", "Prior sd σ_x", "", 0.1, 10, 2, "Standard deviation of the prior on x",
                        true),
          realParameter("s0", "Noise sd at x = 0, s0", "", 0.05, 5, 0.3,
                        "Model noise s(x) = s0 + s1·|x|: its value at x = 0", true),
          realParameter("s1", "Noise growth s1", "", 0, 2, 0.5, "How fast the model noise grows with |x|"),
          realParameter("sigma_q", "Evidence sd σ_q", "", 0.05, 5, 1,
                        "Standard deviation of the uncertain evidence q = N(ζ, σ_q²)", true),
          realParameter("zeta", "Evidence centre ζ", "", -10, 10, 2,
                        "Where the uncertain evidence about y is centred"),
          emphasisParameter(),
      })
{
}

ScenarioInfo HeteroScenario::info() const
{
    return {"ue-gaussian-hetero", "Distributional evidence with x-dependent noise", "Uncertain evidence",
            "Z(x) is no longer constant: exact and implied distributional evidence part ways (Sec. 3.3)"};
}

std::vector<Preset> HeteroScenario::presets() const
{
    return {
        {"constant-noise",
         "s1 = 0: Z is constant and exact and implied inference agree",
         {{"s1", 0}, {"s0", 1}}},
        {"strong-growth",
         "Noise growing fast with |x|: p_a(x) pushes mass away from 0",
         {{"s0", 0.2}, {"s1", 1}, {"sigma_q", 1.5}}},
    };
}

Figure HeteroScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    context.checkCancelled();
    const models::HeteroscedasticGaussianModel model(v.at("mu_x"), v.at("sigma_x"), v.at("s0"), v.at("s1"));
    const double zeta = v.at("zeta"), sq = v.at("sigma_q");
    const evidence::GaussianEvidence q(zeta, sq);
    const evidence::ReadingGrids grids = makeGrids(model, zeta, sq);
    const evidence::Readings r = evidence::computeReadings(model, q, zeta, grids, context);
    const evidence::DistributionalPosteriors d = evidence::distributionalPosteriors(model, q, grids.latent);

    Figure figure;
    const Range range = displayRange({{r.prior.mean, r.prior.sd},
                                      {r.jeffrey.mean, r.jeffrey.sd},
                                      {r.virtualEvidence.mean, r.virtualEvidence.sd},
                                      {d.exact.mean, d.exact.sd},
                                      {d.implied.mean, d.implied.sd}},
                                     4);
    const Range shown{std::max(range.lo, grids.latent.lo()), std::min(range.hi, grids.latent.hi())};
    const ReadingStyle de = readingStyle(Reading::Distributional);

    Plot posterior;
    posterior.title = "Posterior over x under each reading of the evidence";
    posterior.xLabel = "x";
    posterior.yLabel = "probability density";
    posterior.series = {
        densitySeries(Reading::Prior, r.prior.x, r.prior.pdf, shown.lo, shown.hi),
        densitySeries(Reading::Jeffrey, r.jeffrey.x, r.jeffrey.pdf, shown.lo, shown.hi),
        densitySeries(Reading::Virtual, r.virtualEvidence.x, r.virtualEvidence.pdf, shown.lo, shown.hi),
        line(std::string(de.legend) + ", exact (Z known)", d.exact.x, d.exact.pdf, de.colour, false, shown),
        line(std::string(de.legend) + ", implied (Z ignored)", d.implied.x, d.implied.pdf, de.colour, true,
             shown)};
    posterior.markers.push_back({"ζ", zeta});
    figure.plots.push_back(std::move(posterior));

    context.checkCancelled();
    Plot priors;
    priors.title = "The prior and the adjusted prior p_a(x) ∝ p(x) Z(x) that implied inference uses";
    priors.xLabel = "x";
    priors.yLabel = "probability density";
    priors.series = {densitySeries(Reading::Prior, r.prior.x, r.prior.pdf, shown.lo, shown.hi),
                     line("Adjusted prior p_a(x)", d.adjustedPrior.x, d.adjustedPrior.pdf, 5, false, shown)};
    figure.plots.push_back(std::move(priors));

    Plot normaliser;
    normaliser.title = "Normaliser Z(x) = exp(−σ_q² / (2 s(x)²)) and the noise sd s(x)";
    normaliser.xLabel = "x";
    normaliser.yLabel = "Z(x) (dimensionless) and s(x)";
    std::vector<double> z(d.logZ.size()), s(d.logZ.size());
    const std::vector<double> xs = grids.latent.points();
    for (size_t i = 0; i < z.size(); ++i) {
        z[i] = std::exp(d.logZ[i]);
        s[i] = model.noiseSd(xs[i]);
    }
    normaliser.series = {line("Z(x)", xs, z, 5, false, shown),
                         line("s(x) = s0 + s1·|x|", xs, s, kReferenceColour, true, shown)};
    figure.plots.push_back(std::move(normaliser));

    addMoments(figure.summary, Reading::Prior, r.prior.mean, r.prior.sd);
    addMoments(figure.summary, Reading::Jeffrey, r.jeffrey.mean, r.jeffrey.sd);
    addMoments(figure.summary, Reading::Virtual, r.virtualEvidence.mean, r.virtualEvidence.sd);
    figure.summary.set("distributional_exact.mean", d.exact.mean);
    figure.summary.set("distributional_exact.sd", d.exact.sd);
    figure.summary.set("distributional_implied.mean", d.implied.mean);
    figure.summary.set("distributional_implied.sd", d.implied.sd);
    figure.summary.set("adjusted_prior.mean", d.adjustedPrior.mean);
    figure.summary.set("adjusted_prior.sd", d.adjustedPrior.sd);
    addGridCoverage(figure, Reading::Jeffrey, r.jeffrey);
    addGridCoverage(figure, Reading::Virtual, r.virtualEvidence);
    addGridCoverage(figure, Reading::Distributional, d.exact);
    addGridCoverage(figure, Reading::Distributional, d.implied);
    addConsistency(figure, r.consistency, "y");
    applyEmphasis(figure, v);
    return figure;
}

} // namespace evx::scenarios
