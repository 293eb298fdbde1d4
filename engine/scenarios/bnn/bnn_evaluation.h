#pragma once
// What the BNN scenarios and tables report about a trained network (bnn-latent-variables-ncai,
// App. F.2; METHODS.md §5): the predictive metrics on a held-out split, from draws of (W, z),
// and how far the latent means {μ_n} are from the prior's white noise.

#include "bnn/bnn_trainer.h"
#include "bnn/datasets.h"

#include <cstdint>
#include <functional>

namespace evx::scenarios::bnn_eval {

// A data set with every split standardised by the training statistics, as the network sees it.
struct PreparedData {
    bnn::Dataset raw;
    bnn::DataSplit train, validation, test; // standardised
};
PreparedData prepare(bnn::Dataset dataset);

struct PredictiveMetrics {
    double logLikelihood = 0, rmse = 0, picp = 0, mpiw = 0; // on the data set's report scale
    int draws = 0;
};
// Eq. 34 and App. F.2 on one standardised split: `draws` draws of W ~ q(W) and z ~ N(0, σ_z²).
// afterEachPoint as stats::predictiveIntervals.
PredictiveMetrics predictiveMetrics(const bnn::BnnSnapshot& snapshot, const PreparedData& data,
                                    const bnn::DataSplit& split, int draws, std::uint64_t seed,
                                    const std::function<void()>& afterEachPoint = {});
// predictiveMetrics(...).logLikelihood without the intervals, which cost most of it.
double predictiveLogLikelihood(const bnn::BnnSnapshot& snapshot, const PreparedData& data,
                               const bnn::DataSplit& split, int draws, std::uint64_t seed);

struct LatentMetrics {
    double mutualInformation = 0; // KSG (k = 5) between the training x and μ_z, nats
    double henzeZirkler = 0;      // of μ_z
    double ks = 0;                // Kolmogorov–Smirnov of μ_z against N(0, σ_z²)
};
// Needs a network with a latent input.
LatentMetrics latentMetrics(const bnn::BnnSnapshot& snapshot, const PreparedData& data);

} // namespace evx::scenarios::bnn_eval
