#include "bnn/mlp.h"

#include "core/errors.h"

#include <cmath>

namespace evx::bnn {

int MlpShape::parameterCount() const
{
    return weightOffset(layerCount());
}

int MlpShape::weightOffset(int layer) const
{
    int offset = 0;
    for (int l = 0; l < layer; ++l)
        offset += (fanIn(l) + 1) * fanOut(l);
    return offset;
}

Eigen::VectorXd xavierNormalWeights(const MlpShape& shape, std::mt19937_64& rng)
{
    Eigen::VectorXd w = Eigen::VectorXd::Zero(shape.parameterCount());
    std::normal_distribution<double> normal;
    for (int l = 0; l < shape.layerCount(); ++l) {
        const double sd = std::sqrt(2.0 / (shape.fanIn(l) + shape.fanOut(l)));
        for (int i = 0; i < shape.fanIn(l) * shape.fanOut(l); ++i)
            w(shape.weightOffset(l) + i) = sd * normal(rng);
    }
    return w;
}

Mlp::Mlp(MlpShape shape) : m_shape(std::move(shape))
{
    if (m_shape.inputs < 1)
        throw InvalidParameter("the network needs at least one input");
    for (int h : m_shape.hidden)
        if (h < 1)
            throw InvalidParameter("every hidden layer needs at least one unit");
    m_pre.resize(m_shape.layerCount());
    m_post.resize(m_shape.hidden.size());
}

const Eigen::MatrixXd& Mlp::forward(const Eigen::Ref<const Eigen::VectorXd>& weights,
                                    const Eigen::MatrixXd& input)
{
    m_input = &input;
    const Eigen::MatrixXd* a = &input;
    for (int l = 0; l < m_shape.layerCount(); ++l) {
        const Eigen::Map<const Eigen::MatrixXd> w(weights.data() + m_shape.weightOffset(l), m_shape.fanOut(l),
                                                  m_shape.fanIn(l));
        const Eigen::Map<const Eigen::VectorXd> b(weights.data() + m_shape.biasOffset(l), m_shape.fanOut(l));
        DenseLayer::forward(w, b, *a, m_pre[l]);
        if (l + 1 < m_shape.layerCount()) {
            LeakyReluLayer::forward(m_pre[l], m_post[l]);
            a = &m_post[l];
        }
    }
    return m_pre.back();
}

void Mlp::backward(const Eigen::Ref<const Eigen::VectorXd>& weights, const Eigen::MatrixXd& gradOutput,
                   Eigen::Ref<Eigen::VectorXd> gradWeights, Eigen::MatrixXd* gradInput, bool latentRowOnly)
{
    m_grad = gradOutput;
    for (int l = m_shape.layerCount() - 1; l >= 0; --l) {
        const Eigen::Map<const Eigen::MatrixXd> w(weights.data() + m_shape.weightOffset(l), m_shape.fanOut(l),
                                                  m_shape.fanIn(l));
        Eigen::Map<Eigen::MatrixXd> gw(gradWeights.data() + m_shape.weightOffset(l), m_shape.fanOut(l),
                                       m_shape.fanIn(l));
        Eigen::Map<Eigen::VectorXd> gb(gradWeights.data() + m_shape.biasOffset(l), m_shape.fanOut(l));
        const Eigen::MatrixXd& x = l == 0 ? *m_input : m_post[l - 1];
        if (l > 0) {
            DenseLayer::backward(w, x, m_grad, gw, gb, &m_gradNext);
            LeakyReluLayer::backward(m_pre[l - 1], m_gradNext);
            m_grad.swap(m_gradNext);
        } else {
            DenseLayer::backward(w, x, m_grad, gw, gb, gradInput, latentRowOnly);
        }
    }
}

} // namespace evx::bnn
