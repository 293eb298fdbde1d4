#include "scenarios/uncertain_evidence/sample_plots.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <vector>

namespace evx::scenarios {
namespace {

double weightOf(const Eigen::VectorXd& w, Eigen::Index i)
{
    return w.size() == 0 ? 1.0 : w[i];
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

std::pair<double, double> weightedMoments(const Eigen::VectorXd& v, const Eigen::VectorXd& w)
{
    double s0 = 0, s1 = 0, s2 = 0;
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        const double wi = weightOf(w, i);
        s0 += wi;
        s1 += wi * v[i];
    }
    if (!(s0 > 0))
        return {kNaN, kNaN};
    const double mean = s1 / s0;
    for (Eigen::Index i = 0; i < v.size(); ++i)
        s2 += weightOf(w, i) * (v[i] - mean) * (v[i] - mean);
    return {mean, std::sqrt(s2 / s0)};
}

std::pair<double, double> circularMoments(const Eigen::VectorXd& degrees, const Eigen::VectorXd& w)
{
    constexpr double kRadPerDeg = std::numbers::pi / 180;
    double s0 = 0, c = 0, s = 0;
    for (Eigen::Index i = 0; i < degrees.size(); ++i) {
        const double wi = weightOf(w, i);
        s0 += wi;
        c += wi * std::cos(degrees[i] * kRadPerDeg);
        s += wi * std::sin(degrees[i] * kRadPerDeg);
    }
    if (!(s0 > 0))
        return {kNaN, kNaN};
    double mean = std::atan2(s, c) / kRadPerDeg;
    if (mean < 0)
        mean += 360;
    const double resultant = std::min(1.0, std::hypot(c, s) / s0);
    return {mean, std::sqrt(-2 * std::log(resultant)) / kRadPerDeg};
}

double weightedQuantile(const Eigen::VectorXd& v, const Eigen::VectorXd& w, double p)
{
    if (v.size() == 0)
        return kNaN;
    if (w.size() == 0) { // equal weights: a selection, not a sort
        std::vector<double> copy(v.data(), v.data() + v.size());
        const auto k =
            std::min<std::size_t>(copy.size() - 1, std::size_t(std::ceil(p * double(copy.size()))));
        std::nth_element(copy.begin(), copy.begin() + std::ptrdiff_t(k), copy.end());
        return copy[k];
    }
    std::vector<Eigen::Index> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return v[a] < v[b]; });
    double total = 0;
    for (Eigen::Index i = 0; i < v.size(); ++i)
        total += weightOf(w, i);
    double cumulative = 0;
    for (Eigen::Index k : order) {
        cumulative += weightOf(w, k);
        if (cumulative >= p * total)
            return v[k];
    }
    return v[order.back()];
}

Series histogramSeries(std::string name, const Eigen::VectorXd& values, const Eigen::VectorXd& weights,
                       double lo, double hi, int bins, int colour, bool dashed)
{
    Series s;
    s.name = std::move(name);
    s.kind = SeriesKind::Step;
    s.colour = colour;
    s.dashed = dashed;
    std::vector<double> count(bins, 0.0);
    double total = 0;
    const double width = (hi - lo) / bins;
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        const double wi = weightOf(weights, i);
        total += wi;
        const int b = int(std::floor((values[i] - lo) / width));
        if (b >= 0 && b < bins)
            count[b] += wi;
    }
    // Left edges with a closing point, so the last bin is drawn as wide as the others.
    for (int b = 0; b <= bins; ++b) {
        s.x.push_back(lo + b * width);
        s.y.push_back(total > 0 ? count[std::min(b, bins - 1)] / (total * width) : 0);
    }
    return s;
}

namespace {

// The smoothed 2-D histogram with one empty ring of cells around it (so every region closes),
// indexed (ix, iy). `passes` of a [1 2 1]/4 blur in each direction: a binomial kernel of sd
// √(passes/2) cells. The ring stays empty.
Eigen::MatrixXd smoothedHistogram(const Eigen::VectorXd& x, const Eigen::VectorXd& y,
                                  const Eigen::VectorXd& weights, double xLo, double yLo, double dx,
                                  double dy, int bins, int passes)
{
    const int n = bins + 2;
    Eigen::MatrixXd h = Eigen::MatrixXd::Zero(n, n);
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const int ix = int(std::floor((x[i] - xLo) / dx)), iy = int(std::floor((y[i] - yLo) / dy));
        if (ix >= 0 && ix < bins && iy >= 0 && iy < bins)
            h(ix + 1, iy + 1) += weightOf(weights, i);
    }
    Eigen::MatrixXd g = Eigen::MatrixXd::Zero(n, n);
    for (int pass = 0; pass < passes; ++pass) {
        g.setZero();
        for (int i = 1; i < n - 1; ++i)
            for (int j = 1; j < n - 1; ++j)
                g(i, j) = 0.25 * h(i - 1, j) + 0.5 * h(i, j) + 0.25 * h(i + 1, j);
        h.setZero();
        for (int i = 1; i < n - 1; ++i)
            for (int j = 1; j < n - 1; ++j)
                h(i, j) = 0.25 * g(i, j - 1) + 0.5 * g(i, j) + 0.25 * g(i, j + 1);
    }
    return h;
}

// The density level whose super-level set holds `mass` of the histogram's total.
double hpdLevel(const std::vector<double>& descending, double total, double mass)
{
    double cumulative = 0, level = descending.front();
    for (double v : descending) {
        cumulative += v;
        level = v;
        if (cumulative >= mass * total)
            break;
    }
    return level;
}

// Connected pieces of the cells at or above `level` (above = true) or below it. The cells above
// connect through edges and those below also through corners, so that a loop of cells above
// encloses what is below it, and the two counts describe one picture.
int levelSetPieces(const Eigen::MatrixXd& h, double level, bool above)
{
    auto inSet = [&](Eigen::Index i, Eigen::Index j) { return (h(i, j) >= level) == above; };
    Eigen::MatrixXi seen = Eigen::MatrixXi::Zero(h.rows(), h.cols());
    std::vector<std::pair<Eigen::Index, Eigen::Index>> stack;
    int pieces = 0;
    for (Eigen::Index i = 0; i < h.rows(); ++i)
        for (Eigen::Index j = 0; j < h.cols(); ++j) {
            if (seen(i, j) || !inSet(i, j))
                continue;
            ++pieces;
            stack.assign(1, {i, j});
            seen(i, j) = 1;
            while (!stack.empty()) {
                const auto [a, b] = stack.back();
                stack.pop_back();
                for (int da = -1; da <= 1; ++da)
                    for (int db = -1; db <= 1; ++db) {
                        const Eigen::Index u = a + da, v = b + db;
                        if ((above && da != 0 && db != 0) || u < 0 || v < 0 || u >= h.rows() || v >= h.cols())
                            continue;
                        if (!seen(u, v) && inSet(u, v)) {
                            seen(u, v) = 1;
                            stack.push_back({u, v});
                        }
                    }
            }
        }
    return pieces;
}

// The closed lines that bound the region at or above `level`: one per piece and one per hole
// (the cells below it, less the outside, which the empty ring makes one piece).
int boundaryLoops(const Eigen::MatrixXd& h, double level)
{
    return levelSetPieces(h, level, true) + levelSetPieces(h, level, false) - 1;
}

// Marching squares over the cell centres: each square contributes the segments between the
// points where the level crosses its edges (linear interpolation), NaN between segments.
void traceLevel(const Eigen::MatrixXd& h, double level, double xLo, double yLo, double dx, double dy,
                Series& s)
{
    auto cx = [&](double i) { return xLo + (i - 0.5) * dx; };
    auto cy = [&](double j) { return yLo + (j - 0.5) * dy; };
    for (Eigen::Index i = 0; i + 1 < h.rows(); ++i)
        for (Eigen::Index j = 0; j + 1 < h.cols(); ++j) {
            const double v[4] = {h(i, j), h(i + 1, j), h(i + 1, j + 1), h(i, j + 1)};
            const double px[4] = {double(i), double(i + 1), double(i + 1), double(i)};
            const double py[4] = {double(j), double(j), double(j + 1), double(j + 1)};
            double ex[4], ey[4];
            int found = 0;
            for (int k = 0; k < 4; ++k) {
                const int l = (k + 1) % 4;
                if ((v[k] >= level) != (v[l] >= level)) {
                    const double t = (level - v[k]) / (v[l] - v[k]);
                    ex[found] = px[k] + t * (px[l] - px[k]);
                    ey[found] = py[k] + t * (py[l] - py[k]);
                    ++found;
                }
            }
            for (int k = 0; k + 1 < found; k += 2) {
                s.x.insert(s.x.end(), {cx(ex[k]), cx(ex[k + 1]), kNaN});
                s.y.insert(s.y.end(), {cy(ey[k]), cy(ey[k + 1]), kNaN});
            }
        }
}

} // namespace

HpdRegions hpdRegions(const Eigen::VectorXd& x, const Eigen::VectorXd& y, const Eigen::VectorXd& weights,
                      double xLo, double xHi, double yLo, double yHi, int bins,
                      const std::vector<double>& masses)
{
    HpdRegions out;
    out.boundaries.resize(masses.size());
    if (masses.empty())
        return out;
    const double dx = (xHi - xLo) / bins, dy = (yHi - yLo) / bins;
    const double innermost = *std::min_element(masses.begin(), masses.end());
    // The least smoothing that leaves the innermost region bounded by at most kMaxRegionLoops
    // lines: two passes (sd one cell) take the speckle out of a few thousand draws, and more
    // are needed where the density is nearly flat, as its regions then follow the sampling noise.
    for (int passes : {2, 4, 8, 16}) {
        const Eigen::MatrixXd h = smoothedHistogram(x, y, weights, xLo, yLo, dx, dy, bins, passes);
        const double total = h.sum();
        if (!(total > 0))
            return out;
        std::vector<double> sorted(h.data(), h.data() + h.size());
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        const double innerLevel = hpdLevel(sorted, total, innermost);
        out.resolved = innerLevel > 0 && boundaryLoops(h, innerLevel) <= kMaxRegionLoops;
        if (!out.resolved)
            continue;
        for (std::size_t m = 0; m < masses.size(); ++m) {
            const double level = hpdLevel(sorted, total, masses[m]);
            if (level > 0)
                traceLevel(h, level, xLo, yLo, dx, dy, out.boundaries[m]);
        }
        return out;
    }
    return out;
}

Series contourLevelKey(std::string name, bool thin)
{
    Series s;
    s.name = std::move(name);
    s.kind = SeriesKind::Line;
    s.colour = kReferenceColour;
    s.thin = thin;
    s.x = {kNaN, kNaN};
    s.y = {kNaN, kNaN};
    return s;
}

} // namespace evx::scenarios
