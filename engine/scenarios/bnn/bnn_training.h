#pragma once
// Training a BNN (+LV) for a scenario: the settings the BNN scenarios share, training in chunks
// with trace points (ELBO, test log-likelihood, latent diagnostics) and cancellation.

#include "bnn/bnn_trainer.h"
#include "core/parameters.h"
#include "core/run_context.h"
#include "scenarios/bnn/bnn_evaluation.h"

#include <functional>
#include <string>
#include <vector>

namespace evx::scenarios::bnn_training {

struct TracePoint {
    int epoch = 0;
    double elbo = 0;       // per training point, averaged over the epochs since the last point
    double testLogLik = 0; // with the trace's own (fewer) predictive draws
    double mutualInformation = 0, henzeZirkler = 0; // NaN without a (spread) latent
};

struct TrainedRun {
    bnn::Variant variant = bnn::Variant::Mfvi;
    bnn::BnnSnapshot snapshot;
    std::vector<TracePoint> trace;
    std::string diverged; // why training stopped early, if it did
};

// The network, optimiser and NCAI settings from a scenario's parameters; names a schema lacks
// keep the paper's defaults (learning rate 0.01, σ_ε² = 0.1, true σ_z² where known, 2000
// warm-start epochs, λ = (1, 10, 1), ε = (0.01, 0.5, 1)). σ_ε² ("noise_variance") is on the
// scale the data set is reported on (raw y for Heavy-Tail, Depeweg, Bimodal and Williams), as in
// the paper's grids, and converted to the standardised y the network sees.
bnn::BnnConfig configFrom(const ParameterValues& values, const bnn::Dataset& data, bnn::Variant variant);

std::string inferenceLabel(bnn::Variant v);

// The root-mean-square spread of the latent means (0 without a latent): the latent statistics
// are undefined while they are all equal, as right after the warm start.
double latentSpread(const bnn::BnnSnapshot& s);

// Trains `epochs` VI epochs (after the warm start where the variant has one), with a trace point
// every `every` epochs. `onProgress` sees the run and the fraction done every kProgressEpochs
// epochs, the warm start included (a slider's partial figures must not wait for a trace point:
// 100 epochs are 80–150 ms). Throws Cancelled.
constexpr int kProgressEpochs = 20;
TrainedRun train(const bnn_eval::PreparedData& data, const bnn::BnnConfig& config, int epochs, int every,
                 const RunContext& context,
                 const std::function<void(const TrainedRun&, double)>& onProgress = {});

} // namespace evx::scenarios::bnn_training
