#include "evidence/banded_jeffrey.h"

#include "stats/densities.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

namespace evx::evidence {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();
// Half-width of the first band in s_max: the band then usually needs no widening.
constexpr double kStartSds = 1;
constexpr int kBlock = 8;
// Columns whose weight q̃_j (normalised, Σ q̃ = 1) is below this are skipped: together they
// carry less than n_y·1e-17 of q's mass (4e-14 on ue-drop-ball's longest grid). Its grids span
// the evidence to ±10 sd; with a sharp model the columns beyond about ±8.2 sd, where q̃ falls
// below this, were a sixth of the work.
constexpr double kNegligibleColumn = 1e-17;

} // namespace

std::optional<std::vector<double>> bandedJeffrey(const GaussianNoiseRows& rows, const UniformGrid& xg,
                                                 const UniformGrid& yg, const std::vector<double>& qWeight,
                                                 const RunContext& context)
{
    const int nx = xg.size(), ny = yg.size();
    bool up = true, down = true;
    for (int i = 0; i + 1 < nx; ++i) {
        up = up && rows.mean[i + 1] >= rows.mean[i];
        down = down && rows.mean[i + 1] <= rows.mean[i];
    }
    if (!up && !down)
        return std::nullopt;
    // Work with μ increasing; trapezoid weights are symmetric, so reversing the rows keeps them.
    const bool reversed = !up;
    auto original = [&](int k) { return reversed ? nx - 1 - k : k; };

    Eigen::ArrayXd mu(nx), invSd(nx), peak(nx);
    double sMax = 0;
    for (int k = 0; k < nx; ++k) {
        const int i = original(k);
        mu[k] = rows.mean[i];
        invSd[k] = 1 / rows.sd[i];
        peak[k] = rows.logPrior[i] - std::log(rows.sd[i]) - stats::kHalfLog2Pi; // ln p(x_k) p(μ_k | x_k)
        sMax = std::max(sMax, rows.sd[i]);
    }
    // Largest row peak at or before k, and at or after k: the bound on rows beyond a band edge.
    std::vector<double> peakBefore(nx), peakAfter(nx);
    for (int k = 0; k < nx; ++k)
        peakBefore[k] = std::max(peak[k], k ? peakBefore[k - 1] : kNegInf);
    for (int k = nx - 1; k >= 0; --k)
        peakAfter[k] = std::max(peak[k], k + 1 < nx ? peakAfter[k + 1] : kNegInf);

    // Blocks of rows with their largest peak and their range of μ: a block whose bound stays
    // kBandDepth below the column's top is skipped whole.
    const int nBlocks = (nx + kBlock - 1) / kBlock;
    std::vector<double> blockPeak(nBlocks, kNegInf);
    for (int k = 0; k < nx; ++k)
        blockPeak[k / kBlock] = std::max(blockPeak[k / kBlock], peak[k]);
    auto blockFrom = [&](int blk) { return blk * kBlock; };
    auto blockTo = [&](int blk) { return std::min(nx, (blk + 1) * kBlock); };

    const double dx = xg.step();
    Eigen::ArrayXd joint(nx), sum = Eigen::ArrayXd::Zero(nx);
    std::vector<std::pair<int, int>> segments;
    std::vector<int> left;
    const double* muBegin = mu.data();
    for (int j = 0; j < ny; ++j) {
        if ((j & 63) == 0)
            context.checkCancelled();
        if (!(qWeight[j] >= kNegligibleColumn))
            continue;
        const double y = yg.at(j);
        double top = kNegInf;
        auto fill = [&](int from, int to) {
            const int n = to - from;
            if (n <= 0)
                return;
            joint.segment(from, n) =
                peak.segment(from, n) - 0.5 * ((y - mu.segment(from, n)) * invSd.segment(from, n)).square();
            top = std::max(top, joint.segment(from, n).maxCoeff());
        };
        auto add = [&](int from, int to) { // keeps the segments sorted and merged
            if (!segments.empty() && segments.back().second == from)
                segments.back().second = to;
            else
                segments.emplace_back(from, to);
        };
        // The blocks holding the rows with μ within kStartSds·s_max of y (or the two around y).
        const int a = int(std::lower_bound(muBegin, muBegin + nx, y - kStartSds * sMax) - muBegin);
        const int b = int(std::upper_bound(muBegin, muBegin + nx, y + kStartSds * sMax) - muBegin);
        const int first = std::max(a - 1, 0) / kBlock, last = std::min(b, nx - 1) / kBlock;
        fill(blockFrom(first), blockTo(last));
        // Walking away from y, |y − μ| only grows, so "everything beyond this block" is bounded by
        // the largest peak beyond it at this block's distance; once that bound is low, stop. The
        // top used here can only be below the column's final one, which keeps more blocks, never fewer.
        const double floor = top - kBandDepth;
        segments.clear();
        left.clear();
        for (int blk = first - 1; blk >= 0; --blk) {
            const double d = std::max(0.0, y - mu[blockTo(blk) - 1]) / sMax;
            if (peakBefore[blockTo(blk) - 1] - 0.5 * d * d < floor)
                break;
            if (blockPeak[blk] - 0.5 * d * d >= floor)
                left.push_back(blk);
        }
        for (auto it = left.rbegin(); it != left.rend(); ++it)
            add(blockFrom(*it), blockTo(*it));
        add(blockFrom(first), blockTo(last));
        for (int blk = last + 1; blk < nBlocks; ++blk) {
            const double d = std::max(0.0, mu[blockFrom(blk)] - y) / sMax;
            if (peakAfter[blockFrom(blk)] - 0.5 * d * d < floor)
                break;
            if (blockPeak[blk] - 0.5 * d * d >= floor)
                add(blockFrom(blk), blockTo(blk));
        }
        for (const auto& [from, to] : segments) {
            fill(from, std::min(to, blockFrom(first)));
            fill(std::max(from, blockTo(last)), to);
        }
        if (!std::isfinite(top)) // this y is impossible under every x on the grid
            continue;
        double norm = 0;
        for (const auto& [from, to] : segments) {
            auto e = joint.segment(from, to - from);
            e = (e - top).exp();
            norm += e.sum();
            if (from == 0)
                norm -= 0.5 * e[0];
            if (to == nx)
                norm -= 0.5 * e[to - from - 1];
        }
        const double scale = qWeight[j] / (norm * dx); // q̃_j p(x | y_j) on the filled rows
        for (const auto& [from, to] : segments)
            sum.segment(from, to - from) += scale * joint.segment(from, to - from);
    }

    std::vector<double> out(nx);
    for (int k = 0; k < nx; ++k)
        out[original(k)] = sum[k] > 0 ? std::log(sum[k]) : kNegInf;
    return out;
}

} // namespace evx::evidence
