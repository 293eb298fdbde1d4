#pragma once
// A Hamiltonian Monte Carlo reference posterior for small BNNs (+LV), for the uncertainty
// decomposition of bnn-latent-variables-ncai, Sec. 7.3 and App. E (METHODS.md §5):
//
//   log p(W, z | D) = Σ_n log N(y_n; f([x_n, z_n]; W), σ_ε²) + log N(W; 0, σ_w² I) + log N(z; 0, σ_z² I) + c
//
// with σ_ε, σ_w², σ_z² fixed (the paper's Fig. 6: σ_z² = 1, σ_ε² as generated, σ_w² = 10). Its
// gradient comes from the same backward pass as the ELBO (bnn/mlp.h).
//
// The sampler (Neal 2011, Sec. 5.3.2): momentum p ~ N(0, I), L leapfrog steps of size ε, a
// Metropolis accept on the change in H = −log p + ½|p|². During warm-up ε is tuned by dual
// averaging towards a target acceptance rate (Hoffman and Gelman 2014, Sec. 3.2: γ = 0.05,
// t0 = 10, κ = 0.75, μ = log 10ε0) and then fixed at its averaged value. L is drawn uniformly
// from [⌈L/2⌉, L] per iteration, which avoids periodic orbits. An energy error above 1000 is a
// divergence: the proposal is rejected and counted. Written by hand: no Debian-packaged C++
// library offers HMC (Stan is not packaged).

#include "bnn/bnn_predictive.h"
#include "bnn/mlp.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace evx::bnn {

// log density (up to a constant) and, when grad is given, its gradient.
using LogDensityWithGradient = std::function<double(const Eigen::VectorXd&, Eigen::VectorXd*)>;

struct HmcOptions {
    int chains = 4;
    int warmup = 1000;
    int draws = 1000;
    int leapfrogSteps = 30; // the maximum; each iteration draws L from [⌈L/2⌉, L]
    double targetAcceptance = 0.8;
    double initialStepSize = 0.01;
    std::uint64_t seed = 0;
};

struct HmcChain {
    Eigen::MatrixXd draws;  // draws × dimension, after warm-up
    double stepSize = 0;    // ε after warm-up
    double acceptance = 0;  // mean Metropolis acceptance probability after warm-up
    int divergences = 0;    // after warm-up
    bool cancelled = false; // stopped early: draws holds only the rows done
};

// One chain from `start`; `cancelled` is polled once before every iteration (warm-up and draws),
// so a caller may also count its calls as progress.
HmcChain runHmcChain(const LogDensityWithGradient& logDensity, Eigen::VectorXd start,
                     const HmcOptions& options, std::mt19937_64& rng,
                     const std::function<bool()>& cancelled = {});

// The BNN (+LV) log joint in q = [W (P); z (N)] (z absent for a BNN).
class BnnLogJoint {
public:
    BnnLogJoint(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<int>& hidden,
                bool latent, double noiseSd, double weightVariance, double latentVariance);
    int dimension() const { return m_weights + m_latents; }
    int weightCount() const { return m_weights; }
    const MlpShape& shape() const { return m_net.shape(); }
    double operator()(const Eigen::VectorXd& q, Eigen::VectorXd* grad);

private:
    Mlp m_net;
    Eigen::MatrixXd m_input, m_gradOut, m_gradIn;
    Eigen::VectorXd m_y, m_gradW;
    int m_weights, m_latents;
    double m_noiseVariance, m_weightVariance, m_latentVariance;
};

struct BnnHmcResult {
    MlpShape shape;
    std::vector<HmcChain> chains;
    double noiseSd = 0, latentVariance = 0;
    bool cancelled = false;
    // All chains' weight draws, one row each (the z columns dropped).
    Eigen::MatrixXd weightDraws() const;
};

// Chains start from Glorot-normal weights and z drawn from its prior, each from its own seed; they
// run one after another, polling `cancelled` as runHmcChain does.
BnnHmcResult runBnnHmc(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<int>& hidden,
                       bool latent, double noiseSd, double weightVariance, double latentVariance,
                       const HmcOptions& options, const std::function<bool()>& cancelled = {});

// Predictive draws from the HMC posterior, as bnn/bnn_predictive.h: row s·K + k uses the s-th
// weight draw and z ~ N(0, σ_z²) afresh per point; afterEachWeightDraw as there.
PredictiveDraws hmcPredictiveDraws(const BnnHmcResult& hmc, const Eigen::MatrixXd& x, std::uint64_t seed,
                                   int latentDrawsPerWeight = 1,
                                   const std::function<void()>& afterEachWeightDraw = {});

} // namespace evx::bnn
