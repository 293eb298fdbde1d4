#pragma once
// The 1-D integrands of bq-1d, as log ℓ(x), and their true Z = ∫ ℓ(x) N(x | b, s²) dx by
// adaptive Gauss–Kronrod quadrature (Boost.Math).

#include <functional>
#include <string>
#include <vector>

namespace evx::scenarios::quadrature {

enum class Integrand { Peaked, TwoMode, WideBump, DropBall };

std::vector<std::string> integrandNames();
// Floored at kLogFloor: ℓ below e^-700 is zero in double precision anyway, and the GP on
// log ℓ needs finite values.
double logIntegrand(Integrand which, double x);
double trueIntegral(Integrand which, double priorMean, double priorSd);
// ∫ exp(logL(x)) N(x | b, s²) dx by the same rule, for any integrand; with power 1 or 2 it
// returns ∫ x^power exp(logL) N dx instead (posterior moments).
double integrateAgainstPrior(const std::function<double(double)>& logL, double priorMean, double priorSd,
                             int power = 0);

inline constexpr double kLogFloor = -700;

// The drop-of-a-ball virtual-evidence likelihood (ue-drop-ball, uncertain-evidence paper
// Sec. 4.2): ℓ(g) = ∫ N(t | sqrt(2h/g), σ_model²) N(t̂ | t, σ_obs²) dt = N(t̂ | sqrt(2h/g), σ_model² + σ_obs²).
struct DropBallEvidence {
    double height = 1, tObs = 0.43, sigmaModel = 0.005, sigmaObs = 0.025;
    double logLikelihood(double g) const;
};

} // namespace evx::scenarios::quadrature
