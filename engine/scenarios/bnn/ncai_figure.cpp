#include "scenarios/bnn/ncai_figure.h"

#include "bnn/bnn_predictive.h"
#include "scenarios/uncertain_evidence/sample_plots.h"
#include "stats/densities.h"
#include "stats/predictive_metrics.h"

#include <algorithm>
#include <cmath>

namespace evx::scenarios {
namespace {

constexpr int kCurvePoints = 200;
constexpr int kMaxScatter = 1500; // points drawn per scatter; the export keeps the data whole
constexpr int kDataColour = kReferenceColour, kFitColour = 3, kLatentColour = 0,
              kPriorColour = kReferenceColour;

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

// The predictive mean and central 95% interval of y at the rows of xRaw, in raw units.
struct Band95 {
    Eigen::VectorXd mean, lower, upper;
};
Band95 predictiveBand(const NcaiFigureInput& in, const Eigen::MatrixXd& xRaw)
{
    const bnn::Standardisation& sc = in.data->raw.scaling;
    const bnn::PredictiveDraws d = bnn::predictiveDraws(*in.snapshot, sc.x(xRaw), in.plotDraws, in.seed);
    const stats::PredictiveIntervals iv = stats::predictiveIntervals(d.f, d.noiseSd, 0.95);
    auto raw = [&](const Eigen::VectorXd& v) -> Eigen::VectorXd { return sc.yMean + sc.ySd * v.array(); };
    return {raw(d.f.colwise().mean().transpose()), raw(iv.lower), raw(iv.upper)};
}

Plot fitPlot(const NcaiFigureInput& in)
{
    const bnn::Dataset& ds = in.data->raw;
    Plot p;
    if (ds.train.x.cols() == 1) {
        p.title = "Data and the posterior predictive (" + in.inferenceLabel + ")";
        p.xLabel = ds.inputNames.empty() ? "x" : ds.inputNames.front();
        p.yLabel = "y";
        const double lo = std::min(ds.train.x.minCoeff(), ds.test.x.minCoeff());
        const double hi = std::max(ds.train.x.maxCoeff(), ds.test.x.maxCoeff());
        Eigen::MatrixXd grid(kCurvePoints, 1);
        for (int k = 0; k < kCurvePoints; ++k)
            grid(k, 0) = lo + (hi - lo) * k / (kCurvePoints - 1);
        const Band95 b = predictiveBand(in, grid);
        Band band{"95% predictive interval", {}, {}, {}, kFitColour};
        Series mean{"predictive mean", SeriesKind::Line, {}, {}, kFitColour};
        for (int k = 0; k < kCurvePoints; ++k) {
            band.x.push_back(grid(k, 0));
            band.lower.push_back(b.lower(k));
            band.upper.push_back(b.upper(k));
            mean.x.push_back(grid(k, 0));
            mean.y.push_back(b.mean(k));
        }
        p.series.push_back(scatter("training data", ds.train.x.col(0), ds.train.y, kDataColour));
        p.series.push_back(std::move(mean));
        p.bands.push_back(std::move(band));
        return p;
    }
    // Several inputs: the test set's predictions against what was observed.
    p.title = "Test set: predicted against observed (" + in.inferenceLabel + ")";
    p.xLabel = "observed y";
    p.yLabel = "predicted y (mean, 95% interval)";
    const Band95 b = predictiveBand(in, ds.test.x);
    Series intervals{"95% predictive intervals", SeriesKind::Line, {}, {}, kFitColour};
    intervals.emphasis = -1;
    for (Eigen::Index i = 0; i < ds.test.y.size(); ++i) {
        intervals.x.insert(intervals.x.end(), {ds.test.y(i), ds.test.y(i), NAN});
        intervals.y.insert(intervals.y.end(), {b.lower(i), b.upper(i), NAN});
    }
    const double lo = std::min(ds.test.y.minCoeff(), b.mean.minCoeff());
    const double hi = std::max(ds.test.y.maxCoeff(), b.mean.maxCoeff());
    p.series.push_back(std::move(intervals));
    p.series.push_back(scatter("predictive means", ds.test.y, b.mean, kFitColour));
    Series diagonal{"predicted = observed", SeriesKind::Line, {lo, hi}, {lo, hi}, kReferenceColour, true};
    p.series.push_back(std::move(diagonal));
    return p;
}

Plot latentPlot(const NcaiFigureInput& in)
{
    const bnn::Dataset& ds = in.data->raw;
    const bool oneInput = ds.train.x.cols() == 1;
    Plot p;
    p.title = oneInput ? "Latent means against x: white noise is a flat cloud"
                       : "Latent means against y: white noise is a flat cloud";
    p.xLabel = oneInput ? (ds.inputNames.empty() ? "x" : ds.inputNames.front()) : "y";
    p.yLabel = "μ_z (posterior mean of z_n)";
    p.series.push_back(scatter("μ_z per training point",
                               oneInput ? Eigen::VectorXd(ds.train.x.col(0)) : ds.train.y,
                               in.snapshot->latentMean, kLatentColour));
    return p;
}

Plot latentHistogram(const NcaiFigureInput& in)
{
    const Eigen::VectorXd& mu = in.snapshot->latentMean;
    const double sz = std::sqrt(in.snapshot->latentVariance);
    const double reach = std::max({4 * sz, std::abs(mu.minCoeff()), std::abs(mu.maxCoeff())});
    Plot p;
    p.title = "Latent means against the prior N(0, σ_z²)";
    p.xLabel = "μ_z";
    p.yLabel = "probability density";
    p.series.push_back(histogramSeries("μ_z histogram", mu, {}, -reach, reach, 40, kLatentColour, false));
    Series prior{"prior N(0, σ_z²)", SeriesKind::Line, {}, {}, kPriorColour, true};
    for (int k = 0; k < kCurvePoints; ++k) {
        const double z = -reach + 2 * reach * k / (kCurvePoints - 1);
        prior.x.push_back(z);
        prior.y.push_back(stats::normalPdf(z, 0, sz));
    }
    p.series.push_back(std::move(prior));
    return p;
}

Plot tracePlot(const std::vector<bnn_training::TracePoint>& trace, const std::string& title,
               const std::string& yLabel,
               const std::vector<std::pair<std::string, double bnn_training::TracePoint::*>>& curves)
{
    Plot p;
    p.title = title;
    p.xLabel = "epoch";
    p.xInteger = true;
    p.yLabel = yLabel;
    int colour = 3;
    for (const auto& [name, member] : curves) {
        Series s{name, SeriesKind::Line, {}, {}, colour++};
        for (const bnn_training::TracePoint& t : trace) {
            s.x.push_back(t.epoch);
            s.y.push_back(t.*member);
        }
        p.series.push_back(std::move(s));
    }
    return p;
}

} // namespace

Figure ncaiFigure(const NcaiFigureInput& in)
{
    Figure f;
    f.plots.push_back(fitPlot(in));
    const bool latent = in.snapshot->hasLatent();
    if (latent) {
        f.plots.push_back(latentPlot(in));
        f.plots.push_back(latentHistogram(in));
    }
    const std::vector<bnn_training::TracePoint>& trace = *in.trace;
    if (!trace.empty()) {
        f.plots.push_back(tracePlot(trace, "Training: ELBO per training point", "ELBO / N (nats)",
                                    {{"ELBO / N", &bnn_training::TracePoint::elbo}}));
        f.plots.push_back(tracePlot(trace, "Test log-likelihood while training", "nats per test point",
                                    {{"test log-likelihood", &bnn_training::TracePoint::testLogLik}}));
        if (latent)
            f.plots.push_back(tracePlot(trace, "Latent diagnostics while training", "statistic",
                                        {{"MI(x, μ_z), nats", &bnn_training::TracePoint::mutualInformation},
                                         {"Henze–Zirkler of μ_z", &bnn_training::TracePoint::henzeZirkler}}));
    }
    return f;
}

} // namespace evx::scenarios
