#pragma once
// Eight schools (Rubin 1981; Gelman et al., BDA3 Sec. 5.5): estimated coaching effects
// y_j on SAT-V scores with known standard errors σ_j. The hierarchical model
//   y_j ~ N(θ_j, σ_j²),  θ_j ~ N(μ, τ²),  p(μ, τ) uniform on a box
// reduces, with the school effects integrated out, to
//   p(μ, τ | y) ∝ p(μ, τ) Π_j N(y_j | μ, σ_j² + τ²)        (BDA3 eq. 5.17 ff.)
// A school (one group) has the exact marginal N(y | μ, σ² + τ²): the model is conjugate.
//
// Data: Rubin, D. B. (1981). Estimation in parallel randomized experiments. Journal of
// Educational Statistics 6(4), 377–401; as in stan-dev/posteriordb eight_schools.json
// (shared/data/SOURCES.md).

#include <array>

namespace evx::models {

struct School {
    char name;
    double y;     // estimated treatment effect
    double sigma; // its standard error
};

inline constexpr std::array<School, 8> kEightSchools{{
    {'A', 28, 15},
    {'B', 8, 10},
    {'C', -3, 16},
    {'D', 7, 11},
    {'E', -1, 9},
    {'F', 1, 11},
    {'G', 18, 10},
    {'H', 12, 18},
}};

// The uniform prior's box; it is also the grid's range.
inline constexpr double kSchoolsMuLo = -30, kSchoolsMuHi = 40;
inline constexpr double kSchoolsTauLo = 0, kSchoolsTauHi = 40;

// log N(y | μ, σ² + τ²): one school with its effect integrated out.
double schoolLogMarginal(double y, double sigma, double mu, double tau);

// log p(μ, τ): 0 inside the box, -inf outside.
double schoolsLogPrior(double mu, double tau);

} // namespace evx::models
