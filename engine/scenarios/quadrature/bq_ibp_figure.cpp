#include "scenarios/quadrature/bq_ibp_figure.h"

#include "bq/structured/ibp_gibbs.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace evx::scenarios::ibpbq {
namespace {

using namespace bq::structured;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kLn10 = 2.302585092994046;
// The lower edge of a band whose mean − 2 sd is not positive is drawn this many decades down.
constexpr double kBandFloorDecades = 3;

// log10 of mean, mean − 2 sd (floored) and mean + 2 sd; NaN where the mean is not positive.
std::array<double, 3> log10Band(const StructuredEstimate& e)
{
    if (e.negative())
        return {kNaN, kNaN, kNaN};
    const double m = std::log10(e.mean), lo = e.mean - 2 * e.sd(), s = e.logScale / kLn10;
    return {s + m, s + (lo > 0 ? std::max(std::log10(lo), m - kBandFloorDecades) : m - kBandFloorDecades),
            s + std::log10(e.mean + 2 * e.sd())};
}

// Image mosaics: tiles side by side, so the axes count pixels across the tiles.
void labelPixels(Plot& p)
{
    p.xLabel = "pixel column (tiles side by side)";
    p.yLabel = "pixel row";
}

// Rows of `images` (each D = 36 values) as 6 × 6 tiles, `perRow` to a row, one NaN pixel between.
// D ≠ 36: the matrix as it is, one row per image.
HeatMap mosaic(const std::string& name, const Eigen::MatrixXd& images, int perRow)
{
    HeatMap h;
    h.name = name;
    const int count = int(images.rows());
    if (images.cols() != kIbpToyD) {
        h.nx = int(images.cols());
        h.ny = count;
        h.xMax = h.nx;
        h.yMax = h.ny;
        for (int iy = 0; iy < h.ny; ++iy)
            for (int ix = 0; ix < h.nx; ++ix)
                h.values.push_back(images(h.ny - 1 - iy, ix));
        return h;
    }
    const int side = kIbpImageSide, cols = std::min(perRow, std::max(count, 1));
    const int rows = (count + cols - 1) / cols;
    h.nx = cols * (side + 1) - 1;
    h.ny = std::max(rows, 1) * (side + 1) - 1;
    h.xMax = h.nx;
    h.yMax = h.ny;
    h.values.assign(size_t(h.nx * h.ny), kNaN);
    for (int t = 0; t < count; ++t)
        for (int r = 0; r < side; ++r)
            for (int c = 0; c < side; ++c) {
                const int ix = (t % cols) * (side + 1) + c, iyTop = (t / cols) * (side + 1) + r;
                h.values[size_t((h.ny - 1 - iyTop) * h.nx + ix)] = images(t, r * side + c);
            }
    return h;
}

Series named(const char* name)
{
    Series s;
    s.name = name;
    return s;
}

// E[A | X, Z] = (ZᵀZ + (σ_X²/σ_A²) I)⁻¹ ZᵀX: the features a Z implies.
Eigen::MatrixXd featureMeans(const Eigen::MatrixXd& x, const FeatureMatrix& z, double sx, double sa)
{
    if (z.cols() == 0)
        return Eigen::MatrixXd(0, x.cols());
    Eigen::MatrixXd g = z.transpose() * z;
    g.diagonal().array() += sx * sx / (sa * sa);
    return g.ldlt().solve(z.transpose() * x);
}

} // namespace

double gridSigma(int i, int n, double lo, double hi)
{
    return lo * std::pow(hi / lo, double(i) / (n - 1));
}

Eigen::VectorXd logF(const std::vector<IbpGramLikelihood>& l, double sx, double sa, std::size_t n)
{
    Eigen::VectorXd f(static_cast<Eigen::Index>(n));
    for (std::size_t i = 0; i < n; ++i)
        f[Eigen::Index(i)] = l[i].logLikelihood(sx, sa);
    return f;
}

void fillGrids(SampleState& state, const Eigen::MatrixXd& x, double alpha, std::uint64_t seed,
               const RunContext& context)
{
    const size_t s = state.samples.size();
    double best = -INFINITY;
    for (int iy = 0; iy < kGridSide; ++iy) {
        context.checkCancelled();
        for (int ix = 0; ix < kGridSide; ++ix) {
            const double sx = gridSigma(ix, kGridSide, kSigmaMin, kSigmaXMax);
            const double sa = gridSigma(iy, kGridSide, kSigmaMin, kSigmaAMax);
            const StructuredEstimate e = state.bq->estimate(logF(state.likelihoods, sx, sa, s));
            const double v = e.negative() ? kNaN : e.logMean() / kLn10;
            state.negativePoints += e.negative();
            if (v > best) {
                best = v;
                state.argmaxSigmaX = sx;
                state.argmaxSigmaA = sa;
            }
            state.surface.push_back(v);
        }
    }
    if (!std::isfinite(best)) { // every point negative: the argmax of nothing, say the centre
        state.argmaxSigmaX = gridSigma(kGridSide / 2, kGridSide, kSigmaMin, kSigmaXMax);
        state.argmaxSigmaA = gridSigma(kGridSide / 2, kGridSide, kSigmaMin, kSigmaAMax);
    }
    for (int i = 0; i < kSlicePoints; ++i) {
        context.checkCancelled();
        const double sx = gridSigma(i, kSlicePoints, kSigmaMin, kSigmaXMax);
        const StructuredEstimate e = state.bq->estimate(logF(state.likelihoods, sx, kSliceSigmaA, s));
        const auto band = log10Band(e);
        state.sliceMean.push_back(band[0]);
        state.sliceLower.push_back(band[1]);
        state.sliceUpper.push_back(band[2]);
        const Eigen::VectorXd f =
            logF(state.priorLikelihoods, sx, kSliceSigmaA, state.priorLikelihoods.size());
        const double top = f.maxCoeff();
        state.sliceMc.push_back((top + std::log((f.array() - top).exp().mean())) / kLn10);
        const double bound =
            ibpChainLowerBound(x, sx, kSliceSigmaA, alpha, kChainSweeps, seed + 1000 + std::uint64_t(i))
                .logLowerBound /
            kLn10;
        state.sliceBound.push_back(bound);
        state.sliceAlarms += !(bound <= band[2]); // NaN band (mean ≤ 0) counts as an alarm
    }
}

Figure samplingFigure(const Eigen::MatrixXd& x, const Eigen::MatrixXd&,
                      const std::vector<FeatureMatrix>& samples, int done)
{
    Figure f;
    Plot data;
    data.title = "Data: the images X (sampling " + std::to_string(done) + " evaluations…)";
    labelPixels(data);
    data.heatMaps.push_back(mosaic("X", x, 5));
    f.plots.push_back(std::move(data));
    if (!samples.empty() && samples.back().cols() > 0) {
        Plot feat;
        feat.title = "Features of the latest sample, E[A | X, Z]";
        labelPixels(feat);
        feat.heatMaps.push_back(mosaic("features", featureMeans(x, samples.back(), 0.5, 1.0), 8));
        f.plots.push_back(std::move(feat));
    }
    return f;
}

void addPlots(Figure& figure, const Eigen::MatrixXd& x, const Eigen::MatrixXd& zTrue,
              const SampleState& state, const ExactState* exact, const Current& cur, bool paperKernel)
{
    Plot data;
    data.title = "Data: the images X (rows of 6 × 6 pixels)";
    labelPixels(data);
    data.heatMaps.push_back(mosaic("X", x, 5));
    figure.plots.push_back(std::move(data));

    // Features: Z_true's and those of the sample with the largest P([Z]) p(X | Z) here.
    Plot feat;
    feat.title = "Features E[A | X, Z]: Z_true (top) and the best sample (bottom)";
    labelPixels(feat);
    size_t bestIdx = 0;
    double bestScore = -INFINITY;
    for (size_t i = 0; i < state.samples.size(); ++i) {
        const double sc = state.likelihoods[i].logLikelihood(cur.sigmaX, cur.sigmaA) +
                          ibpLogPrior(state.samples[i], cur.alpha);
        if (sc > bestScore)
            bestScore = sc, bestIdx = i;
    }
    const Eigen::MatrixXd trueF = featureMeans(x, zTrue, cur.sigmaX, cur.sigmaA);
    const Eigen::MatrixXd bestF = featureMeans(x, state.samples[bestIdx], cur.sigmaX, cur.sigmaA);
    const int width = int(std::max<Eigen::Index>({trueF.rows(), bestF.rows(), 1}));
    Eigen::MatrixXd both = Eigen::MatrixXd::Constant(2 * width, x.cols(), kNaN);
    both.topRows(trueF.rows()) = trueF;
    both.middleRows(width, bestF.rows()) = bestF;
    feat.heatMaps.push_back(mosaic("features", both, width));
    figure.plots.push_back(std::move(feat));

    auto surfacePlot = [&](const std::string& title, const std::vector<double>& values) {
        Plot p;
        p.title = title;
        p.xLabel = "log10 σ_X";
        p.yLabel = "log10 σ_A";
        HeatMap h;
        h.name = "log10 p(X)";
        h.nx = h.ny = kGridSide;
        h.xMin = std::log10(kSigmaMin);
        h.xMax = std::log10(kSigmaXMax);
        h.yMin = std::log10(kSigmaMin);
        h.yMax = std::log10(kSigmaAMax);
        h.values = values;
        p.heatMaps.push_back(std::move(h));
        Series here;
        here.name = "current (σ_X, σ_A)";
        here.kind = SeriesKind::Scatter;
        here.x = {std::log10(cur.sigmaX)};
        here.y = {std::log10(cur.sigmaA)};
        here.colour = 4;
        p.series.push_back(std::move(here));
        return p;
    };
    Plot surface =
        surfacePlot(std::string("BQ evidence surface from one sample set") +
                        (paperKernel ? " (paper's kernel: not to be trusted)" : "") + "; gaps: BQ mean ≤ 0",
                    state.surface);
    Series neg;
    neg.name = "BQ mean ≤ 0";
    neg.kind = SeriesKind::Scatter;
    neg.colour = 5;
    for (int iy = 0; iy < kGridSide; ++iy)
        for (int ix = 0; ix < kGridSide; ++ix)
            if (std::isnan(state.surface[size_t(iy * kGridSide + ix)])) {
                neg.x.push_back(std::log10(gridSigma(ix, kGridSide, kSigmaMin, kSigmaXMax)));
                neg.y.push_back(std::log10(gridSigma(iy, kGridSide, kSigmaMin, kSigmaAMax)));
            }
    if (!neg.x.empty())
        surface.series.push_back(std::move(neg));
    figure.plots.push_back(std::move(surface));
    if (exact)
        figure.plots.push_back(surfacePlot("Exact evidence surface (enumeration)", exact->surface));

    Plot slice;
    slice.title = "Slice at σ_A = 0.4: BQ ± 2 sd, Monte Carlo, exact, and short-chain lower bounds";
    slice.xLabel = "σ_X";
    slice.yLabel = "log10 p(X)";
    Band band;
    band.name = "±2 sd";
    band.colour = 1;
    Series mean = named("BQ mean"), mc = named("Monte Carlo (2000 prior draws)"),
           bound = named("chain lower bound"), alarm = named("lower bound above the band"),
           ex = named("exact");
    mean.colour = 3;
    mc.colour = 2;
    mc.dashed = true;
    bound.kind = alarm.kind = SeriesKind::Scatter;
    bound.colour = 0;
    alarm.colour = 4;
    ex.colour = kReferenceColour;
    ex.dashed = true;
    for (int i = 0; i < kSlicePoints; ++i) {
        const double sx = gridSigma(i, kSlicePoints, kSigmaMin, kSigmaXMax);
        band.x.push_back(sx);
        band.lower.push_back(state.sliceLower[size_t(i)]);
        band.upper.push_back(state.sliceUpper[size_t(i)]);
        mean.x.push_back(sx);
        mean.y.push_back(state.sliceMean[size_t(i)]);
        mc.x.push_back(sx);
        mc.y.push_back(state.sliceMc[size_t(i)]);
        bound.x.push_back(sx);
        bound.y.push_back(state.sliceBound[size_t(i)]);
        if (!(state.sliceBound[size_t(i)] <= state.sliceUpper[size_t(i)])) {
            alarm.x.push_back(sx);
            alarm.y.push_back(state.sliceBound[size_t(i)]);
        }
        if (exact) {
            ex.x.push_back(sx);
            ex.y.push_back(exact->slice[size_t(i)]);
        }
    }
    slice.bands.push_back(std::move(band));
    slice.series.push_back(std::move(mean));
    slice.series.push_back(std::move(mc));
    if (exact)
        slice.series.push_back(std::move(ex));
    slice.series.push_back(std::move(bound));
    if (!alarm.x.empty())
        slice.series.push_back(std::move(alarm));
    slice.markers.push_back({"current σ_X", cur.sigmaX});
    figure.plots.push_back(std::move(slice));

    Plot conv;
    conv.title = "Evidence at the current (σ_X, σ_A) against the number of evaluations";
    conv.xLabel = "evaluations n";
    conv.yLabel = "log10 p(X)";
    conv.xInteger = true;
    Band cb;
    cb.name = "±2 sd";
    cb.colour = 1;
    Series cm = named("BQ mean"), ce = named("exact"), cmc = named("Monte Carlo (2000 prior draws)");
    cm.colour = 3;
    ce.colour = kReferenceColour;
    ce.dashed = true;
    cmc.colour = 2;
    cmc.dashed = true;
    for (size_t i = 0; i < cur.prefixN.size(); ++i) {
        const auto b = log10Band(cur.prefix[i]);
        const double n = cur.prefixN[i];
        cb.x.push_back(n);
        cb.lower.push_back(b[1]);
        cb.upper.push_back(b[2]);
        cm.x.push_back(n);
        cm.y.push_back(b[0]);
        cmc.x.push_back(n);
        cmc.y.push_back(cur.mcLogEvidence / kLn10);
        if (std::isfinite(cur.exactLogEvidence)) {
            ce.x.push_back(n);
            ce.y.push_back(cur.exactLogEvidence / kLn10);
        }
    }
    conv.bands.push_back(std::move(cb));
    conv.series.push_back(std::move(cm));
    conv.series.push_back(std::move(cmc));
    if (!ce.x.empty())
        conv.series.push_back(std::move(ce));
    figure.plots.push_back(std::move(conv));
}

} // namespace evx::scenarios::ibpbq
