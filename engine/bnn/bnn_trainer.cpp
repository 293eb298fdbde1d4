#include "bnn/bnn_trainer.h"

#include "core/errors.h"

#include <cmath>

namespace evx::bnn {
namespace {

void require(bool ok, const char* message)
{
    if (!ok)
        throw InvalidParameter(message);
}

bool positiveFinite(double v)
{
    return v > 0 && std::isfinite(v);
}

const BnnConfig& validated(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const BnnConfig& c)
{
    require(x.rows() >= 3 && x.cols() >= 1 && y.size() == x.rows(),
            "a BNN needs at least three data points, at least one input column and one target per row");
    require(x.allFinite() && y.allFinite(), "the BNN's data hold values that are not finite");
    require(!c.hidden.empty() && c.hidden.size() <= 4, "a BNN has one to four hidden layers");
    for (int h : c.hidden)
        require(h >= 1 && h <= 1024, "a hidden layer has 1 to 1024 units");
    require(c.samplesPerStep >= 1 && c.samplesPerStep <= 1000, "draws per step must lie in 1…1000");
    require(positiveFinite(c.noiseSd), "σ_ε must be positive and finite");
    require(!c.fixedWeightVariance || positiveFinite(*c.fixedWeightVariance),
            "a fixed σ_w² must be positive");
    require(!c.fixedLatentVariance || positiveFinite(*c.fixedLatentVariance),
            "a fixed σ_z² must be positive");
    require(positiveFinite(c.ebAlpha) && positiveFinite(c.ebBeta),
            "the InverseGamma α and β must be positive");
    require(c.warmStartEpochs >= 0, "warm-start epochs cannot be negative");
    require(positiveFinite(c.initWeightSd) && positiveFinite(c.initLatentSd) && c.initLatentMeanSd >= 0,
            "initial sds must be positive");
    require(c.recordEvery >= 1, "history is recorded every one or more epochs");
    const NcaiPenaltyOptions& p = c.penalties;
    require(positiveFinite(p.epsT) && positiveFinite(p.epsX) && positiveFinite(p.epsY),
            "ε_T, ε_x and ε_y must be positive");
    require(p.lambda1 >= 0 && p.lambda2 >= 0 && p.lambda3 >= 0 &&
                std::isfinite(p.lambda1 + p.lambda2 + p.lambda3),
            "the NCAI λ's must be non-negative and finite");
    require(positiveFinite(p.expCap) && positiveFinite(p.gradientClip),
            "the cap and the clip must be positive");
    return c;
}

Eigen::VectorXd jitteredLogSd(Eigen::Index n, double sd, std::mt19937_64& rng)
{
    std::normal_distribution<double> normal(std::log(sd), 0.1);
    Eigen::VectorXd v(n);
    for (auto& e : v)
        e = normal(rng);
    return v;
}

} // namespace

std::string variantId(Variant v)
{
    switch (v) {
    case Variant::BnnMfvi:
        return "bnn-mfvi";
    case Variant::Mfvi:
        return "mfvi";
    case Variant::Ncai0:
        return "ncai-0";
    case Variant::Ncai:
        return "ncai";
    }
    return {};
}

std::vector<Variant> allVariants()
{
    return {Variant::BnnMfvi, Variant::Mfvi, Variant::Ncai0, Variant::Ncai};
}

Variant variantFromId(const std::string& id)
{
    for (Variant v : allVariants())
        if (variantId(v) == id)
            return v;
    throw InvalidParameter("unknown BNN variant '" + id + "' (bnn-mfvi, mfvi, ncai-0, ncai)");
}

bool hasLatent(Variant v)
{
    return v != Variant::BnnMfvi;
}

bool usesWarmStart(Variant v)
{
    return v == Variant::Ncai0 || v == Variant::Ncai;
}

BnnTrainer::BnnTrainer(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const BnnConfig& config)
    : m_config(validated(x, y, config)), m_x(x), m_y(y), m_rng(config.seed),
      m_loss(x, y, config.hidden, hasLatent(config.variant), config.learnNoise,
             config.variant == Variant::Ncai ? std::optional(config.penalties) : std::nullopt)
{
    initialise();
}

BnnTrainer::~BnnTrainer() = default;

void BnnTrainer::initialise()
{
    const ParameterLayout& l = m_loss.layout();
    m_theta.setZero(l.size());
    m_adam = std::make_unique<Adam>(l.size(), m_config.adam);
    m_snapshot.variant = m_config.variant;
    m_snapshot.shape = m_loss.shape();
    if (usesWarmStart(m_config.variant) && m_config.warmStartEpochs > 0) {
        m_pointFit = std::make_unique<PointNetworkFit>(m_x, m_y, m_config.hidden, m_config.noiseSd,
                                                       m_config.adam, m_rng);
        m_warmStartLeft = m_config.warmStartEpochs;
    } else {
        m_theta.segment(l.weightMean(), l.weights) = xavierNormalWeights(m_loss.shape(), m_rng);
    }
    m_theta.segment(l.weightLogSd(), l.weights) = jitteredLogSd(l.weights, m_config.initWeightSd, m_rng);
    if (l.latents > 0) {
        std::normal_distribution<double> normal(0, m_config.initLatentMeanSd);
        if (!usesWarmStart(m_config.variant))
            for (Eigen::Index n = 0; n < l.latents; ++n)
                m_theta(l.latentMean() + n) = normal(m_rng);
        m_theta.segment(l.latentLogSd(), l.latents) = jitteredLogSd(l.latents, m_config.initLatentSd, m_rng);
    }
    if (l.learnNoise)
        m_theta(l.logNoiseSd()) = std::log(m_config.noiseSd);
    if (usesWarmStart(m_config.variant) && m_config.warmStartEpochs == 0)
        finishWarmStart();
    m_noise.assign(m_config.samplesPerStep, {Eigen::VectorXd(l.weights), Eigen::VectorXd(l.latents)});
    updatePriorVariances();
    m_lastGood = m_theta;
    m_lastGoodWeightVariance = m_weightVariance;
    m_lastGoodLatentVariance = m_latentVariance;
    refreshSnapshot(m_theta, m_weightVariance, m_latentVariance);
}

void BnnTrainer::finishWarmStart()
{
    const ParameterLayout& l = m_loss.layout();
    if (m_pointFit) {
        m_theta.segment(l.weightMean(), l.weights) =
            embedPointWeights(m_pointFit->shape(), m_pointFit->weights(), m_loss.shape(), &m_rng);
        m_snapshot.warmStartLoss = m_pointFit->loss(m_pointFit->weights());
        m_pointFit.reset();
    } else {
        // No warm-start epochs asked for: an untrained point network is Glorot-normal too.
        m_theta.segment(l.weightMean(), l.weights) = xavierNormalWeights(m_loss.shape(), m_rng);
    }
    m_warmStartLeft = 0; // μ_z stayed 0: initialise() randomises it only without a warm start
}

bool BnnTrainer::warmStartEpoch()
{
    const double loss = m_pointFit->step();
    if (!std::isfinite(loss) || !m_pointFit->weights().allFinite()) {
        diverge("the warm-start network diverged (loss " + std::to_string(loss) +
                "); lower the learning rate");
        return false;
    }
    m_snapshot.warmStartLoss = loss;
    ++m_snapshot.warmStartEpochs;
    if (--m_warmStartLeft == 0) {
        finishWarmStart();
        updatePriorVariances();
        m_lastGood = m_theta;
        m_lastGoodWeightVariance = m_weightVariance;
        m_lastGoodLatentVariance = m_latentVariance;
    }
    return true;
}

void BnnTrainer::updatePriorVariances()
{
    const ParameterLayout& l = m_loss.layout();
    m_weightVariance = m_config.fixedWeightVariance
                           ? *m_config.fixedWeightVariance
                           : empiricalBayesVariance(m_theta.segment(l.weightMean(), l.weights),
                                                    m_theta.segment(l.weightLogSd(), l.weights),
                                                    m_config.ebAlpha, m_config.ebBeta);
    if (l.latents == 0)
        m_latentVariance = 0;
    else
        m_latentVariance = m_config.fixedLatentVariance
                               ? *m_config.fixedLatentVariance
                               : empiricalBayesVariance(m_theta.segment(l.latentMean(), l.latents),
                                                        m_theta.segment(l.latentLogSd(), l.latents),
                                                        m_config.ebAlpha, m_config.ebBeta);
}

bool BnnTrainer::viEpoch()
{
    updatePriorVariances();
    std::normal_distribution<double> normal;
    for (ReparamNoise& e : m_noise) {
        for (auto& v : e.weights)
            v = normal(m_rng);
        for (auto& v : e.latents)
            v = normal(m_rng);
    }
    const PriorSettings priors{m_config.noiseSd, m_weightVariance,
                               m_latentVariance > 0 ? m_latentVariance : 1};
    const LossTerms t = m_loss.evaluate(m_theta, m_noise, priors, &m_grad, true);
    if (!std::isfinite(t.total()) || !m_grad.allFinite()) {
        diverge("the loss diverged at epoch " + std::to_string(m_epoch) + " (" +
                (std::isfinite(t.total()) ? "its gradient is not finite" : "it is not finite") +
                "); lower the learning rate");
        return false;
    }
    if (m_epoch % m_config.recordEvery == 0)
        m_snapshot.history.push_back({m_epoch, t.elbo, t.penalties, m_weightVariance, m_latentVariance,
                                      m_loss.elbo().noiseSd(m_theta, m_config.noiseSd)});
    m_lastGood = m_theta;
    m_lastGoodWeightVariance = m_weightVariance;
    m_lastGoodLatentVariance = m_latentVariance;
    m_adam->step(m_theta, m_grad);
    if (!m_theta.allFinite()) {
        diverge("a parameter became infinite or NaN at epoch " + std::to_string(m_epoch) +
                "; lower the learning rate");
        return false;
    }
    ++m_epoch;
    return true;
}

void BnnTrainer::diverge(const std::string& why)
{
    m_status = TrainStatus::Diverged;
    m_message = why; // advance() then publishes m_lastGood and runs nothing more
}

AdvanceResult BnnTrainer::advance(int epochs, const std::function<bool()>& cancelled)
{
    AdvanceResult r;
    if (m_status == TrainStatus::Diverged) {
        r.status = m_status;
        return r;
    }
    m_status = TrainStatus::Running;
    for (int i = 0; i < epochs; ++i) {
        if (cancelled && cancelled()) {
            m_status = TrainStatus::Cancelled;
            break;
        }
        const bool ok = m_warmStartLeft > 0 ? warmStartEpoch() : viEpoch();
        if (!ok)
            break;
        ++r.epochsRun;
    }
    if (m_status == TrainStatus::Diverged)
        refreshSnapshot(m_lastGood, m_lastGoodWeightVariance, m_lastGoodLatentVariance);
    else {
        updatePriorVariances(); // the variances that go with the parameters after the last step
        refreshSnapshot(m_theta, m_weightVariance, m_latentVariance);
    }
    r.status = m_status;
    return r;
}

void BnnTrainer::refreshSnapshot(const Eigen::VectorXd& theta, double weightVariance, double latentVariance)
{
    const ParameterLayout& l = m_loss.layout();
    BnnSnapshot& s = m_snapshot;
    s.weightMean = theta.segment(l.weightMean(), l.weights);
    if (m_pointFit) // during the warm start: the point network, with no weight on z yet
        s.weightMean = embedPointWeights(m_pointFit->shape(), m_pointFit->weights(), m_loss.shape(), nullptr);
    s.weightSd = theta.segment(l.weightLogSd(), l.weights).array().exp();
    s.latentMean = theta.segment(l.latentMean(), l.latents);
    s.latentSd = theta.segment(l.latentLogSd(), l.latents).array().exp();
    s.noiseSd = m_loss.elbo().noiseSd(theta, m_config.noiseSd);
    s.weightVariance = weightVariance;
    s.latentVariance = latentVariance;
    s.epoch = m_epoch;
}

} // namespace evx::bnn
