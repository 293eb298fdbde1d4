#include "bnn/warm_start.h"

#include "core/errors.h"

#include <cmath>

namespace evx::bnn {

PointNetworkFit::PointNetworkFit(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                                 const std::vector<int>& hidden, double noiseSd, AdamOptions adam,
                                 std::mt19937_64& rng)
    : m_net(MlpShape{int(x.cols()), hidden}), m_input(x.transpose()), m_y(y),
      m_noiseVariance(noiseSd * noiseSd), m_adam(m_net.shape().parameterCount(), adam)
{
    m_weights = xavierNormalWeights(m_net.shape(), rng);
}

double PointNetworkFit::loss(const Eigen::VectorXd& weights)
{
    const Eigen::MatrixXd& f = m_net.forward(weights, m_input);
    return (m_y.transpose() - f).squaredNorm() / (2 * m_noiseVariance) + 0.5 * weights.squaredNorm();
}

double PointNetworkFit::step()
{
    const Eigen::MatrixXd& f = m_net.forward(m_weights, m_input);
    m_gradOut = (f - m_y.transpose()) / m_noiseVariance;
    const double value = 0.5 * m_noiseVariance * m_gradOut.squaredNorm() + 0.5 * m_weights.squaredNorm();
    m_grad = m_weights; // the prior's gradient
    m_net.backward(m_weights, m_gradOut, m_grad, nullptr);
    if (std::isfinite(value) && m_grad.allFinite())
        m_adam.step(m_weights, m_grad);
    return value;
}

Eigen::VectorXd embedPointWeights(const MlpShape& point, const Eigen::VectorXd& pointWeights,
                                  const MlpShape& withLatent, std::mt19937_64* rng)
{
    if (withLatent.inputs != point.inputs + 1 || withLatent.hidden != point.hidden)
        throw InvalidParameter("warm start: the networks differ in more than the latent input");
    Eigen::VectorXd w(withLatent.parameterCount());
    // The first layer's W is column-major (units × inputs): x's columns first, the latent's last.
    const int units = withLatent.fanOut(0), xWeights = units * point.inputs;
    w.head(xWeights) = pointWeights.head(xWeights);
    std::normal_distribution<double> normal(0, std::sqrt(2.0 / (withLatent.fanIn(0) + units)));
    for (int j = 0; j < units; ++j)
        w(xWeights + j) = rng ? normal(*rng) : 0.0;
    const int rest = point.parameterCount() - xWeights;
    w.tail(rest) = pointWeights.tail(rest);
    return w;
}

} // namespace evx::bnn
