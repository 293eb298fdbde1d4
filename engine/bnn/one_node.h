#pragma once
// The one-node BNN+LV of Theorem 1 (bnn-latent-variables-ncai, Sec. 4.1; METHODS.md §5):
//   y = LeakyReLU(W (x + z)) + ε,  z ~ N(0, σ_z²),  ε ~ N(0, σ_ε²),  W ~ N(0, σ_w²).
// Every member of the family Ŵ = W/C, ẑ = (C − 1)x + Cz reproduces the same outputs, so along
// it the joint density changes only through p(ẑ) and p(Ŵ) — and for C between
// C_lo = (m2 − σ_z²)/(m2 + σ_z²) and 1 (m2 the mean of x²) the memorising ẑ are more probable
// than the true z, with the maximiser tending to C* = m2/(m2 + σ_z²) as N grows.

#include <Eigen/Core>

#include <cstdint>

namespace evx::bnn {

struct OneNodeModel {
    double w = 1;      // the true weight
    double sigmaZ = 1; // sd of the latent input
    double sigmaEps = 0.1;
    double wPriorSd = 3.1622776601683795; // σ_w² = 10, as the paper's Fig. 2
    double slope = 0.01;                  // LeakyReLU's negative slope
};

struct OneNodeData {
    Eigen::VectorXd x, z, y;
};

double leakyRelu(double a, double slope);

// n draws with x ~ N(xMean, 1).
OneNodeData simulateOneNode(const OneNodeModel& model, int n, double xMean, std::uint64_t seed);

// log p(y, ẑ, Ŵ) at the family member C ≠ 0: the likelihood of y under (Ŵ, ẑ), computed
// as such (it equals the truth's to rounding), plus log p(ẑ) and log p(Ŵ).
double familyLogDensity(const OneNodeModel& model, const OneNodeData& data, double c);

struct FamilyConstants {
    double cLo = 0, cStar = 0;
};
FamilyConstants familyConstants(double meanXSquared, double sigmaZ);

struct FamilyMaximum {
    double c = 0;
    bool atBound = false; // the maximiser sits at an end of the search interval
};
// The maximiser of familyLogDensity over C ∈ [lo, hi] (lo > 0) by Brent's method: the density
// is concave in C > 0 (a concave quadratic in C from p(ẑ), −W²/(2σ_w²C²) from p(Ŵ)).
FamilyMaximum familyMaximiser(const OneNodeModel& model, const OneNodeData& data, double lo = 1e-3,
                              double hi = 3);

} // namespace evx::bnn
