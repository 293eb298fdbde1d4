#pragma once
// The O(N²) core of the Henze–Zirkler statistic and its gradient (bnn/ncai_penalties.h): with
// E_ij = exp(−c (u_i − u_j)²),
//   returns Σ_{i<j} E_ij, and when s0, s1 are given fills s0_k = Σ_{j≠k} E_kj, s1_k = Σ_{j≠k} E_kj u_j.
//
// Written by hand because it dominates an NCAI epoch: Eigen's vectorised exp divides (Padé
// form) and costs ~7 ns per double here, as much as std::exp. This kernel makes one pass per
// row with AVX2 + FMA when the CPU has them (chosen at run time, so no build flag) or else
// SSE2 (part of x86-64), using symmetry (N²/2 exponentials) and an exp for arguments ≤ 0: k = round(t/ln 2),
// r = t − k ln 2 (two-part ln 2, |r| ≤ ln2/2), e^r by its Taylor polynomial to degree 13 (remainder < 5e-18
// relative; Estrin's scheme), scaled by 2^k through the exponent bits. Arguments below −700 (E < 1e-304) are
// clamped there. Elsewhere than x86-64 it falls back to std::exp.

#include <Eigen/Core>

namespace evx::bnn {

// Which code path: the fastest the CPU runs (AVX2 + FMA when present, checked at run time),
// the x86-64 baseline (SSE2), or plain scalar code with std::exp. Tests compare all three.
enum class SimdLevel { Best, Baseline, Scalar };

double gaussianPairSums(const Eigen::ArrayXd& u, double c, Eigen::ArrayXd* s0, Eigen::ArrayXd* s1,
                        SimdLevel level = SimdLevel::Best);

// The kernel's exponential, exposed for its accuracy test: exp(t) for t ≤ 0.
double nonPositiveExp(double t);

} // namespace evx::bnn
