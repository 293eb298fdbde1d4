#include "bq/band_diagnostics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace evx::bq {
namespace {

std::string format(const char* pattern, double a, double b = 0)
{
    char buf[400];
    std::snprintf(buf, sizeof buf, pattern, a, b);
    return buf;
}

} // namespace

std::optional<std::string> massBeyondSamplesWarning(const std::vector<double>& x,
                                                    const std::vector<double>& logL, const GaussianMeasure& p)
{
    if (x.size() < 3)
        return std::nullopt;
    size_t best = 0;
    auto logWeight = [&](size_t i) { return logL[i] - 0.5 * std::pow(x[i] - p.mean[0], 2) / p.variance[0]; };
    for (size_t i = 1; i < x.size(); ++i)
        if (logWeight(i) > logWeight(best))
            best = i;
    const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    if (x[best] != *lo && x[best] != *hi)
        return std::nullopt;
    return format("ℓ·p is largest at the outermost sample (x = %.3g): its mass may lie beyond the samples, "
                  "and the band cannot see it",
                  x[best]);
}

std::optional<std::string> lengthscaleBoundWarning(double lowerShare, double upperShare, double lengthscale)
{
    if (lowerShare <= kBoundShareLimit && upperShare <= kBoundShareLimit)
        return std::nullopt;
    return format(lowerShare > kBoundShareLimit
                      ? "the lengthscale sits at the lower bound of its range (%.3g): the samples do not "
                        "decide how smooth ℓ is, and the band depends on that bound"
                      : "the lengthscale sits at the upper bound of its range (%.3g): the samples do not "
                        "decide how smooth ℓ is, and the band depends on that bound",
                  lengthscale);
}

std::optional<std::string> linearisationWarning(double exactSd, double linearisedSd)
{
    const double ratio = exactSd / linearisedSd;
    // exactSd = 0: not resolved above rounding, nothing to compare.
    if (!(exactSd > 0) || (ratio <= kLinearisationRatioLimit && ratio >= 1 / kLinearisationRatioLimit))
        return std::nullopt;
    return format(
        "the log-GP linearisation (Sec. 1.2.2) is far from the model's exact moments: the log-normal "
        "sd of Z is %.3g times the linearised one, so the band rests on an approximation",
        ratio);
}

} // namespace evx::bq
