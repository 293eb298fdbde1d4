#include "bnn/bnn_loss.h"

#include "core/errors.h"

namespace evx::bnn {

BnnLoss::BnnLoss(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<int>& hidden,
                 bool latent, bool learnNoise, std::optional<NcaiPenaltyOptions> penalties)
    : m_elbo(x, y, hidden, latent, learnNoise), m_x(x), m_penalties(penalties)
{
    if (penalties && !latent)
        throw InvalidParameter("the NCAI penalties act on latent inputs: a BNN without z has none");
}

LossTerms BnnLoss::evaluate(const Eigen::VectorXd& theta, const std::vector<ReparamNoise>& noise,
                            const PriorSettings& priors, Eigen::VectorXd* grad, bool clipPenaltyGradient)
{
    const ParameterLayout& l = layout();
    if (theta.size() != l.size())
        throw InvalidParameter("BNN loss: the parameter vector has the wrong length");
    if (noise.empty())
        throw InvalidParameter("BNN loss: at least one reparameterisation draw is needed");
    LossTerms t;
    if (grad)
        grad->setZero(l.size());

    // A Monte Carlo average over the draws: each draw's gradient is scaled by 1/S.
    const double share = 1.0 / double(noise.size());
    for (const ReparamNoise& e : noise) {
        if (grad)
            m_sampleGrad.setZero(l.size());
        t.elbo.negLogLik +=
            share * m_elbo.negLogLikelihood(theta, e, priors.noiseSd, grad ? &m_sampleGrad : nullptr);
        if (grad)
            *grad += share * m_sampleGrad;
    }
    t.elbo.klWeights = klWeights(l, theta, priors.weightVariance, grad);
    t.elbo.klLatents = klLatents(l, theta, priors.latentVariance, grad);

    if (m_penalties) {
        m_mu = theta.segment(l.latentMean(), l.latents);
        if (grad)
            m_penaltyGrad.setZero(l.latents);
        t.penalties =
            ncaiPenalties(m_mu, m_x, m_elbo.targets(), *m_penalties, grad ? &m_penaltyGrad : nullptr);
        if (grad) {
            if (clipPenaltyGradient)
                clipRms(m_penaltyGrad, m_penalties->gradientClip);
            grad->segment(l.latentMean(), l.latents) += m_penaltyGrad;
        }
    }
    return t;
}

} // namespace evx::bnn
