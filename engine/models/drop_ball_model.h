#pragma once
// The drop-of-a-ball base model (uncertain-evidence paper, Sec. 4.2): a ball falls a
// height h; the fall time is t = sqrt(2h/g) plus a model error N(0, σ_model²).
// The paper does not state the prior on g; METHODS.md fixes g ~ N(mean, sd²), which
// this model truncates to g > 0 (the scenario keeps the truncated mass negligible).

#include "evidence/base_model.h"

namespace evx::models {

class DropBallModel final : public evidence::BaseModel {
public:
    // Throws InvalidParameter unless height, the sds and the prior mean are positive.
    DropBallModel(double height, double modelSd, double priorMean, double priorSd);

    double fallTime(double g) const;          // sqrt(2h/g)
    double gForTime(double t) const;          // 2h/t², the inverse of fallTime
    double logPrior(double g) const override; // -inf for g ≤ 0
    double logLikelihood(double t, double g) const override;
    evidence::ConditionalMoments observable(double g) const override;
    bool hasGaussianNoise() const override { return true; }

    double height() const { return m_height; }
    double modelSd() const { return m_modelSd; }
    double priorMean() const { return m_priorMean; }
    double priorSd() const { return m_priorSd; }

private:
    double m_height, m_modelSd, m_priorMean, m_priorSd;
};

} // namespace evx::models
