#pragma once
// Σ_s w_s log p(pupils of school s | θ) for a fixed set of weighted schools of the attainment
// model (scots_attainment.h; WVO paper Sec. 4.3), evaluated from sufficient statistics built once,
// so a sampler step costs O(cells) instead of O(pupils) and one exp per distinct verbal score
// instead of one per pupil. With prec(u) = exp(−2(γ_0 + γ_v u)), which depends on a pupil only
// through the verbal score u, and ω_s the school's within-group weight:
//   P_s = ω_s Σ_u prec(u) n_su,   R_s = ω_s Σ_u prec(u) (Y_su − β_v u n_su − β_f F_su − β_c C_su)
// over the cells (s, u) of pupils of school s with verbal score u (n_su pupils, sums Y, F, C of
// attain, female, social); the residual sum of squares enters the school marginal linearly, so it
// is collected over all schools per verbal score:
//   Σ_s w_s ω_s Σ_i prec_i r_i² = Σ_u prec(u) [ N_u (ȳ_u − β_f f̄_u − β_c c̄_u − β_v u)² + qᵀ S_u q ],
// q = (1, −β_f, −β_c), with N_u, the means ȳ, f̄, c̄ and the centred scatter S_u of (y, f, c)
// weighted by w_s ω_s (centred so that the square does not cancel). Each school then adds
//   −½ w_s [ω_s n_s log 2π + ω_s Σ_i 2 log sd_i + log(1 + s_a² P_s) − (R_s + α_0/s_a²)²/(P_s + 1/s_a²)
//           + α_0²/s_a²] − ½ (its share of the residual sum above),
// which is models::attainmentSchoolLogLik summed with weights, up to floating-point reassociation.
// Schools of weight 0 are left out, as a sum of w_s·(finite) would have them contribute nothing.

#include "models/scots_attainment.h"

#include <Eigen/Core>

#include <array>
#include <vector>

namespace evx::models {

class AttainmentSchoolSet {
public:
    // schools[s] with weights[s] ≥ 0 (same length); each school keeps its own within-group weight.
    AttainmentSchoolSet(const std::vector<const Pupils*>& schools, const std::vector<double>& weights);

    double logLik(const Eigen::VectorXd& theta) const; // Σ_s w_s log p(school s | θ)

    int cells() const { return static_cast<int>(m_cellVerbal.size()); } // (school, verbal score) cells
    int verbalScores() const { return static_cast<int>(m_verbal.size()); }

private:
    std::vector<double> m_verbal; // distinct verbal scores u
    // Per verbal score: N_u, means (ȳ, f̄, c̄), centred scatter (yy, yf, yc, ff, fc, cc).
    std::vector<double> m_count;
    std::vector<std::array<double, 3>> m_mean;
    std::vector<std::array<double, 6>> m_scatter;
    // Cells of each school, contiguous: verbal-score index and ω-scaled n, Y, F, C.
    std::vector<int> m_cellVerbal;
    std::vector<double> m_cellN, m_cellY, m_cellF, m_cellC;
    std::vector<int> m_schoolEnd; // one past each school's last cell
    std::vector<double> m_schoolWeight;
    double m_constant = 0;    // −½ Σ_s w_s ω_s n_s log 2π
    double m_logSdCount = 0;  // Σ_s w_s ω_s n_s (coefficient of γ_0 in Σ log sd)
    double m_logSdVerbal = 0; // Σ_s w_s ω_s Σ_i v_i (coefficient of γ_v)
    double m_weightSum = 0;   // Σ_s w_s
};

} // namespace evx::models
