#pragma once
// The f-divergences of the generalised-Bayes paper (METHODS.md §4), written so that
// D_f(p_θ ‖ g) = E_g[f(r)] with r = p(x | θ) / g(x), and the Jensen–Shannon distance used to
// score a posterior against the reference.
//
//   KL                 f(r) = −log r
//   squared Hellinger  f(r) = 1 − √r
//   TVD                f(r) = ½ |r − 1|
//   α (0 < α < 1)      f(r) = (1 − r^(1−α)) / (α (1 − α))
//
// The paper's Table 1 prints these garbled; the forms above match its definitions and the
// check values of METHODS §4.

#include <Eigen/Core>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace evx::genbayes {

enum class Divergence { Tvd, Hellinger, Alpha05, Alpha06, Alpha07, Alpha08, Alpha09, Kl };

inline constexpr Divergence kAllDivergences[] = {
    Divergence::Tvd,     Divergence::Hellinger, Divergence::Alpha05, Divergence::Alpha06,
    Divergence::Alpha07, Divergence::Alpha08,   Divergence::Alpha09, Divergence::Kl};

std::string divergenceId(Divergence d);    // "tvd", "hellinger", "alpha-0.5", …, "kl"
std::string divergenceLabel(Divergence d); // "TVD", "squared Hellinger", "α = 0.5", …, "KL"
std::optional<Divergence> divergenceFromId(const std::string& id);
std::vector<std::string> divergenceIds(); // in kAllDivergences order, for choice parameters

// f at r = exp(logRatio), exactly as the table above (no clipping).
double fOfLogRatio(Divergence d, double logRatio);

// f after clipping log r to [−5, 3] (TVD: [−5, 0]) as the paper does before every estimate:
// bounded values keep one wild classifier logit from dominating D̂_f.
double clippedF(Divergence d, double logRatio);
// The mean of clippedF over many log-ratios, as whole-array operations: D̂_f at one θ, which
// the reference evaluates at every grid point.
double meanClippedF(Divergence d, const Eigen::VectorXd& logRatios);

// D_f(p ‖ g) = Σ_x g(x) f(p(x)/g(x)) over x = 0, 1, …, until g's remaining mass is below
// 1e-16; both given as log-pmfs. A closed-form oracle for teaching and tests.
double discreteDivergence(Divergence d, const std::function<double(int)>& logP,
                          const std::function<double(int)>& logG);

// D_f(p ‖ g) = ∫ g f(p/g) dx by adaptive Gauss–Kronrod over [lo, hi] (split at the given
// breakpoints, e.g. a Laplace density's kink); log-densities.
double continuousDivergence(Divergence d, const std::function<double(double)>& logP,
                            const std::function<double(double)>& logG, double lo, double hi,
                            const std::vector<double>& breakpoints = {});

// √(½ KL(P ‖ M) + ½ KL(Q ‖ M)), M = (P + Q)/2, natural log, between two non-negative weight
// vectors on one grid (normalised here); 0 for identical, √ln 2 for disjoint supports.
double jensenShannonDistance(const std::vector<double>& p, const std::vector<double>& q);
// The same on grid weight vectors, without copying them (another name: brace lists stay unambiguous).
double jensenShannonDistanceOnGrid(const Eigen::VectorXd& p, const Eigen::VectorXd& q);

} // namespace evx::genbayes
