#pragma once
// The figure of bnn-ncai at any moment of training: the data with the predictive mean and its
// 95% band, the latent means against x (the memorising that NCAI removes), their histogram
// against the prior N(0, σ_z²), and traces of the ELBO, the test log-likelihood and the two
// latent diagnostics (mutual information with x, Henze–Zirkler).

#include "core/figure.h"
#include "scenarios/bnn/bnn_evaluation.h"

#include <cstdint>
#include <vector>

namespace evx::scenarios {

struct NcaiTracePoint {
    int epoch = 0;
    double elbo = 0;          // per training point, averaged over the epochs since the last point
    double testLogLik = 0;    // with the trace's own (fewer) predictive draws
    double mutualInformation = 0, henzeZirkler = 0; // NaN without a latent
};

struct NcaiFigureInput {
    const bnn_eval::PreparedData* data = nullptr;
    const bnn::BnnSnapshot* snapshot = nullptr;
    const std::vector<NcaiTracePoint>* trace = nullptr;
    int plotDraws = 300;      // predictive draws behind the band
    std::uint64_t seed = 0;
    std::string inferenceLabel; // e.g. "BNN+LV, NCAI_λ"
};

Figure ncaiFigure(const NcaiFigureInput& in);

} // namespace evx::scenarios
