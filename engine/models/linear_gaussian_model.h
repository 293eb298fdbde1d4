#pragma once
// The Gaussian base model of the uncertain-evidence paper (Sec. 4.1):
//   p(x) = N(μ_x, σ_x²),  p(y | x) = N(x, σ_{y|x}²),  evidence q = N(ζ, σ_q²) in y.
// All posteriors are Gaussian; closedFormReadings() gives them exactly:
//   exact at y0 = ζ and distributional: precision 1/σ_x² + 1/σ_{y|x}² (Z(x) is constant)
//   virtual:  precision 1/σ_x² + 1/(σ_{y|x}² + σ_q²)
//   Jeffrey:  mean μ_x + k (ζ − μ_x), variance k σ_{y|x}² + k² σ_q², k = σ_x² / (σ_x² + σ_{y|x}²)
//   consistency: Var[y] = σ_x² + σ_{y|x}² ≥ σ_q²   (Thm 3.3 III)

#include "evidence/base_model.h"

namespace evx::models {

struct Normal {
    double mean = 0;
    double sd = 1;
    double pdf(double x) const;
};

class LinearGaussianModel final : public evidence::BaseModel {
public:
    // Throws InvalidParameter unless every sd is positive and every value finite.
    LinearGaussianModel(double priorMean, double priorSd, double noiseSd);

    double logPrior(double x) const override;
    double logLikelihood(double y, double x) const override;
    evidence::ConditionalMoments observable(double x) const override;
    bool hasGaussianNoise() const override { return true; }

    double priorMean() const { return m_priorMean; }
    double priorSd() const { return m_priorSd; }
    double noiseSd() const { return m_noiseSd; }

private:
    double m_priorMean, m_priorSd, m_noiseSd;
};

struct GaussianReadings {
    Normal prior, exact, jeffrey, virtualEvidence, distributional;
    Normal predictive; // p(y)
    double varY = 0;
    double expectedVarGivenZeta = 0;
};

GaussianReadings closedFormReadings(const LinearGaussianModel& model, double zeta, double evidenceSd);

} // namespace evx::models
