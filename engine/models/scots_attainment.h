#pragma once
// Scottish secondary-school attainment (Paterson 1991; ScotsSec in R package mlmRev), read
// from a CSV the user opens (columns verbal, attain, sex, social, second), and the
// mixed-effects model with regression on the mean and on the variance used by the WVO
// scenario. The WVO paper's model (29) was lost in extraction; this one has
//   attain_i ~ N(a_s + β_v v_i + β_f f_i + β_c c_i, exp(2 (γ_0 + γ_v v_i)))
//   a_s ~ N(α_0, s_a²)                                   (school s of pupil i)
// with v the standardised verbal score, f = 1 for girls, c the standardised social class.
// θ = (α_0, log s_a, β_v, β_f, β_c, γ_0, γ_v) are the hyperparameters. Given θ a school's
// intercept enters linearly with known variances, so it is integrated out exactly:
//   log ∫ Π_i N(r_i | a, v_i) N(a | α_0, s_a²) da
//     = −½ Σ log(2π v_i) − ½ Σ r_i²/v_i − ½ log(1 + s_a² P) + ½ (R + α_0/s_a²)²/(P + 1/s_a²) − ½ α_0²/s_a²,
// with r_i = y_i − x_i β, P = Σ 1/v_i, R = Σ r_i/v_i.
//
// Citation: Paterson, L. (1991). Socio-economic status and educational attainment: a
// multidimensional and multilevel study. Evaluation and Research in Education 5, 97–121.

#include <Eigen/Core>

#include <random>
#include <string>
#include <vector>

namespace evx::models {

struct Pupils {
    std::vector<double> attain, verbal, female, social; // verbal and social standardised
    // Within-group weight ω of every pupil (Problem 3 of the WVO paper): the likelihood
    // enters as Π_i N(y_i | ·)^ω, so a virtual school of n pupils can stand for a school of
    // ω·n. 1 for real schools.
    double withinWeight = 1;
};

struct AttainmentData {
    std::vector<Pupils> schools; // indexed by secondary-school code − 1 (codes 1..S)
    int pupils = 0;
};

// Reads and validates the CSV (clear InvalidParameter errors for a malformed file, missing
// columns, non-numeric cells, a sex other than M/F, or school codes that are not 1..S).
AttainmentData readAttainment(const std::string& path);

inline constexpr int kAttainmentDim = 7;

// log p(θ): weakly informative Normal priors on every coordinate.
double attainmentLogPrior(const Eigen::VectorXd& theta);

// log p(pupils of one school | θ), the school intercept integrated out (formula above; with a
// within-group weight ω, N(r | a, v)^ω = (2πv)^{−ω/2} exp(−ω (r − a)²/(2v)) scales every sum by ω).
double attainmentSchoolLogLik(const Pupils& school, const Eigen::VectorXd& theta);

// The same from a school's sums over its pupils, before the within-group weight ω: n pupils,
// sumLogSd = Σ log sd_i, quad = Σ r_i²/v_i, p = Σ 1/v_i, r = Σ r_i/v_i (r_i = y_i − β·x_i);
// α_0 and s_a² from θ, computed once by callers that sum many schools.
double attainmentSchoolMarginal(double n, double sumLogSd, double quad, double p, double r, double omega,
                                double alpha0, double sa2);

// Weighted virtual schools that share one set of pupils' covariates (a design) and differ in
// their attainments ỹ_k: Σ_k w_k log p(ỹ_k | θ) costs O(n²) per θ instead of O(K n), because
// with prec_i = exp(−2(γ_0 + γ_v v_i)) and μ_i = β·x_i shared by the K schools every per-school
// sum in attainmentSchoolLogLik is linear in ỹ_k:
//   Σ_k w_k quad_k = ω Σ_i prec_i (S2_i − 2 μ_i S1_i + μ_i² S0)
//   Σ_k w_k b_k²   = ω² precᵀ M prec + 2 ω D Σ_i prec_i S1_i + D² S0,  D = α_0/s_a² − ω Σ_i prec_i μ_i
// with S0 = Σ_k w_k, S1_i = Σ_k w_k ỹ_ki, S2_i = Σ_k w_k ỹ_ki², M_ij = Σ_k w_k ỹ_ki ỹ_kj.
class SharedDesignSchools {
public:
    // design: the covariates and within-group weight ω (its attain is ignored); attain[k]: school
    // k's n attainments; weights[k] ≥ 0.
    SharedDesignSchools(Pupils design, const std::vector<std::vector<double>>& attain,
                        const std::vector<double>& weights);
    double logLik(const Eigen::VectorXd& theta) const; // Σ_k w_k log p(ỹ_k | θ)

private:
    Pupils m_design;
    double m_s0 = 0;
    Eigen::VectorXd m_s1, m_s2;
    Eigen::MatrixXd m_m;
};

// Covariates of n pupils drawn (with replacement, school then pupil) from `pool` for virtual
// schools that share them: K schools on one design see only n covariate points, and a random
// design distorts the information about β and γ_v by O(1/√n). Of `candidates` random designs
// the one whose moments E[u uᵀ], u = (1, v, f, c, v²), are closest (Frobenius norm) to those of
// all pupils in the pool is returned (attain empty, within-group weight 1).
Pupils momentMatchedDesign(const std::vector<const Pupils*>& pool, int n, int candidates,
                           std::mt19937_64& rng);

} // namespace evx::models
