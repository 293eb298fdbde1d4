#include "scenarios/genbayes/gb_figure.h"

#include "genbayes/gb_inference.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace evx::scenarios {
namespace {

std::string fixed(double v, int decimals = 3)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::vector<double> axisValues(const genbayes::ParameterBox& box, int k)
{
    const int n = box.gridPoints[std::size_t(k)];
    std::vector<double> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        v[std::size_t(i)] = box.lower(k) + (box.upper(k) - box.lower(k)) * i / (n - 1);
    return v;
}

// Densities on a grid axis from grid weights (weights / step).
Series density(const genbayes::ParameterBox& box, const std::vector<double>& marginal, int k,
               std::string name, int colour)
{
    const std::vector<double> x = axisValues(box, k);
    const double step = x.size() > 1 ? x[1] - x[0] : 1;
    Series s;
    s.name = std::move(name);
    s.colour = colour;
    s.x = x;
    for (double w : marginal)
        s.y.push_back(w / step);
    return s;
}

Plot dataPlot(const GbView& v)
{
    Plot p;
    const genbayes::Points& x = *v.observed;
    const bool fitted = v.reference.size() > 0; // not in the first figure, of the data alone
    const auto refMoments =
        fitted ? genbayes::gridMoments(*v.grid, v.reference) : std::vector<genbayes::Moments>{};
    const auto methodMoments = v.method.size() ? genbayes::gridMoments(*v.grid, v.method) : refMoments;
    auto thetaOf = [](const std::vector<genbayes::Moments>& m) {
        Eigen::VectorXd t(Eigen::Index(m.size()));
        for (std::size_t k = 0; k < m.size(); ++k)
            t(Eigen::Index(k)) = m[k].mean;
        return t;
    };
    if (x.cols() == 2) {
        p.title = "Data (" + std::to_string(x.rows()) + " points) and the fitted lines";
        p.xLabel = "x";
        p.yLabel = "y";
        Series pts{"observed (" + v.truth->label + ")", SeriesKind::Scatter, {}, {}, 3};
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            pts.x.push_back(x(i, 0));
            pts.y.push_back(x(i, 1));
        }
        p.series.push_back(pts);
        if (!fitted)
            return p;
        const double lo = x.col(0).minCoeff(), hi = x.col(0).maxCoeff();
        for (const auto& [name, m, colour, dashed] :
             {std::tuple{std::string("reference posterior mean"), refMoments, kReferenceColour, true},
              std::tuple{v.methodLabel + " posterior mean", methodMoments, 0, false}}) {
            Series line{name,
                        SeriesKind::Line,
                        {lo, hi},
                        {m[0].mean + m[1].mean * lo, m[0].mean + m[1].mean * hi},
                        colour};
            line.dashed = dashed;
            p.series.push_back(line);
        }
        return p;
    }
    const bool discrete = v.box.names[0] == "lambda";
    p.title = "Data (" + std::to_string(x.rows()) + " points) and the model at the posterior means";
    p.xLabel = "x";
    p.yLabel = discrete ? "probability" : "density";
    const double lo = std::floor(x.minCoeff()) - (discrete ? 0 : 1),
                 hi = std::ceil(x.maxCoeff()) + (discrete ? 0 : 1);
    const double width = discrete ? 1.0 : std::max(0.25, (hi - lo) / 30);
    Series hist{"observed (" + v.truth->label + ")", SeriesKind::Bar, {}, {}, 1};
    for (double b = lo; b <= hi + 1e-9; b += width) {
        const double count = ((x.col(0).array() >= b - (discrete ? 0.5 : 0)) &&
                              (x.col(0).array() < b + (discrete ? 0.5 : width)))
                                 .count();
        hist.x.push_back(discrete ? b : b + width / 2);
        hist.y.push_back(count / (double(x.rows()) * width));
    }
    p.series.push_back(hist);
    Series truthCurve{"truth g", SeriesKind::Line, {}, {}, kReferenceColour};
    truthCurve.dashed = true;
    Series fit{v.methodLabel + " fit", SeriesKind::Line, {}, {}, 0};
    const Eigen::VectorXd theta = fitted ? thetaOf(methodMoments) : Eigen::VectorXd();
    const int points = discrete ? int(hi - lo) + 1 : 241;
    for (int i = 0; i < points; ++i) {
        const double at = discrete ? lo + i : lo + (hi - lo) * i / (points - 1);
        const Eigen::RowVectorXd point = Eigen::RowVectorXd::Constant(1, at);
        truthCurve.x.push_back(at);
        truthCurve.y.push_back(std::exp(v.truth->logDensity(point)));
        if (fitted) {
            fit.x.push_back(at);
            fit.y.push_back(std::exp(v.model->logLikelihood(theta, point)));
        }
    }
    if (discrete)
        truthCurve.kind = fit.kind = SeriesKind::Scatter;
    p.series.push_back(truthCurve);
    if (fitted)
        p.series.push_back(fit);
    return p;
}

Plot surfacePlot(const GbView& v)
{
    Plot p;
    const std::string d = "D̂ (" + v.divergenceLabel + ")";
    if (v.box.dimension() == 1) {
        p.title = "Divergence estimate over " + v.box.labels[0] + ", ±2 sd of the GP, and its evaluations";
        p.xLabel = v.box.labels[0];
        p.yLabel = "divergence";
        const std::vector<double> x = axisValues(v.box, 0);
        Series ref{"with the true g", SeriesKind::Line, x, {}, kReferenceColour};
        ref.dashed = true;
        ref.y.assign(v.referenceDivergence.data(),
                     v.referenceDivergence.data() + v.referenceDivergence.size());
        p.series.push_back(ref);
        if (v.surfaceMean.size()) {
            Series mean{d + (v.surfaceSd.size() ? ", GP mean" : ""), SeriesKind::Line, x, {}, 0};
            mean.y.assign(v.surfaceMean.data(), v.surfaceMean.data() + v.surfaceMean.size());
            if (v.surfaceSd.size()) {
                Band band{"±2 sd", x, {}, {}, 0};
                for (Eigen::Index i = 0; i < v.surfaceMean.size(); ++i) {
                    band.lower.push_back(v.surfaceMean(i) - 2 * v.surfaceSd(i));
                    band.upper.push_back(v.surfaceMean(i) + 2 * v.surfaceSd(i));
                }
                p.bands.push_back(band);
            }
            p.series.push_back(mean);
        }
        if (v.evaluated.rows()) {
            Series ev{
                "evaluations (" + std::to_string(v.evaluated.rows()) + ")", SeriesKind::Scatter, {}, {}, 4};
            for (Eigen::Index i = 0; i < v.evaluated.rows(); ++i) {
                ev.x.push_back(v.evaluated(i, 0));
                ev.y.push_back(v.evaluatedValues(i));
            }
            p.series.push_back(ev);
        }
        return p;
    }
    // 2-D and 3-D: the surface over the first two axes (3-D: at the third axis's grid value
    // nearest the method's posterior mean).
    const Eigen::VectorXd& s = v.surfaceMean.size() ? v.surfaceMean : v.referenceDivergence;
    int slice = 0;
    if (v.box.dimension() == 3) {
        const auto m = genbayes::gridMoments(*v.grid, v.method.size() ? v.method : v.reference);
        const int n = v.box.gridPoints[2];
        slice = std::clamp(
            int(std::lround((m[2].mean - v.box.lower(2)) / (v.box.upper(2) - v.box.lower(2)) * (n - 1))), 0,
            n - 1);
    }
    const double sliceValue = v.box.lower(2 % v.box.dimension()) +
                              (v.box.upper(2 % v.box.dimension()) - v.box.lower(2 % v.box.dimension())) *
                                  slice /
                                  std::max(1, v.box.gridPoints[std::size_t(2 % v.box.dimension())] - 1);
    // A GP's surface comes with its evaluations (a partial one without its sd); Gen grid has neither.
    const bool smoothed = v.surfaceMean.size() && v.evaluated.rows();
    p.title = d + (smoothed ? " (GP mean)" : "") + " over " + v.box.labels[0] + " and " + v.box.labels[1] +
              (v.box.dimension() == 3 ? " at " + v.box.labels[2] + " = " + fixed(sliceValue, 2) : "");
    p.xLabel = v.box.labels[0];
    p.yLabel = v.box.labels[1];
    HeatMap map;
    map.name = d;
    map.nx = v.box.gridPoints[0];
    map.ny = v.box.gridPoints[1];
    map.xMin = v.box.lower(0);
    map.xMax = v.box.upper(0);
    map.yMin = v.box.lower(1);
    map.yMax = v.box.upper(1);
    map.values.assign(std::size_t(map.nx * map.ny), 0);
    const int n3 = v.box.dimension() == 3 ? v.box.gridPoints[2] : 1;
    for (int i0 = 0; i0 < map.nx; ++i0)
        for (int i1 = 0; i1 < map.ny; ++i1)
            map.values[std::size_t(i1 * map.nx + i0)] = s((Eigen::Index(i0) * map.ny + i1) * n3 + slice);
    p.heatMaps.push_back(map);
    if (v.evaluated.rows()) {
        Series ev{"evaluations (" + std::to_string(v.evaluated.rows()) + ")", SeriesKind::Scatter, {}, {}, 4};
        for (Eigen::Index i = 0; i < v.evaluated.rows(); ++i) {
            ev.x.push_back(v.evaluated(i, 0));
            ev.y.push_back(v.evaluated(i, 1));
        }
        p.series.push_back(ev);
    }
    return p;
}

} // namespace

std::vector<double> gridMarginal(const genbayes::ParameterBox& box, const Eigen::VectorXd& weights, int axis)
{
    // Rows in order, as runs of `stride` rows per index of the axis: no division per row.
    const int n = box.gridPoints[std::size_t(axis)];
    Eigen::Index stride = 1;
    for (int j = box.dimension() - 1; j > axis; --j)
        stride *= box.gridPoints[std::size_t(j)];
    std::vector<double> m(std::size_t(n), 0.0);
    for (Eigen::Index row = 0; row < weights.size();)
        for (int i = 0; i < n; ++i)
            for (Eigen::Index s = 0; s < stride && row < weights.size(); ++s)
                m[std::size_t(i)] += weights(row++);
    return m;
}

Figure gbFigure(const GbView& v)
{
    Figure f;
    f.plots.push_back(dataPlot(v));
    if (v.reference.size() == 0) {
        f.warnings.push_back("Computing the reference posterior.");
        return f;
    }
    f.plots.push_back(surfacePlot(v));
    const std::string jsd = v.method.size() ? ", JSD " + fixed(v.jsd) + " to the reference" : "";
    for (int k = 0; k < v.box.dimension(); ++k) {
        Plot p;
        p.title = "Posterior of " + v.box.labels[std::size_t(k)] + jsd;
        p.xLabel = v.box.labels[std::size_t(k)];
        p.yLabel = "density";
        Series ref =
            density(v.box, gridMarginal(v.box, v.reference, k), k, "reference (true g)", kReferenceColour);
        ref.dashed = true;
        p.series.push_back(ref);
        if (v.method.size())
            p.series.push_back(density(v.box, gridMarginal(v.box, v.method, k), k, v.methodLabel, 0));
        f.plots.push_back(p);
    }
    return f;
}

} // namespace evx::scenarios
