#include "scenarios/bnn/bnn_training.h"

#include <algorithm>
#include <cmath>

namespace evx::scenarios::bnn_training {
namespace {

constexpr int kTraceDraws = 200; // predictive draws per trace point (the summaries use more)

double valueOr(const ParameterValues& v, const char* name, double fallback)
{
    const auto it = v.find(name);
    return it == v.end() ? fallback : it->second;
}

TracePoint tracePoint(const bnn::BnnSnapshot& s, const bnn_eval::PreparedData& data, std::size_t& historyUsed,
                      std::uint64_t seed)
{
    TracePoint t;
    t.epoch = s.epoch;
    // The recorded ELBO is a one-draw estimate per epoch: average those since the last point.
    double sum = 0;
    int count = 0;
    for (; historyUsed < s.history.size(); ++historyUsed, ++count)
        sum += s.history[historyUsed].elboValue();
    t.elbo = count > 0 ? sum / count / double(data.train.size()) : NAN;
    t.testLogLik = bnn_eval::predictiveLogLikelihood(s, data, data.test, kTraceDraws, seed);
    t.mutualInformation = t.henzeZirkler = NAN;
    if (latentSpread(s) > 1e-12) {
        const bnn_eval::LatentMetrics m = bnn_eval::latentMetrics(s, data);
        t.mutualInformation = m.mutualInformation;
        t.henzeZirkler = m.henzeZirkler;
    }
    return t;
}

} // namespace

bnn::BnnConfig configFrom(const ParameterValues& v, const bnn::Dataset& data, bnn::Variant variant)
{
    const bnn::DatasetInfo& info = data.info;
    bnn::BnnConfig c;
    c.variant = variant;
    c.hidden.assign(std::size_t(info.hiddenLayers), info.hiddenUnits);
    c.adam.learningRate = valueOr(v, "learning_rate", 0.01);
    c.noiseSd = std::sqrt(valueOr(v, "noise_variance", 0.1)) / data.reportOutputScale();
    // Without a latent the network has only σ_ε to explain the spread around its mean; with one,
    // σ_ε and σ_z trade off, so σ_ε stays at the chosen value (the paper grid-searches it).
    c.learnNoise = variant == bnn::Variant::BnnMfvi;
    if (valueOr(v, "latent_variance", 0) == 0 && info.latent && std::isfinite(info.sigmaZ2))
        c.fixedLatentVariance = info.sigmaZ2;
    c.warmStartEpochs = int(valueOr(v, "warm_start_epochs", c.warmStartEpochs));
    c.penalties.lambda1 = valueOr(v, "lambda_hz", c.penalties.lambda1);
    c.penalties.lambda2 = valueOr(v, "lambda_cov", c.penalties.lambda2);
    c.penalties.lambda3 = valueOr(v, "lambda_pc", c.penalties.lambda3);
    c.penalties.epsT = valueOr(v, "eps_t", c.penalties.epsT);
    c.penalties.epsX = valueOr(v, "eps_x", c.penalties.epsX);
    c.penalties.epsY = valueOr(v, "eps_y", c.penalties.epsY);
    c.seed = std::uint64_t(valueOr(v, "seed", 0));
    return c;
}

std::string inferenceLabel(bnn::Variant v)
{
    switch (v) {
    case bnn::Variant::BnnMfvi:
        return "BNN, mean-field VI";
    case bnn::Variant::Mfvi:
        return "BNN+LV, mean-field VI";
    case bnn::Variant::Ncai0:
        return "BNN+LV, NCAI_λ=0";
    case bnn::Variant::Ncai:
        return "BNN+LV, NCAI_λ";
    }
    return {};
}

double latentSpread(const bnn::BnnSnapshot& s)
{
    if (!s.hasLatent() || s.latentMean.size() < 3)
        return 0;
    return std::sqrt((s.latentMean.array() - s.latentMean.mean()).square().mean());
}

TrainedRun train(const bnn_eval::PreparedData& data, const bnn::BnnConfig& config, int epochs, int every,
                 const RunContext& context, const std::function<void(const TrainedRun&, double)>& onProgress)
{
    bnn::BnnTrainer trainer(data.train.x, data.train.y, config);
    TrainedRun run;
    run.variant = config.variant;
    const int total = epochs + (bnn::usesWarmStart(config.variant) ? config.warmStartEpochs : 0);
    std::size_t historyUsed = 0;
    int done = 0;
    const auto cancelled = [&] { return context.cancelled(); };
    // Slices end on every multiple of `every`, where the trace points were before there were
    // slices: advance() in pieces runs the same epochs (it only refreshes the snapshot between).
    const int slice = onProgress ? std::min(every, kProgressEpochs) : every;
    while (done < total) {
        const int toBoundary = every - done % every;
        const bnn::AdvanceResult a = trainer.advance(std::min({slice, toBoundary, total - done}), cancelled);
        done += a.epochsRun;
        if (a.status == bnn::TrainStatus::Cancelled)
            context.checkCancelled();
        run.snapshot = trainer.snapshot();
        if (a.status == bnn::TrainStatus::Diverged) {
            run.diverged = trainer.message();
            break;
        }
        if (!trainer.inWarmStart() && (done % every == 0 || done == total))
            run.trace.push_back(tracePoint(run.snapshot, data, historyUsed, config.seed + 7));
        if (onProgress)
            onProgress(run, double(done) / total);
    }
    return run;
}

} // namespace evx::scenarios::bnn_training
