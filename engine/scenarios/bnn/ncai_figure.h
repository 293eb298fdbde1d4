#pragma once
// The figure of bnn-ncai at any moment of training: the data with the predictive mean and its
// 95% band, the latent means against x (the memorising that NCAI removes), their histogram
// against the prior N(0, σ_z²), and traces of the ELBO, the test log-likelihood and the two
// latent diagnostics (mutual information with x, Henze–Zirkler).

#include "core/figure.h"
#include "scenarios/bnn/bnn_training.h"

#include <cstdint>
#include <vector>

namespace evx::scenarios {

struct NcaiFigureInput {
    const bnn_eval::PreparedData* data = nullptr;
    const bnn::BnnSnapshot* snapshot = nullptr;
    const std::vector<bnn_training::TracePoint>* trace = nullptr;
    int plotDraws = 300; // predictive draws behind the band
    std::uint64_t seed = 0;
    std::string inferenceLabel; // e.g. "BNN+LV, NCAI_λ"
};

Figure ncaiFigure(const NcaiFigureInput& in);

} // namespace evx::scenarios
