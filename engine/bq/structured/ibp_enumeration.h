#pragma once
// Exact IBP evidence by enumeration (METHODS.md §2b): p(X) = Σ_[Z] P([Z]) p(X | Z) for N ≤ 5.
// Under the equivalence-class prior the count c_h of each of the 2^N − 1 non-zero column types
// v_h is independently Poisson(λ_h), λ_h = α (N − m_h)! (m_h − 1)! / N!, and the likelihood sees
// only M = ZZᵀ = Σ_h c_h v_h v_hᵀ. So the prior is accumulated type by type over states (K₊, M)
// (a map to their probability) instead of over multisets of columns, with
//  - K₊ ≤ K_max, K_max the least with P(Poisson(α H_N) > K_max) ≤ tolerance (K₊ ~ Poisson(α H_N));
//  - at most maxStates states: past it, the least probable are dropped after each type.
// Both losses are counted in massLeftOut() (the prior mass of the classes not enumerated). At
// N = 5, α = 1 the cap decides it: 0.059 at 5·10⁴ states, 0.040 at 10⁵. The sum is a lower bound
// on p(X); at σ_X = 0.5, σ_A = 1 on the toy data it does not move between 2·10⁴ and 10⁵ states,
// but at σ_X = 0.3, σ_A = 0.4 the posterior sits on many-feature classes of tiny prior mass and
// it is still rising (−251.6, −241.7, −234.4 on seed 1): there it is not exact.

#include "bq/structured/feature_kernels.h"

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace evx::bq::structured {

constexpr int kIbpEnumerationMaxRows = 5;

class IbpEnumeration {
public:
    struct State {
        Eigen::MatrixXd zzt; // N × N
        int features = 0;    // K₊
        double probability = 0;
    };

    // Throws InvalidParameter for N outside 1–5 (the states grow like the multisets of 2^N − 1
    // types) or α ≤ 0.
    IbpEnumeration(int n, double alpha, double tolerance = 1e-6, int maxStates = 100000);

    int rows() const { return m_n; }
    double alpha() const { return m_alpha; }
    int kMax() const { return m_kMax; }
    double massLeftOut() const { return m_massLeftOut; }
    double truncationMass() const { return m_truncationMass; } // the K₊ > K_max part of it
    const std::vector<State>& states() const { return m_states; }

    // The states merged by ZZᵀ, most probable first, at most maxPoints of them; *massCovered (if
    // given) receives their total probability. The weights are the prior probabilities, not
    // renormalised: a support for gramFeatureGrams(…, exactPrior = true).
    std::vector<WeightedGram> support(int maxPoints, double* massCovered = nullptr) const;

private:
    int m_n = 0;
    double m_alpha = 0;
    int m_kMax = 0;
    double m_massLeftOut = 0;
    double m_truncationMass = 0;
    std::vector<State> m_states;
};

// A prior support for the gram kernel's z and V (gramFeatureGrams, exactPrior = true) that keeps
// them unbiased when the enumeration is too large to sum over in V (10⁵ states, V pairs them all):
// the `top` heaviest ZZᵀ exactly with their prior probabilities (mass c), plus `draws` buffet
// draws whose ZZᵀ is not among them, each of weight (1 − c)/draws (stratified sampling).
std::vector<WeightedGram> ibpStratifiedSupport(const IbpEnumeration& enumeration, int top, int draws,
                                               std::uint64_t seed, double* exactMass = nullptr);

// The enumerated evidence for one data set: every state's ZZᵀ eigendecomposed once, so each
// (σ_X, σ_A) costs O(states × N).
class IbpExactEvidence {
public:
    IbpExactEvidence(const IbpEnumeration& enumeration, const Eigen::MatrixXd& x);

    // log Σ_states P p(X | M) (the classes left out contribute nothing).
    double logEvidence(double sigmaX, double sigmaA) const;
    // P(K₊ = k | X) for k = 0..K_max, normalised over the enumerated states.
    std::vector<double> posteriorFeatureCount(double sigmaX, double sigmaA) const;
    double massLeftOut() const { return m_massLeftOut; }

private:
    Eigen::VectorXd logTerms(double sigmaX, double sigmaA) const;

    Eigen::ArrayXXd m_lambda; // states × N eigenvalues of ZZᵀ
    Eigen::ArrayXXd m_q;      // states × N squared projections of X
    Eigen::ArrayXd m_logPrior;
    std::vector<int> m_features;
    int m_kMax = 0;
    double m_d = 0;
    double m_massLeftOut = 0;
};

} // namespace evx::bq::structured
