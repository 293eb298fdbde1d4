#pragma once
// GP BQ with every kernel hyperparameter integrated out (BQ paper Sec. 1.10: "hyperparameters
// were integrated out numerically, except for the output variance ... in closed form").
//
// Output scale h, prior p(h) ∝ 1/h: with K = h K₁ and S = (y−m)ᵀK₁⁻¹(y−m),
//   p(y | w) = ∫ N(y | m, h K₁) p(h) dh ∝ |K₁|^{-1/2} S^{-n/2},
//   Z | y, w ~ Student-t with ν = n, location E_w = m + z₁ᵀK₁⁻¹(y−m), scale² s_w² = (S/n)(V₁ − z₁ᵀK₁⁻¹z₁),
// so V[Z | y, w] = s_w² n/(n − 2) (n ≥ 3), and likewise pointwise for the GP on ℓ.
// Lengthscale w: a flat prior on log w over [minW, maxW], integrated on a grid of G log-spaced
// values (one IncrementalBq each, grown by row appends), with weights π_w ∝ p(y | w):
//   E[Z] = Σ π_w E_w,   V[Z] = Σ π_w (V_w + E_w²) − E[Z]²   (the mixture's moments).
// With few samples the likelihood cannot rule out short lengthscales, and their large V_w
// widens the band: the plug-in estimate at the maximum-likelihood w ignored exactly that.

#include "bq/bayes_quadrature.h"

#include <vector>

namespace evx::bq {

class LengthscaleMixtureBq {
public:
    // gridPoints = 1 with min = max: one given lengthscale (h still integrated out).
    LengthscaleMixtureBq(const GaussianMeasure& p, double minLengthscale, double maxLengthscale,
                         int gridPoints, double priorMean = 0);

    void add(const Eigen::VectorXd& x, double y);
    int size() const;
    // The mixture's E[Z], V[Z]; needs at least 3 samples (the Student-t variance).
    ZEstimate estimate() const;
    // Pointwise mixture mean and variance of the GP on ℓ at the rows of xs.
    void predict(const Eigen::MatrixXd& xs, Eigen::VectorXd& mean, Eigen::VectorXd& variance) const;
    // V[Z] removed by sampling at each row of xs, averaged over the lengthscale posterior:
    //   Σ π_w · n/(n−2) · reduction_w(x) (IncrementalBq::varianceReduction).
    Eigen::VectorXd varianceReduction(const Eigen::MatrixXd& xs) const;

    const std::vector<double>& lengthscales() const { return m_w; }
    std::vector<double> weights() const; // π_w, summing to 1
    double posteriorMeanLogLengthscale() const;
    // The largest jitter among the components that carry weight (long lengthscales on dense
    // designs always need some, and weigh nothing when the data rule them out).
    double jitter() const;

private:
    double logEvidence(const IncrementalBq& c) const; // log p(y | w) up to a constant
    double studentFactor() const;                     // n/(n − 2)

    std::vector<double> m_w;
    std::vector<IncrementalBq> m_components;
    // Components whose weight is below this share of the largest are left out of predict()
    // and varianceReduction(): they cannot move either.
    static constexpr double kNegligibleWeight = 1e-9;
};

} // namespace evx::bq
