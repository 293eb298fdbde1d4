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

} // namespace evx::models
