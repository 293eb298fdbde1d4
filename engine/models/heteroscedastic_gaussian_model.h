#pragma once
// A Gaussian base model whose noise depends on the latent (for distributional evidence with a
// non-constant Z(x), uncertain-evidence paper Sec. 3.3):
//   p(x) = N(μ_x, σ_x²),  p(y | x) = N(x, s(x)²),  s(x) = s0 + s1·|x|.

#include "evidence/base_model.h"

namespace evx::models {

class HeteroscedasticGaussianModel final : public evidence::BaseModel {
public:
    // Throws InvalidParameter unless σ_x > 0, s0 > 0, s1 ≥ 0 and all are finite.
    HeteroscedasticGaussianModel(double priorMean, double priorSd, double noiseAtZero, double noiseSlope);

    double noiseSd(double x) const; // s(x)
    double logPrior(double x) const override;
    double logLikelihood(double y, double x) const override;
    evidence::ConditionalMoments observable(double x) const override;
    bool hasGaussianNoise() const override { return true; }

    double priorMean() const { return m_priorMean; }
    double priorSd() const { return m_priorSd; }

private:
    double m_priorMean, m_priorSd, m_s0, m_s1;
};

} // namespace evx::models
