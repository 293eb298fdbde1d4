#pragma once
// WVO on a grid back-end, for flat and multi-level models with a two-parameter posterior
// (Algorithm 2 of the paper with exact group marginals): draw θ_m from the grid posterior,
// draw K virtual groups from the posterior predictive, evaluate the objective's matrices,
// optimise the weights, and tabulate
//   p(θ | ỹ, w) ∝ p(θ) Π_k p(ỹ_k | θ)^{w_k} · extra(θ)
// on the same grid (extra is e.g. a new group's likelihood in an incremental update).

#include "core/run_context.h"
#include "wvo/grid_posterior.h"
#include "wvo/optimiser.h"

#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace evx::wvo {

// log p(group | θ) with θ = (x, y), the group's own parameters integrated out.
using GroupLogLik = std::function<double(double x, double y)>;
// A drawn virtual group: its log-likelihood, and optionally the same tabulated at every
// cell centre of the grid (row-major), which the scenario may cache and share between
// groups with equal data; with a table the grid evaluation is a lookup.
struct VirtualGroup {
    GroupLogLik logLik;
    std::shared_ptr<const std::vector<double>> cellTable;
};
// Draws one virtual group from p(group | θ) at θ = (x, y).
using VirtualGroupDraw = std::function<VirtualGroup(double x, double y, std::mt19937_64& rng)>;

struct GridReconstruction {
    std::vector<VirtualGroup> virtualGroups;
    WeightResult weights;
    std::optional<GridPosterior> weighted;
    std::optional<GridPosterior> unweighted; // only when asked for
};

struct GridReconstructionInput {
    const GridPosterior* original = nullptr;        // p(θ | y), to draw from
    std::function<double(double, double)> logPrior; // log p(θ)
    GroupLogLik originalLogLik;                     // Σ_j log p(y_j | θ) of the data behind `original`
    double totalWeight = 0;                         // N
    int virtualCount = 0;                           // K
    int posteriorDraws = 0;                         // M
    VirtualGroupDraw drawVirtual;
    const std::vector<double>* extraLogTable = nullptr; // added to the weighted grid (cells), may be null
    bool unweighted = false;                            // also tabulate the unweighted p(θ | ỹ)
    // Draw θ_m as cell centres (the grid posterior as a discrete distribution) and evaluate
    // the objective through the cell tables: fast when every virtual group has a table and
    // originalLogLikTable is given. Otherwise draws are jittered within cells and evaluated
    // exactly.
    bool cellDraws = false;
    const std::vector<double>* originalLogLikTable = nullptr;
};

GridReconstruction reconstructOnGrid(const GridReconstructionInput& input, std::mt19937_64& rng,
                                     const RunContext& context);

} // namespace evx::wvo
