#include "scenarios/wvo/wvo_figure.h"

#include "scenarios/uncertain_evidence/sample_plots.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace evx::scenarios::wvo_figure {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

Series densityCurve(int style, std::vector<double> x, std::vector<double> y, const std::string& suffix)
{
    Series s;
    s.kind = SeriesKind::Line;
    s.x = std::move(x);
    s.y = std::move(y);
    switch (style) {
    case 0:
        s.name = kOriginalName;
        s.colour = kOriginalColour;
        s.emphasis = 1;
        break; // bold: visible under a coinciding reconstruction
    case 1:
        s.name = kUnweightedName;
        s.colour = kUnweightedColour;
        s.dashed = true;
        break;
    default:
        s.name = kWeightedName;
        s.colour = kWeightedColour;
        break;
    }
    s.name += suffix;
    return s;
}

Plot weightsPlot(const Eigen::VectorXd& weights, const std::string& title, const std::string& xLabel)
{
    Plot p;
    p.title = title;
    p.xLabel = xLabel;
    p.yLabel = "weight w_i";
    p.xInteger = true; // observation i
    Series s;
    s.name = "weights w";
    s.colour = kWeightedColour;
    const auto k = weights.size();
    if (k > 10) {
        s.kind = SeriesKind::Bar;
        for (Eigen::Index i = 0; i < k; ++i) {
            s.x.push_back(static_cast<double>(i + 1));
            s.y.push_back(weights(i));
        }
    } else {
        s.kind = SeriesKind::Line;
        for (Eigen::Index i = 0; i < k; ++i) {
            const double c = static_cast<double>(i + 1), h = 0.35;
            for (auto [x, y] : {std::pair{c - h, 0.0},
                                {c - h, weights(i)},
                                {c + h, weights(i)},
                                {c + h, 0.0},
                                {c - h, 0.0},
                                {kNaN, kNaN}}) {
                s.x.push_back(x);
                s.y.push_back(y);
            }
        }
    }
    p.series.push_back(std::move(s));
    Series uniform;
    uniform.name = "uniform weight N/K";
    uniform.colour = kReferenceColour;
    uniform.dashed = true;
    const double level = weights.sum() / static_cast<double>(k);
    for (int i = 0; i <= 20; ++i) {
        uniform.x.push_back(0.5 + static_cast<double>(k) * i / 20.0);
        uniform.y.push_back(level);
    }
    p.series.push_back(std::move(uniform));
    return p;
}

Series contourSeries(const wvo::GridPosterior& post, const std::vector<double>& masses, int style)
{
    Series s = densityCurve(style, {}, {});
    const int nx = post.xAxis().n, ny = post.yAxis().n;
    const std::vector<double>& m = post.mass();
    std::vector<double> sorted(m);
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    for (double target : masses) {
        // The highest-density level whose region holds `target` of the mass.
        double cum = 0, level = sorted.back();
        for (double v : sorted) {
            cum += v;
            if (cum >= target) {
                level = v;
                break;
            }
        }
        auto at = [&](int ix, int iy) { return m[iy * nx + ix]; };
        auto px = [&](int ix) { return post.xAxis().centre(ix); };
        auto py = [&](int iy) { return post.yAxis().centre(iy); };
        // Marching squares: for each square of four centres, the crossing points on its
        // edges joined in pairs (saddles are resolved arbitrarily; harmless at this scale).
        for (int iy = 0; iy + 1 < ny; ++iy)
            for (int ix = 0; ix + 1 < nx; ++ix) {
                const double v[4] = {at(ix, iy), at(ix + 1, iy), at(ix + 1, iy + 1), at(ix, iy + 1)};
                const double cx[4] = {px(ix), px(ix + 1), px(ix + 1), px(ix)};
                const double cy[4] = {py(iy), py(iy), py(iy + 1), py(iy + 1)};
                std::vector<std::pair<double, double>> pts;
                for (int e = 0; e < 4; ++e) {
                    const int a = e, b = (e + 1) % 4;
                    if ((v[a] >= level) != (v[b] >= level)) {
                        const double t = (level - v[a]) / (v[b] - v[a]);
                        pts.emplace_back(cx[a] + t * (cx[b] - cx[a]), cy[a] + t * (cy[b] - cy[a]));
                    }
                }
                for (std::size_t k = 0; k + 1 < pts.size(); k += 2) {
                    s.x.insert(s.x.end(), {pts[k].first, pts[k + 1].first, kNaN});
                    s.y.insert(s.y.end(), {pts[k].second, pts[k + 1].second, kNaN});
                }
            }
    }
    return s;
}

void addContours(Plot& plot, const wvo::GridPosterior& posterior, int style)
{
    plot.series.push_back(contourSeries(posterior, {0.5}, style));
    plot.series.push_back(contourSeries(posterior, {0.9}, style));
    plot.series.back().thin = true;
}

void addContourKeys(Plot& plot)
{
    plot.series.push_back(contourLevelKey("50 % region", false));
    plot.series.push_back(contourLevelKey("90 % region", true));
}

Series boxSeries(const std::string& name, int colour, const std::vector<double>& positions,
                 const std::vector<wvo::Quantiles>& quantiles, double halfWidth)
{
    Series s;
    s.name = name;
    s.colour = colour;
    s.kind = SeriesKind::Line;
    auto seg = [&](std::initializer_list<std::pair<double, double>> pts) {
        for (auto [x, y] : pts) {
            s.x.push_back(x);
            s.y.push_back(y);
        }
        s.x.push_back(kNaN);
        s.y.push_back(kNaN);
    };
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const double c = positions[i], h = halfWidth;
        const wvo::Quantiles& q = quantiles[i];
        seg({{c - h, q.q25}, {c + h, q.q25}, {c + h, q.q75}, {c - h, q.q75}, {c - h, q.q25}});
        seg({{c - h, q.q50}, {c + h, q.q50}});
        seg({{c, q.q75}, {c, q.q95}});
        seg({{c, q.q25}, {c, q.q05}});
        seg({{c - h / 2, q.q95}, {c + h / 2, q.q95}});
        seg({{c - h / 2, q.q05}, {c + h / 2, q.q05}});
    }
    return s;
}

void addWvoSummary(Summary& summary, double nOriginal, double nVirtual, double klReconstruction,
                   double klUnweighted, double weightsSum)
{
    summary.set("n.original", nOriginal);
    summary.set("n.virtual", nVirtual);
    summary.set("kl.reconstruction", klReconstruction);
    summary.set("kl.unweighted", klUnweighted);
    summary.set("weights.sum", weightsSum);
}

} // namespace evx::scenarios::wvo_figure
