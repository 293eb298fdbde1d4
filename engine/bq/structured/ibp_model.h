#pragma once
// The linear-Gaussian IBP model (BQ paper Sec. 1.8, Fig. 1.4; METHODS.md §2b, which corrects
// (1.68) and (1.69)). X = ZA + ε: X is N × D, Z an N × K binary feature matrix, A_kd ~ N(0, σ_A²),
// ε_nd ~ N(0, σ_X²) (σ's are sds). A integrated out, with r = σ_X²/σ_A²:
//   log p(X | Z) = −tr(Xᵀ(I − Z(ZᵀZ + rI)⁻¹Zᵀ)X)/(2σ_X²) − (ND/2) log 2π − (N − K)D log σ_X
//                  − KD log σ_A − (D/2) log |ZᵀZ + rI|                                   (form a)
//               = Σ_d log N(x_d | 0, σ_A² ZZᵀ + σ_X² I)                                   (form b)
// Form (b) sees Z only through ZZᵀ (zero columns change nothing).
// The equivalence-class (left-ordered form) prior of the infinite IBP, H_N the N-th harmonic
// number, K_h the number of columns of non-zero binary type h, m_k the ones in column k:
//   P([Z]) = α^{K₊} / Π_h K_h! · exp(−α H_N) · Π_k (N − m_k)! (m_k − 1)! / N!,
// i.e. the count of each type h with m ones is Poisson(α (N − m)! (m − 1)! / N!) independently.

#include "bq/structured/structures.h"

#include <Eigen/Dense>

#include <cstdint>
#include <random>
#include <vector>

namespace evx::bq::structured {

// Griffiths & Ghahramani's toy data: 6 × 6 images (D = 36) built from 4 base features, one in
// each 3 × 3 corner (pixel value 1): a plus (top left), a box outline (top right), an X (bottom
// left) and an L (bottom right). Each row has each feature on with probability 1/2, A = the
// base features, noise sd σ_X = 0.5. Row n depends only on the seed and n (a std::mt19937_64
// drawn row by row), so the first rows of a larger N are the same data.
struct IbpToyData {
    Eigen::MatrixXd x;     // N × 36
    FeatureMatrix zTrue;   // N × 4
    Eigen::MatrixXd bases; // 4 × 36
};
constexpr int kIbpImageSide = 6;
constexpr int kIbpToyD = 36;
constexpr double kIbpToySigmaX = 0.5;
Eigen::MatrixXd ibpToyBases();
IbpToyData makeIbpToyData(int n, std::uint64_t seed);

// Form (a): throws NumericalError if ZᵀZ + rI cannot be factored.
double ibpLogLikelihood(const Eigen::MatrixXd& x, const FeatureMatrix& z, double sigmaX, double sigmaA);
// Form (b), column by column, by a Cholesky of σ_A² ZZᵀ + σ_X² I.
double ibpLogLikelihoodColumns(const Eigen::MatrixXd& x, const FeatureMatrix& z, double sigmaX,
                               double sigmaA);

// Form (b) from ZZᵀ alone: ZZᵀ = U Λ Uᵀ once, q_i = ‖(UᵀX)_i‖², then for each (σ_X, σ_A)
//   log p = −½ Σ_i q_i / (σ_A² λ_i + σ_X²) − (D/2) Σ_i log(σ_A² λ_i + σ_X²) − (ND/2) log 2π,
// O(N) per evaluation.
class IbpGramLikelihood {
public:
    IbpGramLikelihood(const Eigen::MatrixXd& x, const Eigen::MatrixXd& zzt);
    double logLikelihood(double sigmaX, double sigmaA) const;

private:
    Eigen::VectorXd m_lambda; // eigenvalues of ZZᵀ, clamped at 0
    Eigen::VectorXd m_q;      // squared norms of the rows of UᵀX
    double m_d = 0;
};

double harmonicNumber(int n);
// log of the Poisson rate of a column type with m ones among N rows: α (N − m)! (m − 1)! / N!.
double ibpLogTypeRate(int n, int m, double alpha);

// The column types of Z as bit masks (bit i = row i; N ≤ 63), all-zero columns dropped, sorted:
// the class [Z] (its left-ordered form up to the order of equal columns).
using IbpClassKey = std::vector<std::uint64_t>;
IbpClassKey ibpClassKey(const FeatureMatrix& z);
double ibpLogPrior(const IbpClassKey& key, int n, double alpha);
double ibpLogPrior(const FeatureMatrix& z, double alpha);

// The Indian buffet: customer i takes dish k with probability m_k / i, then Poisson(α / i) new.
FeatureMatrix drawIbpPrior(int n, double alpha, std::mt19937_64& rng);

} // namespace evx::bq::structured
