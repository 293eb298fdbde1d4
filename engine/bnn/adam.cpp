#include "bnn/adam.h"

#include "core/errors.h"

#include <cmath>

namespace evx::bnn {

Adam::Adam(Eigen::Index size, AdamOptions options) : m_options(options)
{
    if (!(options.learningRate > 0) || !std::isfinite(options.learningRate))
        throw InvalidParameter("Adam's learning rate must be positive and finite");
    if (!(options.beta1 >= 0 && options.beta1 < 1 && options.beta2 >= 0 && options.beta2 < 1))
        throw InvalidParameter("Adam's β1 and β2 must lie in [0, 1)");
    m_m.setZero(size);
    m_v.setZero(size);
}

void Adam::step(Eigen::Ref<Eigen::VectorXd> x, const Eigen::VectorXd& grad)
{
    const AdamOptions& o = m_options;
    ++m_t;
    m_beta1Power *= o.beta1;
    m_beta2Power *= o.beta2;
    m_m = o.beta1 * m_m + (1 - o.beta1) * grad;
    m_v = o.beta2 * m_v + (1 - o.beta2) * grad.cwiseAbs2();
    const double stepSize = o.learningRate / (1 - m_beta1Power), correction2 = 1 / (1 - m_beta2Power);
    x.array() -= stepSize * m_m.array() / ((m_v.array() * correction2).sqrt() + o.epsilon);
}

} // namespace evx::bnn
