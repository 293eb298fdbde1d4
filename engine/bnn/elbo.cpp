#include "bnn/elbo.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <cmath>

namespace evx::bnn {

ElboObjective::ElboObjective(const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                             const std::vector<int>& hidden, bool latent, bool learnNoise)
    : m_net(MlpShape{int(x.cols()) + (latent ? 1 : 0), hidden}), m_y(y)
{
    if (x.rows() != y.size() || x.rows() < 2 || x.cols() < 1)
        throw InvalidParameter("a BNN needs at least two data points with one input column or more, and one "
                               "target per row of x");
    m_layout = {m_net.shape().parameterCount(), latent ? int(y.size()) : 0, learnNoise};
    m_input.setZero(m_net.shape().inputs, x.rows());
    m_input.topRows(x.cols()) = x.transpose();
}

double ElboObjective::noiseSd(const Eigen::VectorXd& theta, double fixedNoiseSd) const
{
    return m_layout.learnNoise ? std::exp(theta(m_layout.logNoiseSd())) : fixedNoiseSd;
}

const Eigen::MatrixXd& ElboObjective::outputs(const Eigen::Ref<const Eigen::VectorXd>& weights,
                                              const Eigen::Ref<const Eigen::VectorXd>& latents)
{
    if (m_layout.latents > 0)
        m_input.row(m_input.rows() - 1) = latents.transpose();
    return m_net.forward(weights, m_input);
}

double ElboObjective::negLogLikelihood(const Eigen::VectorXd& theta, const ReparamNoise& noise,
                                       double fixedNoiseSd, Eigen::VectorXd* grad)
{
    const ParameterLayout& l = m_layout;
    const auto weightSd = theta.segment(l.weightLogSd(), l.weights).array().exp();
    m_w = theta.segment(l.weightMean(), l.weights).array() + weightSd * noise.weights.array();
    if (l.latents > 0)
        m_input.row(m_input.rows() - 1) =
            (theta.segment(l.latentMean(), l.latents).array() +
             theta.segment(l.latentLogSd(), l.latents).array().exp() * noise.latents.array())
                .matrix()
                .transpose();
    const Eigen::MatrixXd& f = m_net.forward(m_w, m_input);
    const double sd = noiseSd(theta, fixedNoiseSd), n = double(m_y.size());
    m_gradOut = m_y.transpose() - f; // residuals, reused below as the output gradient
    const double squares = m_gradOut.squaredNorm();
    const double value = n * (stats::kHalfLog2Pi + std::log(sd)) + squares / (2 * sd * sd);
    if (!grad)
        return value;

    m_gradOut *= -1 / (sd * sd);
    m_gradW.setZero(l.weights);
    m_net.backward(m_w, m_gradOut, m_gradW, l.latents > 0 ? &m_gradIn : nullptr, true);
    grad->segment(l.weightMean(), l.weights) += m_gradW;
    grad->segment(l.weightLogSd(), l.weights).array() += m_gradW.array() * noise.weights.array() * weightSd;
    if (l.latents > 0) {
        const auto gz = m_gradIn.row(m_gradIn.rows() - 1).transpose().array();
        grad->segment(l.latentMean(), l.latents).array() += gz;
        grad->segment(l.latentLogSd(), l.latents).array() +=
            gz * noise.latents.array() * theta.segment(l.latentLogSd(), l.latents).array().exp();
    }
    if (l.learnNoise)
        (*grad)(l.logNoiseSd()) += n - squares / (sd * sd);
    return value;
}

double gaussianKl(const Eigen::Ref<const Eigen::VectorXd>& mean,
                  const Eigen::Ref<const Eigen::VectorXd>& logSd, double priorVariance, Eigen::VectorXd* grad,
                  int meanOffset, int logSdOffset)
{
    const Eigen::ArrayXd variance = (2 * logSd.array()).exp();
    const double value = (0.5 * std::log(priorVariance) - logSd.array() +
                          (variance + mean.array().square()) / (2 * priorVariance) - 0.5)
                             .sum();
    if (grad) {
        grad->segment(meanOffset, mean.size()) += mean / priorVariance;
        grad->segment(logSdOffset, mean.size()).array() += variance / priorVariance - 1;
    }
    return value;
}

double klWeights(const ParameterLayout& l, const Eigen::VectorXd& theta, double priorVariance,
                 Eigen::VectorXd* grad)
{
    return gaussianKl(theta.segment(l.weightMean(), l.weights), theta.segment(l.weightLogSd(), l.weights),
                      priorVariance, grad, l.weightMean(), l.weightLogSd());
}

double klLatents(const ParameterLayout& l, const Eigen::VectorXd& theta, double priorVariance,
                 Eigen::VectorXd* grad)
{
    if (l.latents == 0)
        return 0;
    return gaussianKl(theta.segment(l.latentMean(), l.latents), theta.segment(l.latentLogSd(), l.latents),
                      priorVariance, grad, l.latentMean(), l.latentLogSd());
}

double empiricalBayesVariance(const Eigen::Ref<const Eigen::VectorXd>& mean,
                              const Eigen::Ref<const Eigen::VectorXd>& logSd, double alpha, double beta)
{
    const double secondMoments = mean.squaredNorm() + (2 * logSd.array()).exp().sum();
    return (secondMoments + 2 * beta) / (double(mean.size()) + 2 * alpha + 2);
}

} // namespace evx::bnn
