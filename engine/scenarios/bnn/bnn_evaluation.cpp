#include "scenarios/bnn/bnn_evaluation.h"

#include "bnn/bnn_predictive.h"
#include "stats/mutual_information.h"
#include "stats/normality.h"
#include "stats/predictive_metrics.h"

#include <cmath>

namespace evx::scenarios::bnn_eval {

PreparedData prepare(bnn::Dataset dataset)
{
    PreparedData p;
    p.train = dataset.scaling.apply(dataset.train);
    p.validation = dataset.scaling.apply(dataset.validation);
    p.test = dataset.scaling.apply(dataset.test);
    p.raw = std::move(dataset);
    return p;
}

PredictiveMetrics predictiveMetrics(const bnn::BnnSnapshot& snapshot, const PreparedData& data,
                                    const bnn::DataSplit& split, int draws, std::uint64_t seed,
                                    const std::function<void()>& afterEachPoint)
{
    const bnn::PredictiveDraws d = bnn::predictiveDraws(snapshot, split.x, draws, seed);
    const stats::PredictiveSummary s = stats::summarisePredictive(
        d.f, split.y, d.noiseSd, data.raw.reportOutputScale(), 0.95, afterEachPoint);
    return {s.logLikelihood, s.rmse, s.picp, s.mpiw, s.draws};
}

double predictiveLogLikelihood(const bnn::BnnSnapshot& snapshot, const PreparedData& data,
                               const bnn::DataSplit& split, int draws, std::uint64_t seed)
{
    const bnn::PredictiveDraws d = bnn::predictiveDraws(snapshot, split.x, draws, seed);
    return stats::predictiveLogLikelihood(d.f, split.y, d.noiseSd, data.raw.reportOutputScale());
}

LatentMetrics latentMetrics(const bnn::BnnSnapshot& snapshot, const PreparedData& data)
{
    const Eigen::MatrixXd mu = snapshot.latentMean;
    LatentMetrics m;
    m.mutualInformation = stats::ksgMutualInformation(data.train.x, mu, 5);
    m.henzeZirkler = stats::henzeZirkler(mu);
    m.ks = stats::kolmogorovSmirnovNormal({mu.data(), mu.data() + mu.size()},
                                          std::sqrt(snapshot.latentVariance));
    return m;
}

} // namespace evx::scenarios::bnn_eval
