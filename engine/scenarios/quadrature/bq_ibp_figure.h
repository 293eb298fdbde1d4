#pragma once
// The plots of bq-ibp (Fig. 1.4): the images and features as mosaics of 6 × 6 tiles, the
// evidence surface over (σ_X, σ_A) from one sample set beside the exact one, the slice at
// σ_A = 0.4 with its ±2 sd band, Monte Carlo, the exact curve and the short-chain lower bounds,
// and the estimate against the number of evaluations. Values of p(X) are shown as log10.

#include "scenarios/quadrature/bq_ibp_scenario.h"

#include <limits>

namespace evx::scenarios::ibpbq {

struct Current {
    double sigmaX = 0, sigmaA = 0, alpha = 1;
    bq::structured::StructuredEstimate estimate;
    double mcLogEvidence = 0;
    double chainLogBound = 0;
    double exactLogEvidence = std::numeric_limits<double>::quiet_NaN();
    std::vector<int> prefixN;
    std::vector<bq::structured::StructuredEstimate> prefix;
};

// The i-th of n log-spaced values from lo to hi (the σ grids).
double gridSigma(int i, int n, double lo, double hi);
// log p(X | Z_s) at (σ_X, σ_A) for the first n samples.
Eigen::VectorXd logF(const std::vector<bq::structured::IbpGramLikelihood>& l, double sx, double sa,
                     std::size_t n);

// The grids of `state` that do not depend on the current σ's (surface, slice, chain bounds).
void fillGrids(SampleState& state, const Eigen::MatrixXd& x, double alpha, std::uint64_t seed,
               const RunContext& context);

// While sampling: the data and the latest sample's features.
Figure samplingFigure(const Eigen::MatrixXd& x, const Eigen::MatrixXd& zTrue,
                      const std::vector<bq::structured::FeatureMatrix>& samples, int done);

void addPlots(Figure& figure, const Eigen::MatrixXd& x, const Eigen::MatrixXd& zTrue,
              const SampleState& state, const ExactState* exact, const Current& current, bool paperKernel);

} // namespace evx::scenarios::ibpbq
