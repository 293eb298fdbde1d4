#pragma once
// NCAI's deterministic warm start (bnn-latent-variables-ncai, Sec. 6, Step 1): a point-estimate
// network f(x; W) on x alone, fitted first; q(W)'s means then start from its weights, the
// weights of the latent input (which it lacks) from Glorot-normal draws, and μ_z = 0, so that
// early on the data must be explained through W rather than memorised by z.
//
// The point network minimises Σ_n (y_n − f(x_n; W))²/(2σ_ε²) + ‖W‖²/2 (a MAP estimate under
// N(0, 1) weights, which only keeps weights finite on tiny data sets) by full-batch Adam.

#include "bnn/adam.h"
#include "bnn/mlp.h"

#include <random>

namespace evx::bnn {

class PointNetworkFit {
public:
    PointNetworkFit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<int>& hidden,
                    double noiseSd, AdamOptions adam, std::mt19937_64& rng);
    // One full-batch Adam step; returns the loss at the weights before it.
    double step();
    double loss(const Eigen::VectorXd& weights);
    const Eigen::VectorXd& weights() const { return m_weights; }
    const MlpShape& shape() const { return m_net.shape(); }

private:
    Mlp m_net;
    Eigen::MatrixXd m_input;
    Eigen::VectorXd m_y, m_weights, m_grad;
    Eigen::MatrixXd m_gradOut;
    double m_noiseVariance;
    Adam m_adam;
};

// The BNN+LV weight means from a point network without the latent input: every weight and bias
// copied, the first layer's latent column (the last input) drawn N(0, 2/(fan_in + fan_out)), or
// zero without a generator (the point network itself, as shown while the warm start runs).
Eigen::VectorXd embedPointWeights(const MlpShape& point, const Eigen::VectorXd& pointWeights,
                                  const MlpShape& withLatent, std::mt19937_64* rng);

} // namespace evx::bnn
