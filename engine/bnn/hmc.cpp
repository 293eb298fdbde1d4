#include "bnn/hmc.h"

#include "core/errors.h"

#include <cmath>

namespace evx::bnn {
namespace {

constexpr double kDivergence = 1000; // energy error that counts as a divergent trajectory

// Dual averaging of log ε (Hoffman and Gelman 2014, Algorithm 5's adaptation).
class StepSizeAdaptation {
public:
    StepSizeAdaptation(double initial, double target)
        : m_mu(std::log(10 * initial)), m_target(target), m_logStep(std::log(initial))
    {
    }
    double step() const { return std::exp(m_logStep); }
    double averaged() const { return std::exp(m_logAveraged); }
    void update(double acceptance)
    {
        ++m_t;
        const double t = double(m_t);
        m_h = (1 - 1 / (t + kT0)) * m_h + (m_target - acceptance) / (t + kT0);
        m_logStep = m_mu - std::sqrt(t) / kGamma * m_h;
        const double weight = std::pow(t, -kKappa);
        m_logAveraged = weight * m_logStep + (1 - weight) * m_logAveraged;
    }

private:
    static constexpr double kGamma = 0.05, kT0 = 10, kKappa = 0.75;
    double m_mu, m_target, m_logStep, m_logAveraged = 0, m_h = 0;
    long m_t = 0;
};

} // namespace

HmcChain runHmcChain(const LogDensityWithGradient& logDensity, Eigen::VectorXd q, const HmcOptions& o,
                     std::mt19937_64& rng, const std::function<bool()>& cancelled)
{
    if (o.warmup < 0 || o.draws < 1 || o.leapfrogSteps < 1 || !(o.initialStepSize > 0) ||
        !(o.targetAcceptance > 0 && o.targetAcceptance < 1))
        throw InvalidParameter(
            "HMC needs draws ≥ 1, warm-up ≥ 0, leapfrog steps ≥ 1, a positive step size and a "
            "target acceptance in (0, 1)");
    const Eigen::Index d = q.size();
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform;
    std::uniform_int_distribution<int> steps((o.leapfrogSteps + 1) / 2, o.leapfrogSteps);
    Eigen::VectorXd grad(d), qNew(d), gradNew(d), p(d);
    double logP = logDensity(q, &grad);
    if (!std::isfinite(logP) || !grad.allFinite())
        throw NumericalError("HMC: the log density or its gradient is not finite at the starting point");

    StepSizeAdaptation adaptation(o.initialStepSize, o.targetAcceptance);
    HmcChain chain;
    chain.draws.resize(o.draws, d);
    double acceptanceSum = 0;
    for (int it = 0; it < o.warmup + o.draws; ++it) {
        if (cancelled && cancelled()) {
            chain.cancelled = true;
            chain.draws.conservativeResize(std::max(0, it - o.warmup), d);
            break;
        }
        const bool warming = it < o.warmup;
        const double eps = warming ? adaptation.step() : chain.stepSize;
        for (Eigen::Index i = 0; i < d; ++i)
            p(i) = normal(rng);
        const double h0 = -logP + 0.5 * p.squaredNorm();
        qNew = q;
        gradNew = grad;
        double logPNew = logP;
        const int l = steps(rng);
        p += 0.5 * eps * gradNew;
        for (int s = 0; s < l; ++s) {
            qNew += eps * p;
            logPNew = logDensity(qNew, &gradNew);
            if (!std::isfinite(logPNew))
                break;
            p += (s + 1 < l ? eps : 0.5 * eps) * gradNew;
        }
        const double h1 = -logPNew + 0.5 * p.squaredNorm();
        const bool divergent = !std::isfinite(h1) || !gradNew.allFinite() || h1 - h0 > kDivergence;
        const double acceptance = divergent ? 0 : std::min(1.0, std::exp(h0 - h1));
        if (!divergent && uniform(rng) < acceptance) {
            q.swap(qNew);
            grad.swap(gradNew);
            logP = logPNew;
        }
        if (warming) {
            adaptation.update(acceptance);
            if (it + 1 == o.warmup)
                chain.stepSize = adaptation.averaged();
        } else {
            acceptanceSum += acceptance;
            chain.divergences += divergent ? 1 : 0;
            chain.draws.row(it - o.warmup) = q.transpose();
        }
        if (o.warmup == 0 && it == 0)
            chain.stepSize = o.initialStepSize;
    }
    if (o.warmup == 0)
        chain.stepSize = o.initialStepSize;
    const Eigen::Index kept = chain.draws.rows();
    chain.acceptance = kept > 0 ? acceptanceSum / double(kept) : 0;
    return chain;
}

BnnLogJoint::BnnLogJoint(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<int>& hidden,
                         bool latent, double noiseSd, double weightVariance, double latentVariance)
    : m_net(MlpShape{int(x.cols()) + (latent ? 1 : 0), hidden}), m_y(y),
      m_weights(m_net.shape().parameterCount()), m_latents(latent ? int(y.size()) : 0),
      m_noiseVariance(noiseSd * noiseSd), m_weightVariance(weightVariance), m_latentVariance(latentVariance)
{
    if (x.rows() != y.size() || x.rows() < 1 || !x.allFinite() || !y.allFinite())
        throw InvalidParameter("HMC: the data must be finite, with one target per row of x");
    if (!(noiseSd > 0) || !(weightVariance > 0) || (latent && !(latentVariance > 0)))
        throw InvalidParameter("HMC: σ_ε, σ_w² and σ_z² must be positive");
    m_input.setZero(m_net.shape().inputs, x.rows());
    m_input.topRows(x.cols()) = x.transpose();
}

double BnnLogJoint::operator()(const Eigen::VectorXd& q, Eigen::VectorXd* grad)
{
    const auto w = q.head(m_weights);
    if (m_latents > 0)
        m_input.bottomRows(1) = q.tail(m_latents).transpose();
    const Eigen::MatrixXd& f = m_net.forward(w, m_input);
    m_gradOut = (m_y.transpose() - f) / m_noiseVariance; // ∂ log p / ∂f
    double value =
        -0.5 * m_noiseVariance * m_gradOut.squaredNorm() - 0.5 * w.squaredNorm() / m_weightVariance;
    if (m_latents > 0)
        value -= 0.5 * q.tail(m_latents).squaredNorm() / m_latentVariance;
    if (grad) {
        grad->resize(q.size());
        m_gradW = -w / m_weightVariance;
        m_net.backward(w, m_gradOut, m_gradW, m_latents > 0 ? &m_gradIn : nullptr, true);
        grad->head(m_weights) = m_gradW;
        if (m_latents > 0)
            grad->tail(m_latents) = m_gradIn.row(0).transpose() - q.tail(m_latents) / m_latentVariance;
    }
    return value;
}

Eigen::MatrixXd BnnHmcResult::weightDraws() const
{
    Eigen::Index rows = 0;
    for (const HmcChain& c : chains)
        rows += c.draws.rows();
    Eigen::MatrixXd out(rows, shape.parameterCount());
    Eigen::Index r = 0;
    for (const HmcChain& c : chains) {
        out.middleRows(r, c.draws.rows()) = c.draws.leftCols(shape.parameterCount());
        r += c.draws.rows();
    }
    return out;
}

BnnHmcResult runBnnHmc(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<int>& hidden,
                       bool latent, double noiseSd, double weightVariance, double latentVariance,
                       const HmcOptions& options, const std::function<bool()>& cancelled)
{
    if (options.chains < 1)
        throw InvalidParameter("HMC needs at least one chain");
    BnnLogJoint joint(x, y, hidden, latent, noiseSd, weightVariance, latentVariance);
    const auto logDensity = [&](const Eigen::VectorXd& q, Eigen::VectorXd* g) { return joint(q, g); };
    BnnHmcResult result{joint.shape(), {}, noiseSd, latent ? latentVariance : 0, false};
    for (int c = 0; c < options.chains && !result.cancelled; ++c) {
        std::mt19937_64 rng(options.seed + 1000003ULL * std::uint64_t(c));
        Eigen::VectorXd start(joint.dimension());
        start.head(joint.weightCount()) = xavierNormalWeights(joint.shape(), rng);
        std::normal_distribution<double> normal(0, std::sqrt(latentVariance > 0 ? latentVariance : 1));
        for (Eigen::Index i = joint.weightCount(); i < start.size(); ++i)
            start(i) = normal(rng);
        result.chains.push_back(runHmcChain(logDensity, start, options, rng, cancelled));
        result.cancelled = result.chains.back().cancelled;
    }
    return result;
}

PredictiveDraws hmcPredictiveDraws(const BnnHmcResult& hmc, const Eigen::MatrixXd& x, std::uint64_t seed,
                                   int latentDrawsPerWeight, const std::function<void()>& afterEachWeightDraw)
{
    const bool latent = hmc.latentVariance > 0;
    if (x.cols() != hmc.shape.inputs - (latent ? 1 : 0) || !x.allFinite() || latentDrawsPerWeight < 1)
        throw InvalidParameter(
            "HMC predictive draws: finite inputs with one column per network input are needed");
    const Eigen::MatrixXd weights = hmc.weightDraws();
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0, std::sqrt(latent ? hmc.latentVariance : 1));
    Mlp net(hmc.shape);
    Eigen::MatrixXd input(hmc.shape.inputs, x.rows());
    input.topRows(x.cols()) = x.transpose();
    PredictiveDraws out{Eigen::MatrixXd(weights.rows() * latentDrawsPerWeight, x.rows()), hmc.noiseSd};
    for (Eigen::Index s = 0; s < weights.rows(); ++s) {
        const Eigen::VectorXd w = weights.row(s).transpose();
        for (int k = 0; k < latentDrawsPerWeight; ++k) {
            if (latent)
                for (Eigen::Index m = 0; m < x.rows(); ++m)
                    input(hmc.shape.inputs - 1, m) = normal(rng);
            out.f.row(s * latentDrawsPerWeight + k) = net.forward(w, input);
        }
        if (afterEachWeightDraw)
            afterEachWeightDraw();
    }
    return out;
}

} // namespace evx::bnn
