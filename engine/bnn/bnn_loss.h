#pragma once
// The training objective, assembled from named terms (bnn-latent-variables-ncai, Eqs. 5 and 27;
// METHODS.md §5):
//   loss = NLL + KL_W + KL_z                       (−ELBO: MFVI, NCAI_λ=0, and the BNN without z)
//        + λ1 N ⊕exp(HZ/ε_T) + λ2 N ‖offdiag Σ̂‖ + λ3 N ⊕exp(|PC_x|/ε_x + |PC_y|/ε_y)   (NCAI_λ)
// with the penalties on the latent means μ (bnn/ncai_penalties.h). σ_w², σ_z² and a fixed σ_ε
// are held constant here; the trainer updates the prior variances between steps.

#include "bnn/elbo.h"
#include "bnn/ncai_penalties.h"

#include <optional>

namespace evx::bnn {

struct LossTerms {
    ElboValue elbo;
    NcaiPenaltyValue penalties;
    double total() const { return elbo.negElbo() + penalties.total(); }
};

struct PriorSettings {
    double noiseSd = 0.316227766016838; // σ_ε when it is not learned (σ_ε² = 0.1)
    double weightVariance = 1, latentVariance = 1;
};

class BnnLoss {
public:
    // x: N × D, y: N. penalties: the NCAI terms, or none.
    BnnLoss(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<int>& hidden, bool latent,
            bool learnNoise, std::optional<NcaiPenaltyOptions> penalties);

    const ParameterLayout& layout() const { return m_elbo.layout(); }
    const MlpShape& shape() const { return m_elbo.shape(); }
    ElboObjective& elbo() { return m_elbo; }

    // The loss at θ for the reparameterisation noise given (one draw per entry of noise; the
    // likelihood is averaged over them). When grad is given it is overwritten with ∂loss/∂θ;
    // with clipPenaltyGradient the penalties' part on μ is rescaled by clipRms first (the
    // training step), without it the gradient is exact (the finite-difference tests).
    LossTerms evaluate(const Eigen::VectorXd& theta, const std::vector<ReparamNoise>& noise,
                       const PriorSettings& priors, Eigen::VectorXd* grad, bool clipPenaltyGradient = false);

private:
    ElboObjective m_elbo;
    Eigen::MatrixXd m_x;
    std::optional<NcaiPenaltyOptions> m_penalties;
    Eigen::VectorXd m_sampleGrad, m_penaltyGrad, m_mu;
};

} // namespace evx::bnn
