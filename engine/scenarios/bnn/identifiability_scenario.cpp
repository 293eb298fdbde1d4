#include "scenarios/bnn/identifiability_scenario.h"

#include "bnn/one_node.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace evx::scenarios {
namespace {

constexpr int kCurvePoints = 401;
constexpr int kMaxScatter = 2000; // points drawn per scatter; the export keeps them all

// Every k-th point so that at most kMaxScatter are drawn.
Series scatter(std::string name, const Eigen::VectorXd& x, const Eigen::VectorXd& y, int colour)
{
    Series s{std::move(name), SeriesKind::Scatter, {}, {}, colour};
    const Eigen::Index step = std::max<Eigen::Index>(1, x.size() / kMaxScatter);
    for (Eigen::Index i = 0; i < x.size(); i += step) {
        s.x.push_back(x(i));
        s.y.push_back(y(i));
    }
    return s;
}

std::string formatC(double c)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", c);
    return buf;
}

std::vector<double> asVector(const Eigen::VectorXd& v)
{
    return {v.data(), v.data() + v.size()};
}

} // namespace

BnnIdentifiabilityScenario::BnnIdentifiabilityScenario()
    : m_schema({
          integerParameter("n", "Observations N", 10, 100000, 200,
                           "Data points; the preferred C tends to C* as N grows", true),
          realParameter("sigma_z", "Latent sd σ_z", "", 0.05, 3, 1,
                        "Standard deviation of the latent input z"),
          realParameter("sigma_eps", "Noise sd σ_ε", "", 0.01, 2, 0.1,
                        "Standard deviation of the output noise"),
          realParameter("w_true", "True weight W", "", 0.1, 5, 1, "The weight that generated the data"),
          realParameter("x_mean", "Mean of x", "", -3, 3, 0,
                        "x ~ N(mean, 1): a larger m2 = mean of x² pushes C* towards 1"),
          realParameter(
              "w_prior_sd", "Prior sd σ_w", "", 0.1, 100, std::sqrt(10.0),
              "W ~ N(0, σ_w²); the paper's Fig. 2 uses σ_w² = 10. Any bounded prior gives the same limit",
              true),
          integerParameter("seed", "Seed", 0, 100000, 0, "Seed of x, z and the noise"),
      })
{
}

ScenarioInfo BnnIdentifiabilityScenario::info() const
{
    return {"bnn-identifiability", "BNN+LV: the posterior mode is not the truth", "BNN with latent variables",
            "One LeakyReLU node with a latent input: latents that memorise x are more probable than the "
            "true ones (paper Thm 1)"};
}

std::vector<Preset> BnnIdentifiabilityScenario::presets() const
{
    return {
        {"fig2-map-vs-truth",
         "Fig. 2 in one node: the mode's latents memorise x, its function spreads mass",
         {{"n", 200}, {"sigma_z", 1}, {"w_true", 1}, {"w_prior_sd", std::sqrt(10.0)}}},
        {"thm1-limit",
         "Theorem 1: with N = 50 000 the maximiser sits at C* = m2/(m2 + σ_z²)",
         {{"n", 50000}, {"sigma_z", 1}, {"x_mean", 1}}},
        {"small-latent", "σ_z small against x: C* ≈ 1, the bias nearly vanishes", {{"sigma_z", 0.1}}},
    };
}

Figure BnnIdentifiabilityScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    const bnn::OneNodeModel model{v.at("w_true"), v.at("sigma_z"), v.at("sigma_eps"), v.at("w_prior_sd")};
    const int n = int(v.at("n"));
    const bnn::OneNodeData data = simulateOneNode(model, n, v.at("x_mean"), std::uint64_t(v.at("seed")));
    context.checkCancelled();

    const double m2 = data.x.squaredNorm() / n;
    const auto [cLo, cStar] = bnn::familyConstants(m2, model.sigmaZ);
    const bnn::FamilyMaximum best = bnn::familyMaximiser(model, data);
    const double truthDensity = bnn::familyLogDensity(model, data, 1);
    const double gain = bnn::familyLogDensity(model, data, best.c) - truthDensity;

    Figure f;
    // 1. The joint log density along the family, relative to the truth's.
    {
        // From just below C_lo (or the maximiser) to past the truth; near C = 0 the prior on
        // Ŵ = W/C plunges and would squash the part that matters.
        const double left = std::min({cLo, best.c, cStar});
        const double lo = std::max(left - 0.15 * (1 - left), 0.25 * best.c);
        const double hi = std::max(1.25, best.c + 0.1);
        Plot p;
        p.title = "Joint log density along (W/C, (C − 1)x + Cz), relative to the truth";
        p.xLabel = "C (C = 1: the true W and z)";
        p.yLabel = "log density − the truth's (nats)";
        Series curve{"every C reproduces y exactly", SeriesKind::Line, {}, {}, 3};
        for (int k = 0; k < kCurvePoints; ++k) {
            if (k % 64 == 0)
                context.checkCancelled();
            const double c = lo + (hi - lo) * k / (kCurvePoints - 1);
            curve.x.push_back(c);
            curve.y.push_back(bnn::familyLogDensity(model, data, c) - truthDensity);
        }
        p.series.push_back(std::move(curve));
        p.series.push_back({"maximiser C = " + formatC(best.c), SeriesKind::Scatter, {best.c}, {gain}, 4});
        p.markers = {
            {"truth C = 1", 1.0}, {"C_lo = " + formatC(cLo), cLo}, {"C* = " + formatC(cStar), cStar}};
        f.plots.push_back(std::move(p));
    }
    // 2. The data with the true function and the preferred one, each with z over ±2 σ_z.
    {
        Plot p;
        p.title = "Data, the true function and the mode's (bands: z within ±2 σ_z)";
        p.xLabel = "x";
        p.yLabel = "y";
        p.series.push_back(scatter("data", data.x, data.y, kReferenceColour));
        const double xLo = data.x.minCoeff(), xHi = data.x.maxCoeff();
        auto functionOf = [&](const std::string& name, double w, int colour) {
            Band band{name + ", z within ±2 σ_z", {}, {}, {}, colour};
            Series line{name + ", z = 0", SeriesKind::Line, {}, {}, colour};
            for (int k = 0; k < kCurvePoints; ++k) {
                const double x = xLo + (xHi - xLo) * k / (kCurvePoints - 1);
                const double a = bnn::leakyRelu(w * (x - 2 * model.sigmaZ), model.slope);
                const double b = bnn::leakyRelu(w * (x + 2 * model.sigmaZ), model.slope);
                band.x.push_back(x);
                band.lower.push_back(std::min(a, b));
                band.upper.push_back(std::max(a, b));
                line.x.push_back(x);
                line.y.push_back(bnn::leakyRelu(w * x, model.slope));
            }
            p.bands.push_back(std::move(band));
            p.series.push_back(std::move(line));
        };
        functionOf("truth W", model.w, 2);
        functionOf("mode Ŵ = W/C", model.w / best.c, 0);
        f.plots.push_back(std::move(p));
    }
    // 3. The latents: the true z are independent of x, the mode's ẑ = (C − 1)x + Cz are not.
    Eigen::VectorXd zHat = (best.c - 1) * data.x + best.c * data.z;
    {
        Plot p;
        p.title = "Latents against x: the mode's ẑ memorise x";
        p.xLabel = "x";
        p.yLabel = "z";
        p.series.push_back(scatter("true z", data.x, data.z, 2));
        p.series.push_back(scatter("mode's ẑ", data.x, zHat, 0));
        f.plots.push_back(std::move(p));
    }

    f.summary.set("c_lo", cLo);
    f.summary.set("c_star", cStar);
    f.summary.set("c_map", best.c);
    f.summary.set("w_map", model.w / best.c);
    f.summary.set("log_density_gain", gain);
    f.summary.set("mean_x_squared", m2);
    const double zCentre = zHat.mean(), xCentre = data.x.mean();
    const Eigen::ArrayXd dz = zHat.array() - zCentre, dx = data.x.array() - xCentre;
    f.summary.set("corr_x_zhat", (dz * dx).sum() / std::sqrt(dz.square().sum() * dx.square().sum()));
    if (best.atBound)
        f.warnings.push_back("The maximiser sits at an end of the search interval C ∈ [0.001, 3].");
    f.data = {{"x", asVector(data.x)}, {"y", asVector(data.y)}, {"z", asVector(data.z)}};
    return f;
}

} // namespace evx::scenarios
