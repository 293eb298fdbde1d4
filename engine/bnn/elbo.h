#pragma once
// The evidence lower bound of a BNN+LV (bnn-latent-variables-ncai, Eq. 5; METHODS.md §5) with a
// mean-field Gaussian q(W) = Π N(m_i, s_i²), a free q(z_n) = N(μ_n, s_n²) per datum (not
// amortised), priors W ~ N(0, σ_w² I), z_n ~ N(0, σ_z²), and y_n ~ N(f([x_n, z_n]; W), σ_ε²):
//
//   −ELBO = NLL + KL_W + KL_z,
//   NLL   = −Σ_n log N(y_n; f([x_n, z_n]; W), σ_ε²),   W = m + s ⊙ ε_W,  z = μ + s_z ⊙ ε_z
//           (Bayes by backprop: the expectation under q by reparameterised draws ε ~ N(0, I)),
//   KL_W  = Σ_i [log(σ_w/s_i) + (s_i² + m_i²)/(2σ_w²) − ½],   KL_z the same over the latents.
//
// Every sd is parametrised by its log (s = e^τ), so Adam moves it multiplicatively. σ_ε is
// either fixed (the paper grid-searches σ_ε² and keeps it fixed, App. F.1; our default) or
// learned as log σ_ε, the last entry of the parameter vector.
//
// The three terms are separate functions, each adding its gradient with respect to the whole
// variational parameter vector θ into a caller's vector, so each has its own finite-difference
// test and the loss is their sum.

#include "bnn/mlp.h"

#include <Eigen/Core>

namespace evx::bnn {

// Where each block of θ = [m (P), τ_W (P), μ (N), τ_z (N), log σ_ε (0 or 1)] sits.
struct ParameterLayout {
    int weights = 0; // P
    int latents = 0; // N, or 0 for a BNN without z
    bool learnNoise = false;
    int size() const { return 2 * weights + 2 * latents + (learnNoise ? 1 : 0); }
    int weightMean() const { return 0; }
    int weightLogSd() const { return weights; }
    int latentMean() const { return 2 * weights; }
    int latentLogSd() const { return 2 * weights + latents; }
    int logNoiseSd() const { return 2 * weights + 2 * latents; }
};

// Standard normal draws behind one reparameterised sample of (W, z).
struct ReparamNoise {
    Eigen::VectorXd weights; // P
    Eigen::VectorXd latents; // N (empty for a BNN)
};

struct ElboValue {
    double negLogLik = 0, klWeights = 0, klLatents = 0;
    double negElbo() const { return negLogLik + klWeights + klLatents; }
};

// The likelihood term: owns the network and the input buffer [x; z] of the training data.
class ElboObjective {
public:
    // x: N × D, y: N. hidden: units per hidden layer. latent: whether z is an input.
    ElboObjective(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<int>& hidden,
                  bool latent, bool learnNoise);

    const ParameterLayout& layout() const { return m_layout; }
    const MlpShape& shape() const { return m_net.shape(); }
    int dataCount() const { return int(m_y.size()); }
    const Eigen::VectorXd& targets() const { return m_y; }

    double noiseSd(const Eigen::VectorXd& theta, double fixedNoiseSd) const;

    // NLL at the sample (m + s ⊙ ε_W, μ + s_z ⊙ ε_z); adds ∂NLL/∂θ to *grad when given.
    double negLogLikelihood(const Eigen::VectorXd& theta, const ReparamNoise& noise, double fixedNoiseSd,
                            Eigen::VectorXd* grad);
    // The network's outputs (1 × N) at given weights and latents (latents ignored without z).
    const Eigen::MatrixXd& outputs(const Eigen::Ref<const Eigen::VectorXd>& weights,
                                   const Eigen::Ref<const Eigen::VectorXd>& latents);

private:
    ParameterLayout m_layout;
    Mlp m_net;
    Eigen::MatrixXd m_input; // D (+1) × N: x transposed, then the latent row
    Eigen::VectorXd m_y;
    Eigen::VectorXd m_w, m_gradW;
    Eigen::MatrixXd m_gradOut, m_gradIn;
};

// KL(N(m, e^{2τ}) ‖ N(0, v)) summed over a block; adds its gradient into gradMean, gradLogSd.
double gaussianKl(const Eigen::Ref<const Eigen::VectorXd>& mean,
                  const Eigen::Ref<const Eigen::VectorXd>& logSd, double priorVariance, Eigen::VectorXd* grad,
                  int meanOffset, int logSdOffset);
double klWeights(const ParameterLayout& layout, const Eigen::VectorXd& theta, double priorVariance,
                 Eigen::VectorXd* grad);
double klLatents(const ParameterLayout& layout, const Eigen::VectorXd& theta, double priorVariance,
                 Eigen::VectorXd* grad);

// The empirical-Bayes update between gradient steps (METHODS.md §5, correcting the paper's
// Eqs. 29–32): with an InverseGamma(α, β) prior on the variance v of a N(0, v) prior over P
// variables with q = N(m_j, s_j²), argmin_v [KL(q ‖ N(0, v)) − log IG(v; α, β)] is the mode
//   v* = (Σ_j (m_j² + s_j²) + 2β) / (P + 2α + 2).
double empiricalBayesVariance(const Eigen::Ref<const Eigen::VectorXd>& mean,
                              const Eigen::Ref<const Eigen::VectorXd>& logSd, double alpha = 3,
                              double beta = 0.5);

} // namespace evx::bnn
