#pragma once
// The attainment model (scots_attainment.h) in the form the WVO paper's probabilistic program
// states it (Sec. 4.3): every real school's intercept a_s is a coordinate of the sampler and every
// pupil is one likelihood term,
//   Σ_s [ log N(a_s | α_0, s_a²) + Σ_{i in s} log N(y_i | a_s + β·x_i, exp(2 (γ_0 + γ_v v_i))) ],
// while virtual schools enter through their marginal p(ỹ_k | θ) (the paper's multi-level WVO,
// exact here because the intercept is conjugate), also pupil by pupil. This is the paper's
// computational setting, kept to reproduce its timing claim (its 8-fold speed-up comes from
// fewer pupils and fewer sampled dimensions); models::AttainmentSchoolSet integrates every
// intercept out and sums sufficient statistics, which is exact and faster for both runs.
// Integrating a_s out of a school's terms gives models::attainmentSchoolLogLik.

#include "models/scots_attainment.h"

#include <Eigen/Core>

#include <vector>

namespace evx::models {

class SampledInterceptSchools {
public:
    // sampled: real schools (within-group weight 1), whose intercepts follow θ in the sampler's
    // vector in this order; virtual: weighted schools with the intercept integrated out.
    SampledInterceptSchools(const std::vector<const Pupils*>& sampled,
                            const std::vector<const Pupils*>& virtual_,
                            const std::vector<double>& virtualWeights);

    int dimension() const { return kAttainmentDim + m_sampledSchools; }

    // t = (θ, a_1, …, a_S): the log likelihood above plus the intercepts' prior, without log p(θ).
    double logLik(const Eigen::VectorXd& t) const;

private:
    void findScoreLattice(const std::vector<double>& scores);
    void scorePrecisions(double g0, double gv, Eigen::ArrayXd& precision) const;

    // Every school's pupils, concatenated, sampled schools first; school s holds
    // [m_start[s], m_start[s + 1]). A pupil's variance depends on it only through the verbal
    // score, so each step computes one precision per distinct score (m_verbalScores; on a lattice
    // of scores, a geometric sequence) and every pupil looks its precision up (m_scoreIndex): a
    // cost per pupil that does not favour either run.
    std::vector<double> m_attain, m_verbal, m_female, m_social;
    std::vector<int> m_scoreIndex;
    Eigen::ArrayXd m_verbalScores;
    std::vector<int> m_latticeIndex; // per distinct score, k with v = v_0 + k Δ; empty: no lattice
    double m_latticeStep = 0;
    std::vector<std::size_t> m_start;
    std::vector<double> m_sumVerbal; // per sampled school: Σ v_i (Σ log sd_i = n γ_0 + γ_v Σ v_i)
    // Per virtual school: its weight w_k and within-group weight ω_k; and over them, the weighted
    // pupils Σ_k w_k ω_k n_k and verbal scores Σ_k w_k ω_k Σ_i v_i (the variances' log terms).
    Eigen::ArrayXd m_virtualWeight, m_virtualOmega;
    double m_virtualPupils = 0, m_virtualSumVerbal = 0;
    int m_sampledSchools = 0;
};

} // namespace evx::models
