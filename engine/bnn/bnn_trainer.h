#pragma once
// Training a BNN (+LV) by mean-field VI, with or without NCAI (bnn-latent-variables-ncai,
// Secs. 3, 6 and App. F; METHODS.md §5), in chunks a scenario can drive and cancel.
//
// Variants (ids are stable: sessions and tables use them):
//   bnn-mfvi  a BNN without z, random (Glorot-normal) initialisation, −ELBO
//   mfvi      BNN+LV, random initialisation (μ_z ~ N(0, initLatentMeanSd²)), −ELBO
//   ncai-0    BNN+LV, the deterministic warm start (bnn/warm_start.h) then −ELBO (NCAI_λ=0)
//   ncai      BNN+LV, the warm start then −ELBO + the penalties of Eq. 27 (NCAI_λ)
//
// Each epoch is one full-batch step: the empirical-Bayes prior variances are set in closed form
// from the current q (bnn/elbo.h; unless fixed), then one reparameterised draw of (W, z) (or
// samplesPerStep draws) gives the loss and its gradient, and Adam takes one step. The recorded
// ELBO is that one-draw estimate at the parameters before the step.
//
// A non-finite loss, gradient or parameter stops the run with status Diverged; the snapshot then
// holds the last state whose loss was finite. Determinism: one std::mt19937_64 seeded from
// config.seed drives initialisation and every draw, so equal seeds give bit-identical runs.

#include "bnn/adam.h"
#include "bnn/bnn_loss.h"
#include "bnn/warm_start.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace evx::bnn {

enum class Variant { BnnMfvi, Mfvi, Ncai0, Ncai };

std::string variantId(Variant v);
Variant variantFromId(const std::string& id); // throws InvalidParameter naming the valid ids
std::vector<Variant> allVariants();
bool hasLatent(Variant v);
bool usesWarmStart(Variant v);

struct BnnConfig {
    Variant variant = Variant::Mfvi;
    std::vector<int> hidden{50};               // METHODS.md §5: 5–50 units, 1–2 layers
    AdamOptions adam;                          // learning rate 0.01
    int samplesPerStep = 1;                    // reparameterised draws of (W, z) per step
    double noiseSd = 0.316227766016838;        // σ_ε (σ_ε² = 0.1): fixed, as the paper, unless learned
    bool learnNoise = false;                   // learn log σ_ε with the rest (starting from noiseSd)
    std::optional<double> fixedWeightVariance; // σ_w²; empirical Bayes when empty
    std::optional<double> fixedLatentVariance; // σ_z²; empirical Bayes when empty
    double ebAlpha = 3, ebBeta = 0.5;          // the InverseGamma hyperprior of both
    int warmStartEpochs = 2000;                // ncai-0 and ncai only
    NcaiPenaltyOptions penalties;              // ncai only
    double initWeightSd = 0.01;                // q(W) sds start near this (log-normal jitter of sd 0.1)
    double initLatentSd = 0.1;                 // q(z_n) sds likewise
    double initLatentMeanSd = 0.1;             // mfvi's random μ_z
    int recordEvery = 1;                       // epochs between history records
    std::uint64_t seed = 0;
};

struct EpochRecord {
    int epoch = 0; // VI epochs done before this evaluation
    ElboValue elbo;
    NcaiPenaltyValue penalties;
    double weightVariance = 0, latentVariance = 0, noiseSd = 0;
    double elboValue() const { return -elbo.negElbo(); }
    double loss() const { return elbo.negElbo() + penalties.total(); }
};

struct BnnSnapshot {
    Variant variant = Variant::Mfvi;
    MlpShape shape;                       // inputs = D (+1 with a latent)
    Eigen::VectorXd weightMean, weightSd; // q(W); during the warm start, the point network's weights
    Eigen::VectorXd latentMean, latentSd; // q(z_n) per training datum (empty without z)
    double noiseSd = 0, weightVariance = 0, latentVariance = 0; // σ_ε, σ_w², σ_z²
    int epoch = 0;                                              // VI epochs done
    int warmStartEpochs = 0;                                    // warm-start epochs done
    double warmStartLoss = 0;                                   // the point network's loss at its last epoch
    std::vector<EpochRecord> history;
    bool hasLatent() const { return latentMean.size() > 0; }
    int inputDimension() const { return shape.inputs - (hasLatent() ? 1 : 0); }
};

enum class TrainStatus { Running, Cancelled, Diverged };

struct AdvanceResult {
    TrainStatus status = TrainStatus::Running;
    int epochsRun = 0; // warm-start and VI epochs together
};

class BnnTrainer {
public:
    // x: N × D, y: N (finite). Throws InvalidParameter on bad data or settings.
    BnnTrainer(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const BnnConfig& config);
    ~BnnTrainer();

    // Runs up to `epochs` epochs (warm start first, then VI), polling `cancelled` before each.
    // After Diverged it runs nothing. The snapshot is refreshed before it returns.
    AdvanceResult advance(int epochs, const std::function<bool()>& cancelled = {});

    const BnnSnapshot& snapshot() const { return m_snapshot; }
    TrainStatus status() const { return m_status; }
    const std::string& message() const { return m_message; } // why it diverged
    bool inWarmStart() const { return m_warmStartLeft > 0; }
    const BnnConfig& config() const { return m_config; }

private:
    void initialise();
    void finishWarmStart();
    bool warmStartEpoch();
    bool viEpoch();
    void updatePriorVariances();
    void refreshSnapshot(const Eigen::VectorXd& theta, double weightVariance, double latentVariance);
    void diverge(const std::string& why);

    BnnConfig m_config;
    Eigen::MatrixXd m_x;
    Eigen::VectorXd m_y;
    std::mt19937_64 m_rng;
    BnnLoss m_loss;
    std::unique_ptr<PointNetworkFit> m_pointFit;
    std::unique_ptr<Adam> m_adam;
    Eigen::VectorXd m_theta, m_grad, m_lastGood;
    double m_weightVariance = 1, m_latentVariance = 1;
    double m_lastGoodWeightVariance = 1, m_lastGoodLatentVariance = 1;
    std::vector<ReparamNoise> m_noise;
    int m_warmStartLeft = 0;
    int m_epoch = 0;
    TrainStatus m_status = TrainStatus::Running;
    std::string m_message;
    BnnSnapshot m_snapshot;
};

} // namespace evx::bnn
