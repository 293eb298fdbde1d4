#pragma once
// Rat tumours (Tarone 1982; Gelman et al., BDA3 Table 5.1, Sec. 5.3): tumours y_j among
// n_j control rats in 71 experiments (the last is the "current" one). The model
//   y_j ~ Bin(n_j, θ_j),  θ_j ~ Beta(α, β),  p(α, β) ∝ (α + β)^(−5/2)
// reduces, with the rates integrated out, to the beta-binomial
//   p(y_j | α, β) = C(n_j, y_j) B(α + y_j, β + n_j − y_j) / B(α, β),
// and the posterior is tabulated on (u, v) = (log(α/β), log(α + β)) with the Jacobian αβ
// (BDA3 eq. 5.8). A lab's rate given (α, β) is Beta(α + y, β + n − y) (conjugate).
//
// Data: Tarone, R. E. (1982). The use of historical control information in testing for a
// trend in proportions. Biometrics 38, 215–220. BDA3 Table 5.1, as in Gelman's rats.asc
// (shared/data/SOURCES.md; y sums to 267, n to 1739).

#include <array>
#include <cmath>

namespace evx::models {

struct Lab {
    int y; // rats with a tumour
    int n; // rats in the group
};

inline constexpr std::array<Lab, 71> kRatTumors{{
    {0, 20},  {0, 20},  {0, 20},  {0, 20}, {0, 20}, {0, 20}, {0, 20}, {0, 19},  {0, 19}, {0, 19}, {0, 19},
    {0, 18},  {0, 18},  {0, 17},  {1, 20}, {1, 20}, {1, 20}, {1, 20}, {1, 19},  {1, 19}, {1, 18}, {1, 18},
    {3, 27},  {2, 25},  {2, 24},  {2, 23}, {2, 20}, {2, 20}, {2, 20}, {2, 20},  {2, 20}, {2, 20}, {1, 10},
    {5, 49},  {2, 19},  {5, 46},  {2, 17}, {7, 49}, {7, 47}, {3, 20}, {3, 20},  {2, 13}, {9, 48}, {10, 50},
    {4, 20},  {4, 20},  {4, 20},  {4, 20}, {4, 20}, {4, 20}, {4, 20}, {10, 48}, {4, 19}, {4, 19}, {4, 19},
    {5, 22},  {11, 46}, {12, 49}, {5, 20}, {5, 20}, {6, 23}, {5, 19}, {6, 22},  {6, 20}, {6, 20}, {6, 20},
    {16, 52}, {15, 46}, {15, 47}, {9, 24}, {4, 14},
}};

// log p(u, v): the prior (α + β)^(−5/2) times the Jacobian αβ of (α, β) → (u, v).
double ratsLogPrior(double u, double v);

// α and β from (u, v) = (log(α/β), log(α + β)).
inline double ratsAlpha(double u, double v)
{
    return std::exp(v) / (1 + std::exp(-u));
}
inline double ratsBeta(double u, double v)
{
    return std::exp(v) / (1 + std::exp(u));
}

} // namespace evx::models
