#include "wvo/grid_reconstruction.h"

#include "core/errors.h"
#include "wvo/multilevel.h"

namespace evx::wvo {

GridReconstruction reconstructOnGrid(const GridReconstructionInput& in, std::mt19937_64& rng,
                                     const RunContext& context)
{
    if (!in.original || in.virtualCount < 1 || in.posteriorDraws < 2)
        throw InvalidParameter("WVO reconstruction: missing posterior, virtual groups or draws");
    GridReconstruction r;
    const Axis& ax = in.original->xAxis();
    const Axis& ay = in.original->yAxis();
    // Virtual groups from the posterior predictive: a fresh θ for each, then the group.
    const Eigen::MatrixXd thetas = in.original->sample(in.virtualCount, rng);
    for (int k = 0; k < in.virtualCount; ++k)
        r.virtualGroups.push_back(in.drawVirtual(thetas(k, 0), thetas(k, 1), rng));
    context.checkCancelled();

    bool tables = in.cellDraws && in.originalLogLikTable;
    for (const VirtualGroup& g : r.virtualGroups)
        tables = tables && g.cellTable;
    WvoProblem problem;
    if (tables) {
        std::discrete_distribution<std::size_t> cell(in.original->mass().begin(), in.original->mass().end());
        problem.totalWeight = in.totalWeight;
        problem.logLikVirtual.resize(in.posteriorDraws, in.virtualCount);
        problem.logLikOriginal.resize(in.posteriorDraws);
        for (int m = 0; m < in.posteriorDraws; ++m) {
            const std::size_t c = cell(rng);
            problem.logLikOriginal(m) = (*in.originalLogLikTable)[c];
            for (int k = 0; k < in.virtualCount; ++k)
                problem.logLikVirtual(m, k) = (*r.virtualGroups[k].cellTable)[c];
        }
    } else {
        const Eigen::MatrixXd draws = in.original->sample(in.posteriorDraws, rng);
        problem = buildProblem(
            draws, in.virtualCount,
            [&](const Eigen::VectorXd& t, int k) { return r.virtualGroups[k].logLik(t(0), t(1)); },
            [&](const Eigen::VectorXd& t) { return in.originalLogLik(t(0), t(1)); }, in.totalWeight);
    }
    context.checkCancelled();
    r.weights = optimiseWeights(problem);

    const std::size_t cells = static_cast<std::size_t>(ax.n) * ay.n;
    std::vector<double> weighted(cells), unweighted(in.unweighted ? cells : 0);
    Eigen::VectorXd ll(in.virtualCount);
    for (int iy = 0; iy < ay.n; ++iy) {
        context.checkCancelled();
        for (int ix = 0; ix < ax.n; ++ix) {
            const double x = ax.centre(ix), y = ay.centre(iy);
            const std::size_t c = static_cast<std::size_t>(iy) * ax.n + ix;
            const double prior = in.logPrior(x, y);
            for (int k = 0; k < in.virtualCount; ++k) {
                const VirtualGroup& g = r.virtualGroups[k];
                ll(k) = g.cellTable ? (*g.cellTable)[c] : g.logLik(x, y);
            }
            weighted[c] = prior + weightedLogLik(ll, r.weights.weights) +
                          (in.extraLogTable ? (*in.extraLogTable)[c] : 0.0);
            if (in.unweighted)
                unweighted[c] = prior + ll.sum();
        }
    }
    r.weighted.emplace(ax, ay, std::move(weighted));
    if (in.unweighted)
        r.unweighted.emplace(ax, ay, std::move(unweighted));
    return r;
}

} // namespace evx::wvo
