#pragma once
// Densities, log-sum-exp and divergences shared by the whole engine: one tested version of each
// instead of a copy per scenario. Every formula is a standard closed form:
//   ln N(y; μ, σ²)   = −½ z² − ln σ − ½ ln 2π,  z = (y − μ)/σ
//   ln B(a, b)       = ln Γ(a) + ln Γ(b) − ln Γ(a + b)
//   ln BetaBin(y; n, α, β) = ln C(n, y) + ln B(α + y, β + n − y) − ln B(α, β)
//   KL(Beta(a₁, b₁) ‖ Beta(a₂, b₂)) = ln B(a₂, b₂) − ln B(a₁, b₁) + (a₁ − a₂) ψ(a₁) + (b₁ − b₂) ψ(b₁)
//                                     + (a₂ − a₁ + b₂ − b₁) ψ(a₁ + b₁)
// (all in nats). They are written out rather than taken from boost::math distributions because
// those check their arguments on every call and throw, which the grid loops here cannot afford;
// the tests compare each with Boost.Math.

#include <Eigen/Core>

#include <span>

namespace evx::stats {

// ½ ln 2π as the engine has always evaluated it: ½ ln of the double nearest 2π (one ulp below
// the correctly rounded ½ ln 2π; keeping it keeps every result bit-for-bit).
inline constexpr double kHalfLog2Pi = 0x1.d67f1c864beb4p-1;
// √(2π) as std::sqrt(2 * std::numbers::pi) evaluates it (the correctly rounded value).
inline constexpr double kSqrt2Pi = 0x1.40d931ff62705p+1;

// ln Σ_i exp(v_i), shifted by the largest term; the largest term itself when it is not finite
// (−∞ for an empty span or when every term is −∞).
double logSumExp(std::span<const double> values);
double logSumExp(const Eigen::ArrayXd& values);

// ln N(y; mean, sd²) for sd > 0.
double normalLogPdf(double y, double mean, double sd);
// ln N(y; mean, variance) written in the variance: −½ (y − mean)²/v − ½ ln(2π v).
double normalLogPdfVar(double y, double mean, double variance);
// N(y; mean, sd²).
double normalPdf(double y, double mean, double sd);
// N(y; mean, variance) written in the variance: exp(−½ (y − mean)²/v) / √(2π v) (the kernel means
// of a Gaussian kernel, BQ paper Sec. 1.6, are densities of this form).
double normalPdfVar(double y, double mean, double variance);

// ln B(a, b) for a, b > 0.
double logBeta(double a, double b);
// ln P(y | n, α, β) of the beta-binomial, 0 ≤ y ≤ n.
double betaBinomialLogPmf(int y, int n, double alpha, double beta);

// KL(Beta(a1, b1) ‖ Beta(a2, b2)), nats; clamped at 0 (rounding can leave −1e-15 for equal Betas).
double klBeta(double a1, double b1, double a2, double b2);

} // namespace evx::stats
