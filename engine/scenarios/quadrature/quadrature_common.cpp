#include "scenarios/quadrature/quadrature_common.h"

#include <algorithm>
#include <cmath>

namespace evx::scenarios::quadrature {

std::vector<ParameterSpec> studyParameters(double lengthscaleMax, int defaultSamples)
{
    return {
        choiceParameter("method", "Method", {"bq", "log-gp-bq", "mc"}, 1,
                        "GP BQ on ℓ, log-GP BQ (GP on log ℓ), or plain Monte Carlo from p(x)"),
        choiceParameter("strategy", "Sampling strategy", {"mc", "grid", "active"}, 2,
                        "Where to sample: random draws from p(x), a quasi-random design filling p(x), "
                        "or active sampling (the point that most reduces the uncertainty in Z)"),
        integerParameter("n_samples", "Number of samples", 3, 100, defaultSamples,
                         "Samples placed by the strategy (after any you clicked); Play adds one at a time",
                         true),
        realParameter("lengthscale", "Kernel lengthscale (0 = fitted)", "", 0, lengthscaleMax, 0,
                      "Lengthscale of the Gaussian kernel; 0 fits it by maximum marginal likelihood"),
        integerParameter("seed", "Random seed", 1, 1000, 1,
                         "Seed of the Monte Carlo draws and of the quasi-random shift"),
    };
}

bq::StudySettings studySettings(const ParameterValues& v, const RunInput* input)
{
    bq::StudySettings s;
    s.method = bq::Method(int(v.at("method")));
    const int strategy = int(v.at("strategy"));
    s.strategy = strategy == 0   ? bq::Strategy::MonteCarlo
                 : strategy == 1 ? bq::Strategy::QuasiRandom
                                 : bq::Strategy::Active;
    s.samples = int(v.at("n_samples"));
    s.lengthscale = v.at("lengthscale");
    s.seed = std::uint64_t(v.at("seed"));
    if (input)
        for (const auto& pt : input->points)
            s.userPoints.push_back(pt[0]);
    return s;
}

std::string methodName(bq::Method m)
{
    switch (m) {
    case bq::Method::GpBq:
        return "GP BQ";
    case bq::Method::LogGpBq:
        return "log-GP BQ";
    case bq::Method::MonteCarlo:
        return "Monte Carlo";
    }
    return "";
}

namespace {

void addTrace(Plot& plot, const std::vector<bq::TracePoint>& trace, const std::string& name, int colour)
{
    Band band;
    band.name = name + " ±2 sd";
    band.colour = colour;
    Series mean;
    mean.name = name + " estimate";
    mean.colour = colour;
    for (const auto& t : trace) {
        band.x.push_back(t.n);
        band.lower.push_back(t.mean - 2 * t.sd);
        band.upper.push_back(t.mean + 2 * t.sd);
        mean.x.push_back(t.n);
        mean.y.push_back(t.mean);
    }
    plot.bands.push_back(std::move(band));
    plot.series.push_back(std::move(mean));
}

} // namespace

Plot convergencePlot(const bq::StudyResult& r, bq::Method method, double truth, const std::string& zName)
{
    Plot plot;
    plot.title = "Estimate of " + zName + " ± 2 sd against the number of samples";
    plot.xLabel = "number of samples n";
    plot.xInteger = true;
    plot.yLabel = zName;
    if (method != bq::Method::MonteCarlo)
        addTrace(plot, r.trace, methodName(method), 3);
    addTrace(plot, r.mcTrace, "Monte Carlo", 0);
    Series t;
    t.name = "true " + zName + " (numerical integration)";
    t.colour = kReferenceColour;
    t.dashed = true;
    double nMax = 1;
    for (const auto& p : r.trace)
        nMax = std::max(nMax, double(p.n));
    for (const auto& p : r.mcTrace)
        nMax = std::max(nMax, double(p.n));
    t.x = {1, nMax};
    t.y = {truth, truth};
    plot.series.push_back(std::move(t));
    return plot;
}

Plot relativeErrorPlot(const bq::StudyResult& r, bq::Method method, double truth)
{
    Plot plot;
    plot.title = "Relative error |E[Z] − Z| / Z (log scale)";
    plot.xLabel = "number of samples n";
    plot.xInteger = true;
    plot.yLabel = "relative error";
    plot.logY = true;
    // An estimate that hits Z to the last digit would put log 0 on the axis; 1e-16 is the
    // relative precision of a double anyway.
    auto add = [&](const std::vector<bq::TracePoint>& trace, const std::string& name, int colour) {
        Series s;
        s.name = name;
        s.colour = colour;
        for (const auto& t : trace) {
            s.x.push_back(t.n);
            s.y.push_back(std::max(std::fabs(t.mean - truth) / std::fabs(truth), 1e-16));
        }
        plot.series.push_back(std::move(s));
    };
    if (method != bq::Method::MonteCarlo)
        add(r.trace, methodName(method), 3);
    add(r.mcTrace, "Monte Carlo", 0);
    return plot;
}

void addModel(Plot& plot, const bq::StudyResult& r, bq::Method method, int userPoints)
{
    if (method != bq::Method::MonteCarlo) {
        Band band;
        band.name = "±2 sd";
        band.colour = 1;
        band.x = r.gridX;
        band.lower = r.modelLower;
        band.upper = r.modelUpper;
        plot.bands.push_back(std::move(band));
        Series mean;
        mean.name = method == bq::Method::GpBq ? "GP mean of ℓ" : "log-GP BQ ℓ̄(x)";
        mean.colour = 3;
        mean.x = r.gridX;
        mean.y = r.modelMean;
        plot.series.push_back(std::move(mean));
    }
    Series samples, clicked;
    samples.name = "samples";
    samples.kind = SeriesKind::Scatter;
    samples.colour = 4;
    clicked.name = "your samples";
    clicked.kind = SeriesKind::Scatter;
    clicked.colour = 5;
    for (size_t i = 0; i < r.x.size(); ++i) {
        Series& s = (method != bq::Method::MonteCarlo && int(i) < userPoints) ? clicked : samples;
        s.x.push_back(r.x[i]);
        s.y.push_back(std::exp(r.logL[i]));
    }
    plot.series.push_back(std::move(samples));
    if (!clicked.x.empty())
        plot.series.push_back(std::move(clicked));
}

} // namespace evx::scenarios::quadrature
