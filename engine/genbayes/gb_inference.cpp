#include "genbayes/gb_inference.h"

#include "core/errors.h"
#include "genbayes/coarse_grid.h"
#include "gp/gp_regression.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace evx::genbayes {
namespace {

Eigen::MatrixXd toUnit(const ParameterBox& box, const Eigen::MatrixXd& thetas)
{
    const Eigen::RowVectorXd width = (box.upper - box.lower).transpose();
    return (thetas.rowwise() - box.lower.transpose()).array().rowwise() / width.array();
}

constexpr Eigen::Index kPredictionBlock = 8192;
// Up to this many grid points a partial figure predicts at every one.
constexpr Eigen::Index kFullGridPredictions = 20000;

// Predictions over the whole grid in blocks, so a 51³ grid never holds an n × 132 651 matrix.
void predictOnGrid(const gp::GpRegression& gp, const Eigen::MatrixXd& unitGrid, Eigen::VectorXd& mean,
                   Eigen::VectorXd& sd)
{
    const Eigen::Index total = unitGrid.rows(), block = kPredictionBlock;
    mean.resize(total);
    sd.resize(total);
    Eigen::VectorXd m, v;
    for (Eigen::Index start = 0; start < total; start += block) {
        const Eigen::Index rows = std::min(block, total - start);
        gp.predict(unitGrid.middleRows(start, rows), m, v);
        mean.segment(start, rows) = m;
        sd.segment(start, rows) = v.cwiseSqrt();
    }
}

// Where a partial figure's surface is predicted: on a large box grid every other point per axis
// (interpolated to the rest), else the grid itself.
struct DisplayGrid {
    CoarseGrid coarse;
    Eigen::MatrixXd unitPoints; // the coarse points on the unit box
};

DisplayGrid displayGrid(const ParameterBox& box, const Eigen::MatrixXd& grid, const Eigen::MatrixXd& unitGrid)
{
    Eigen::Index boxPoints = 1;
    for (int n : box.gridPoints)
        boxPoints *= n;
    const bool gridIsTheBoxs = grid.rows() == boxPoints && grid.row(0) == box.lower.transpose() &&
                               grid.row(grid.rows() - 1) == box.upper.transpose();
    DisplayGrid g{coarseGrid(box, gridIsTheBoxs && grid.rows() > kFullGridPredictions ? 2 : 1), {}};
    if (g.coarse.stride > 1)
        g.unitPoints = unitGrid(g.coarse.fineRows, Eigen::all);
    return g;
}

// withSd false: the means alone (sd left empty), without the O(n²)-per-point variances.
void predictForDisplay(const gp::GpRegression& gp, const ParameterBox& box, const Eigen::MatrixXd& unitGrid,
                       const DisplayGrid& display, bool withSd, Eigen::VectorXd& mean, Eigen::VectorXd& sd)
{
    const Eigen::MatrixXd& points = display.coarse.stride == 1 ? unitGrid : display.unitPoints;
    Eigen::VectorXd m, s;
    if (withSd)
        predictOnGrid(gp, points, m, s);
    else
        m = gp.predictMean(points);
    if (display.coarse.stride == 1) {
        mean = std::move(m);
        sd = std::move(s);
        return;
    }
    mean = interpolateToGrid(box, display.coarse, m);
    sd = withSd ? interpolateToGrid(box, display.coarse, s) : Eigen::VectorXd();
}

// σ²·Matérn-3/2 + constant + white noise on the unit box, hyperparameters by marginal
// likelihood. A fresh fit starts output scale and noise from the spread of the values (the
// constant term lets the mean level float); a refit warm-starts from the last one, so a few
// L-BFGS steps per acquisition suffice.
void refitSurfaceGp(gp::GpRegression& gp, const ParameterBox& box, const Eigen::MatrixXd& thetas,
                    const Eigen::VectorXd& values, bool fresh, gp::KernelKind kernel)
{
    const double mean = values.mean(), var = std::max((values.array() - mean).square().mean(), 1e-8);
    gp.setPriorMean(mean);
    if (fresh) {
        gp.setKernel(gp::Kernel(kernel, var, Eigen::VectorXd::Constant(box.dimension(), 0.3)));
        gp.setData(toUnit(box, thetas), values);
        gp.enableNoise(0.01 * var);
        gp.enableConstant(var);
    } else {
        gp.setData(toUnit(box, thetas), values);
    }
    gp::fitHyperparameters(
        gp, {.profileOutputScale = false, .minLengthscale = 0.2, .maxLengthscale = 5, .maxIterations = 30});
}

} // namespace

Eigen::VectorXd gridPosterior(const Eigen::VectorXd& divergenceOnGrid, int n, double tempering)
{
    // In place: on a 51³ grid every temporary is a megabyte of fresh pages.
    Eigen::VectorXd w = -tempering * double(n) * divergenceOnGrid.array();
    const double top = w.maxCoeff();
    if (!std::isfinite(top))
        throw NumericalError("the divergence is not finite anywhere on the grid");
    w.array() = (w.array() - top).exp();
    w /= w.sum();
    return w;
}

std::vector<Moments> gridMoments(const Eigen::MatrixXd& grid, const Eigen::VectorXd& weights)
{
    std::vector<Moments> out(static_cast<std::size_t>(grid.cols()));
    for (Eigen::Index k = 0; k < grid.cols(); ++k) {
        const double mean = grid.col(k).dot(weights);
        const double var = ((grid.col(k).array() - mean).square() * weights.array()).sum();
        out[std::size_t(k)] = {mean, std::sqrt(std::max(var, 0.0))};
    }
    return out;
}

BayesOptState runBayesOpt(const ParameterBox& box, const Eigen::MatrixXd& grid,
                          const std::function<double(const Eigen::VectorXd&, int)>& evaluate,
                          const BayesOptOptions& options, const RunContext& context,
                          const std::function<void(const BayesOptState&)>& progress, double progressSeconds)
{
    const int d = box.dimension();
    const int total = options.initial + options.acquisitions;
    const Eigen::MatrixXd unitGrid = toUnit(box, grid);
    std::mt19937_64 rng(options.seed);
    std::uniform_real_distribution<double> unit(0, 1);
    std::map<std::vector<double>, int> repeats;

    BayesOptState state;
    state.thetas.resize(0, d);
    gp::GpRegression gp(gp::Kernel(options.kernel, 1.0, Eigen::VectorXd::Constant(d, 0.2)));
    bool gpReady = false, surfaceCurrent = false; // the state's surface is the last fit's
    auto addEvaluation = [&](const Eigen::VectorXd& theta) {
        context.checkCancelled();
        const std::vector<double> key(theta.data(), theta.data() + d);
        const double value = evaluate(theta, repeats[key]++);
        if (!std::isfinite(value))
            throw NumericalError("a divergence estimate is not finite");
        state.thetas.conservativeResize(state.step + 1, Eigen::NoChange);
        state.thetas.row(state.step) = theta.transpose();
        state.divergences.conservativeResize(state.step + 1);
        state.divergences(state.step) = value;
        ++state.step;
    };
    auto refit = [&] {
        refitSurfaceGp(gp, box, state.thetas, state.divergences, !gpReady, options.kernel);
        gpReady = true;
        surfaceCurrent = false;
        state.noiseSd = std::sqrt(gp.noiseVariance());
        state.logHyperparameters = gp.logHyperparameters();
    };
    PublishPace pace(progressSeconds);
    // Partial figures show the display grid's surface; before the first fit, only the θ's.
    const DisplayGrid display = displayGrid(box, grid, unitGrid);
    auto predictCoarsely = [&] {
        predictForDisplay(gp, box, unitGrid, display, options.partialSd, state.meanOnGrid, state.sdOnGrid);
    };
    auto report = [&](bool first) {
        if (!progress || (!first && !pace.due()))
            return;
        pace.begin();
        if (gpReady && !surfaceCurrent) {
            predictCoarsely();
            surfaceCurrent = true;
        }
        progress(state);
    };

    for (int i = 0; i < options.initial; ++i) {
        Eigen::VectorXd theta(d);
        for (int k = 0; k < d; ++k)
            theta(k) = box.lower(k) + (box.upper(k) - box.lower(k)) * unit(rng);
        addEvaluation(theta);
        report(i == 0);
    }
    refit();
    report(true);
    std::uniform_int_distribution<Eigen::Index> pick(0, grid.rows() - 1);
    while (state.step < total) {
        // UCB of the log posterior −n D: the grid point minimising μ_D − β σ_D.
        Eigen::Index best = 0;
        double bestScore = INFINITY;
        const bool subset = grid.rows() > options.maxCandidates;
        const Eigen::Index candidates = subset ? options.maxCandidates : grid.rows();
        Eigen::MatrixXd points(candidates, d);
        std::vector<Eigen::Index> index(static_cast<std::size_t>(candidates));
        for (Eigen::Index c = 0; c < candidates; ++c) {
            index[std::size_t(c)] = subset ? pick(rng) : c;
            points.row(c) = unitGrid.row(index[std::size_t(c)]);
        }
        Eigen::VectorXd m, v;
        gp.predict(points, m, v);
        for (Eigen::Index c = 0; c < candidates; ++c) {
            const double score = m(c) - options.beta * std::sqrt(v(c));
            if (score < bestScore) {
                bestScore = score;
                best = index[std::size_t(c)];
            }
        }
        // The acquisition shows as soon as it is evaluated, on the last fit's surface: an
        // evaluation (up to 140 ms for the L1 classifier) and the refit and prediction after it
        // (up to 60 ms) would otherwise pass between two figures.
        addEvaluation(grid.row(best).transpose());
        report(false);
        refit();
        report(false);
    }
    if (!progress || display.coarse.stride == 1) {
        predictOnGrid(gp, unitGrid, state.meanOnGrid, state.sdOnGrid);
        return state;
    }
    // The final surface at every point, block by block (the same blocks as predictOnGrid, so the
    // same numbers); partial figures meanwhile show the blocks done and the interpolation elsewhere.
    predictCoarsely();
    Eigen::VectorXd m, v, sd(unitGrid.rows()); // the sd joins the state once whole
    for (Eigen::Index start = 0; start < unitGrid.rows(); start += kPredictionBlock) {
        context.checkCancelled();
        const Eigen::Index rows = std::min(kPredictionBlock, unitGrid.rows() - start);
        gp.predict(unitGrid.middleRows(start, rows), m, v);
        state.meanOnGrid.segment(start, rows) = m;
        sd.segment(start, rows) = v.cwiseSqrt();
        if (start + rows < unitGrid.rows() && pace.due()) {
            pace.begin();
            progress(state);
        }
    }
    state.sdOnGrid = std::move(sd);
    return state;
}

BayesOptState smoothEvaluations(const ParameterBox& box, const Eigen::MatrixXd& grid,
                                const Eigen::MatrixXd& thetas, const Eigen::VectorXd& values,
                                gp::KernelKind kernel, bool withSd)
{
    if (thetas.rows() != values.size() || thetas.rows() < 2 || thetas.cols() != box.dimension())
        throw InvalidParameter("smoothing needs at least two evaluations, one θ per value");
    BayesOptState state;
    state.thetas = thetas;
    state.divergences = values;
    state.step = int(values.size());
    gp::GpRegression gp(gp::Kernel(kernel, 1.0, Eigen::VectorXd::Constant(box.dimension(), 0.3)));
    refitSurfaceGp(gp, box, thetas, values, true, kernel);
    state.noiseSd = std::sqrt(gp.noiseVariance());
    state.logHyperparameters = gp.logHyperparameters();
    const Eigen::MatrixXd unitGrid = toUnit(box, grid);
    predictForDisplay(gp, box, unitGrid, displayGrid(box, grid, unitGrid), withSd, state.meanOnGrid,
                      state.sdOnGrid);
    return state;
}

ShapedSurfaces smoothWithShape(const ParameterBox& box, const Eigen::MatrixXd& grid,
                               const Eigen::MatrixXd& thetas, const Eigen::MatrixXd& values,
                               gp::KernelKind kernel, const Eigen::VectorXd& logHyperparameters,
                               const RunContext& context)
{
    const int d = box.dimension();
    if (thetas.rows() != values.rows() || thetas.rows() < 2 || thetas.cols() != d ||
        logHyperparameters.size() != d + 3)
        throw InvalidParameter("smoothing needs at least two evaluations, one θ per row of values, and "
                               "the hyperparameters (log σ², d log lengthscales, log σ_n², log c)");
    // The GP at the given hyperparameters supplies K⁻¹ = K₁⁻¹/σ² through its checked factor;
    // its jitter, if it needed any, is the loop's too.
    gp::GpRegression gp(gp::Kernel(kernel, 1.0, Eigen::VectorXd::Constant(d, 0.3)));
    gp.setData(toUnit(box, thetas), values.col(0));
    gp.enableNoise(1);
    gp.enableConstant(1);
    gp.setLogHyperparameters(logHyperparameters);
    const double n = double(values.rows());
    const Eigen::RowVectorXd priorMeans = values.colwise().mean();
    Eigen::MatrixXd alpha(values.rows(), values.cols()); // K⁻¹ (y − m), σ² included
    ShapedSurfaces out;
    out.sdRatio.resize(values.cols());
    for (Eigen::Index c = 0; c < values.cols(); ++c) {
        const Eigen::VectorXd centred = values.col(c).array() - priorMeans(c);
        alpha.col(c) = gp.factor().solve(centred);
        // σ̂²/σ² = (y − m)ᵀ K₁⁻¹ (y − m) / (n σ²) = (y − m)ᵀ K⁻¹ (y − m) / n.
        out.sdRatio(c) = std::sqrt(std::max(centred.dot(alpha.col(c)), 0.0) / n);
    }
    const Eigen::MatrixXd unitGrid = toUnit(box, grid), unitThetas = toUnit(box, thetas);
    const double constant = gp.constantVariance();
    const Eigen::Index total = grid.rows(), block = 4096;
    out.means.resize(total, values.cols());
    for (Eigen::Index start = 0; start < total; start += block) {
        context.checkCancelled();
        const Eigen::Index rows = std::min(block, total - start);
        Eigen::MatrixXd cross = gp.kernel().matrix(unitGrid.middleRows(start, rows), unitThetas);
        cross.array() += constant;
        out.means.middleRows(start, rows).noalias() = cross * alpha;
        out.means.middleRows(start, rows).rowwise() += priorMeans;
    }
    return out;
}

} // namespace evx::genbayes
