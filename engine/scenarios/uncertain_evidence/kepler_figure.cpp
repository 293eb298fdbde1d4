#include "scenarios/uncertain_evidence/kepler_figure.h"

#include "scenarios/uncertain_evidence/evidence_figure.h"
#include "scenarios/uncertain_evidence/sample_plots.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace evx::scenarios {
namespace {

constexpr double kMinutesPerDay = 1440;
constexpr int kDims = 4;
constexpr int kBins = 40;
constexpr int kContourBins = 32;
constexpr Reading kOrder[3] = {Reading::Jeffrey, Reading::Virtual, Reading::Distributional};

struct Dimension {
    const char* key;      // summary key
    const char* label;    // axis label
    const char* name;     // in titles
    const char* axisName; // in warnings
    bool angle;
};
constexpr Dimension kDim[kDims] = {{"P", "P − P_true (min)", "the period P", "P", false},
                                   {"e", "eccentricity e", "the eccentricity e", "e", false},
                                   {"omega", "ω (deg)", "the argument of periapsis ω", "ω", true},
                                   {"omega_plus_m", "ω + M (deg)", "the phase ω + M", "ω + M", true}};

// Column k of the draws as displayed (P as minutes from the true period).
Eigen::VectorXd shown(const Eigen::MatrixXd& draws, int k, double truePeriod)
{
    Eigen::VectorXd v = draws.col(k);
    if (k == 0)
        v = (v.array() - truePeriod) * kMinutesPerDay;
    return v;
}

struct Ranges {
    double lo[kDims], hi[kDims];
};

// The displayed columns of every reading, made once: the figure reads each of them a dozen times,
// and Jeffrey's rule holds n_e·walkers·jr_steps draws (3.8e5 at the defaults), so copying them per
// use dominated a partial figure's cost.
using Columns = std::array<std::array<Eigen::VectorXd, kDims>, 3>;

// weightedQuantile's p_lo and p_hi quantiles with equal weights (the k-th smallest value with
// k = min(n − 1, ⌈p n⌉)), both from one copy: after selecting k_lo everything beyond it is larger,
// so k_hi is selected in that part alone.
std::pair<double, double> quantiles(const Eigen::VectorXd& v, double pLo, double pHi)
{
    std::vector<double> copy(v.data(), v.data() + v.size());
    auto rank = [&](double p) {
        return std::min<std::size_t>(copy.size() - 1, std::size_t(std::ceil(p * double(copy.size()))));
    };
    const std::size_t kLo = rank(pLo), kHi = rank(pHi);
    std::nth_element(copy.begin(), copy.begin() + std::ptrdiff_t(kLo), copy.end());
    const double lo = copy[kLo];
    if (kHi > kLo)
        std::nth_element(copy.begin() + std::ptrdiff_t(kLo) + 1, copy.begin() + std::ptrdiff_t(kHi),
                         copy.end());
    return {lo, copy[kHi]};
}

// Shared by a column's plots: the 0.5 % to 99.5 % quantiles over every reading present,
// padded, clipped to the prior's support.
Ranges displayRanges(const Eigen::MatrixXd* readings[3], const Columns& columns)
{
    Ranges r;
    for (int k = 0; k < kDims; ++k) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < 3; ++i) {
            if (readings[i]->rows() == 0)
                continue;
            const auto [qLo, qHi] = quantiles(columns[i][k], 0.005, 0.995);
            lo = std::min(lo, qLo);
            hi = std::max(hi, qHi);
        }
        if (!std::isfinite(lo) || !(hi > lo)) {
            lo = k == 0 ? -10 : 0;
            hi = k == 0 ? 10 : (k == 1 ? 0.15 : 360);
        }
        const double pad = 0.08 * (hi - lo);
        r.lo[k] = lo - pad;
        r.hi[k] = hi + pad;
    }
    r.lo[1] = std::max(r.lo[1], 0.0);
    r.hi[1] = std::min(r.hi[1], 0.15);
    for (int k : {2, 3}) {
        r.lo[k] = std::max(r.lo[k], 0.0);
        r.hi[k] = std::min(r.hi[k], 360.0);
    }
    return r;
}

// The flat prior of e on [0, e_max] or of ω on [0°, 360°), drawn as a box so the axis
// starts at 0 and a flat posterior reads as flat, not as magnified noise.
Series flatPrior(double right)
{
    Series prior;
    prior.name = "Prior";
    prior.colour = kReferenceColour;
    prior.dashed = true;
    prior.x = {0};
    prior.y = {0};
    for (int i = 0; i <= 20; ++i) {
        prior.x.push_back(right * i / 20);
        prior.y.push_back(1 / right);
    }
    prior.x.push_back(right);
    prior.y.push_back(0);
    return prior;
}

// The true orbit as a thin crosshair across a pair plot (a line series, so it reads at any zoom).
Series crosshair(double x, double y, const Ranges& r, int a, int b)
{
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    constexpr int kPoints = 21;
    Series t;
    t.name = "True orbit";
    t.colour = 5; // reddish purple: apart from the readings and from the black prior
    t.dashed = true;
    for (int i = 0; i < kPoints; ++i) {
        t.x.push_back(r.lo[a] + (r.hi[a] - r.lo[a]) * i / (kPoints - 1));
        t.y.push_back(y);
    }
    t.x.push_back(kNaN);
    t.y.push_back(kNaN);
    for (int i = 0; i < kPoints; ++i) {
        t.x.push_back(x);
        t.y.push_back(r.lo[b] + (r.hi[b] - r.lo[b]) * i / (kPoints - 1));
    }
    return t;
}

// Corner-plot cells: dimension k's density at (k, k); the pair (a, b), a < b, at row b,
// column a. Axis labels on the outer edge only, as in a printed corner plot; one legend in
// the empty top-right cell.
Plot cornerCell(int row, int column)
{
    Plot p;
    p.row = row;
    p.column = column;
    p.legend = LegendPlace::Shared;
    p.showTitle = false;
    if (row == kDims - 1)
        p.xLabel = kDim[column].label;
    if (column == 0)
        p.yLabel = row == 0 ? "density (1/min)" : kDim[row].label;
    return p;
}

} // namespace

Figure keplerCornerFigure(const Eigen::MatrixXd* readings[3], const KeplerTruth& truth)
{
    const Eigen::VectorXd equal;
    Columns columns;
    for (int i = 0; i < 3; ++i)
        if (readings[i]->rows() > 0)
            for (int k = 0; k < kDims; ++k)
                columns[i][k] = shown(*readings[i], k, truth.period);
    const Ranges r = displayRanges(readings, columns);
    const double truthShown[kDims] = {0, truth.e, truth.omega, truth.lambda};

    Figure figure;
    for (int k = 0; k < kDims; ++k) {
        Plot p = cornerCell(k, k);
        p.title = std::string("Posterior of ") + kDim[k].name;
        for (int i = 0; i < 3; ++i) {
            if (readings[i]->rows() == 0)
                continue;
            const ReadingStyle st = readingStyle(kOrder[i]);
            p.series.push_back(histogramSeries(st.legend, columns[i][k], equal, r.lo[k], r.hi[k], kBins,
                                               st.colour, st.dashed));
        }
        if (k == 1 || k == 2)
            p.series.push_back(flatPrior(k == 1 ? 0.15 : 360.0));
        p.markers.push_back({"true value", truthShown[k]});
        figure.plots.push_back(std::move(p));
    }
    for (int a = 0; a < kDims; ++a) {
        for (int b = a + 1; b < kDims; ++b) {
            Plot p = cornerCell(b, a);
            p.title = std::string(kDim[b].axisName) + " against " + kDim[a].axisName +
                      ": 68\u00a0% (thick) and 95\u00a0% (thin) regions";
            // One series per level, the outer one thin, and a legend key for each line width: the
            // corner's cells carry no titles, so the legend is where the levels are named.
            std::vector<std::string> flat; // readings whose regions would only trace noise
            for (int i = 0; i < 3; ++i) {
                if (readings[i]->rows() == 0)
                    continue;
                const ReadingStyle st = readingStyle(kOrder[i]);
                HpdRegions regions = hpdRegions(columns[i][a], columns[i][b], equal, r.lo[a], r.hi[a],
                                                r.lo[b], r.hi[b], kContourBins, {0.68, 0.95});
                // An unresolved reading keeps its (empty) series, so every cell has the same
                // series in the same places, and the figure says why nothing is drawn.
                if (!regions.resolved)
                    flat.push_back(st.legend);
                for (std::size_t m = 0; m < 2; ++m) {
                    Series& line = regions.boundaries[m];
                    line.name = st.legend;
                    line.kind = SeriesKind::Line;
                    line.colour = st.colour;
                    line.dashed = st.dashed;
                    line.thin = m == 1;
                    p.series.push_back(std::move(line));
                }
            }
            if (!flat.empty()) {
                std::string who = flat.front();
                for (std::size_t k = 1; k < flat.size(); ++k)
                    who += (k + 1 == flat.size() ? " and " : ", ") + flat[k];
                figure.warnings.push_back(
                    std::string(kDim[b].axisName) + " against " + kDim[a].axisName + ": the 68 % region of " +
                    who +
                    " breaks into more than three pieces or holes however it is smoothed, as a nearly flat "
                    "density's does, so it would trace sampling noise; no region is drawn.");
            }
            p.series.push_back(contourLevelKey("68 % region", false));
            p.series.push_back(contourLevelKey("95 % region", true));
            p.series.push_back(crosshair(truthShown[a], truthShown[b], r, a, b));
            figure.plots.push_back(std::move(p));
        }
    }
    for (int i = 0; i < 3; ++i) {
        if (readings[i]->rows() == 0)
            continue;
        const std::string key = readingStyle(kOrder[i]).summaryKey;
        for (int k = 0; k < kDims; ++k) {
            const Eigen::VectorXd v = readings[i]->col(k);
            const auto [mean, sd] = kDim[k].angle ? circularMoments(v, equal) : weightedMoments(v, equal);
            figure.summary.set(key + "." + kDim[k].key + ".mean", mean);
            figure.summary.set(key + "." + kDim[k].key + ".sd", sd);
        }
    }
    return figure;
}

} // namespace evx::scenarios
