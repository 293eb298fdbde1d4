#pragma once
// Posterior sampling for a DP mixture of Gaussians (dp_mixture.h, METHODS.md §2b) and the sample
// designs BQ uses.
//
// Collapsed Gibbs (Neal 2000, algorithm 3, conjugate normal base): point i leaves its block and
// joins block k with probability ∝ n_{−i,k} N(x_i | m_k, σ² + v_k) (m_k, v_k the posterior mean
// and variance of the block's μ without x_i) or a new block ∝ α N(x_i | λ, σ² + σ_p²).
// A mixing measure given a partition into blocks B_1..B_K (Ishwaran & James 2001):
//   μ_k ~ N(m_k, v_k), (β_1..β_K, β_0) ~ Dirichlet(|B_1|, …, |B_K|, α), G' ~ DP(α, N(λ, σ_p²)),
//   G = Σ_k β_k δ_{μ_k} + β_0 G'   (in standardised units u = (μ − λ)/σ_p).
// Designs: Posterior (Gibbs draws at the sampling settings; kDpBurnIn sweeps of burn-in, then
// one measure every kDpThin sweeps), Prior (dp_prior.h), Mixed (posterior at even positions,
// prior at odd ones, so that every prefix is half and half within one).
// A lower bound on p(x) from the partitions a chain visited: Σ_{distinct π} CRP(π | α) Π_B m(B)
// leaves out only the partitions it did not visit (each term is one of the exact sum's).

#include "bq/structured/dp_mixture.h"

#include <cstdint>
#include <random>
#include <vector>

namespace evx::bq::structured {

inline constexpr int kDpBurnIn = 100;
inline constexpr int kDpThin = 5;

class DpGibbsSampler {
public:
    // Gaussian components only (the base is conjugate); starts with every point in one block.
    DpGibbsSampler(std::vector<double> x, const DpSettings& settings, std::uint64_t seed);

    void sweep();
    const std::vector<int>& labels() const { return m_labels; } // block labels 0..K−1
    int blockCount() const { return int(m_counts.size()); }
    std::mt19937_64& rng() { return m_rng; }

private:
    std::vector<double> m_x;
    DpSettings m_settings;
    std::mt19937_64 m_rng;
    std::vector<int> m_labels;
    std::vector<int> m_counts;
    std::vector<double> m_sums;
};

// A draw of G given the partition `labels` of x (Gaussian components).
MixingMeasure drawDpPosteriorMeasure(const std::vector<double>& x, const std::vector<int>& labels,
                                     const DpSettings& settings, std::mt19937_64& rng);

enum class DpDesign { Posterior, Prior, Mixed };

struct DpDesignSample {
    MixingMeasure measure;
    bool fromPosterior = false;
    std::vector<int> labels; // the chain's partition for a posterior draw, empty otherwise
};

// Draws the design's samples one by one, so that a caller can publish and poll between them.
class DpDesignSampler {
public:
    DpDesignSampler(std::vector<double> x, const DpSettings& samplingSettings, DpDesign design,
                    std::uint64_t seed);
    DpDesignSample next();

private:
    DpGibbsSampler m_chain;
    std::vector<double> m_x;
    DpSettings m_settings;
    DpDesign m_design;
    std::mt19937_64 m_priorRng;
    bool m_burnedIn = false;
    int m_drawn = 0;
};

// log Σ over the distinct partitions in `partitions` of CRP(π | α) Π_B m(B) at `settings`
// (Student-t blocks by quadrature, each distinct block once).
double dpLogPartitionSum(const std::vector<double>& x, const std::vector<std::vector<int>>& partitions,
                         const DpSettings& settings);

// The lower bound from a short chain at the query settings: Gibbs at the query's λ, σ, σ_p, α
// (Gaussian components), `sweeps` sweeps after a burn-in of sweeps/4, its visited partitions
// scored at the query settings (with its components).
double dpShortChainLogLowerBound(const std::vector<double>& x, const DpSettings& query, int sweeps,
                                 std::uint64_t seed);

} // namespace evx::bq::structured
