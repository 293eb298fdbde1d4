#include "bnn/bnn_predictive.h"

#include "core/errors.h"

#include <cmath>
#include <random>

namespace evx::bnn {
namespace {

void checkInputs(const BnnSnapshot& s, const Eigen::MatrixXd& x, int weightDraws, int latentDraws)
{
    if (s.weightMean.size() != s.shape.parameterCount())
        throw InvalidParameter("the BNN snapshot holds no trained network");
    if (x.cols() != s.inputDimension())
        throw InvalidParameter("predictive draws: the inputs have " + std::to_string(x.cols()) +
                               " columns, the network " + std::to_string(s.inputDimension()));
    if (!x.allFinite())
        throw InvalidParameter("predictive draws: the inputs hold values that are not finite");
    if (weightDraws < 1 || latentDraws < 1)
        throw InvalidParameter("predictive draws: at least one draw is needed");
}

Eigen::VectorXd drawWeights(const BnnSnapshot& s, std::mt19937_64& rng)
{
    std::normal_distribution<double> normal;
    Eigen::VectorXd w(s.weightMean.size());
    for (Eigen::Index i = 0; i < w.size(); ++i)
        w(i) = s.weightMean(i) + s.weightSd(i) * normal(rng);
    return w;
}

} // namespace

PredictiveDraws predictiveDraws(const BnnSnapshot& s, const Eigen::MatrixXd& x, int weightDraws,
                                std::uint64_t seed, int latentDrawsPerWeight,
                                const std::function<void()>& afterEachWeightDraw)
{
    checkInputs(s, x, weightDraws, latentDrawsPerWeight);
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    Mlp net(s.shape);
    Eigen::MatrixXd input(s.shape.inputs, x.rows());
    input.topRows(x.cols()) = x.transpose();
    const double latentSd = std::sqrt(s.latentVariance);
    PredictiveDraws out{Eigen::MatrixXd(weightDraws * latentDrawsPerWeight, x.rows()), s.noiseSd};
    for (int w = 0; w < weightDraws; ++w) {
        const Eigen::VectorXd weights = drawWeights(s, rng);
        for (int k = 0; k < latentDrawsPerWeight; ++k) {
            if (s.hasLatent())
                for (Eigen::Index m = 0; m < x.rows(); ++m)
                    input(s.shape.inputs - 1, m) = latentSd * normal(rng);
            out.f.row(w * latentDrawsPerWeight + k) = net.forward(weights, input);
        }
        if (afterEachWeightDraw)
            afterEachWeightDraw();
    }
    return out;
}

PredictiveDraws fittedDraws(const BnnSnapshot& s, const Eigen::MatrixXd& xTrain, int weightDraws,
                            std::uint64_t seed)
{
    checkInputs(s, xTrain, weightDraws, 1);
    if (s.hasLatent() && xTrain.rows() != s.latentMean.size())
        throw InvalidParameter("fitted draws need the training inputs, one per latent mean");
    std::mt19937_64 rng(seed);
    Mlp net(s.shape);
    Eigen::MatrixXd input(s.shape.inputs, xTrain.rows());
    input.topRows(xTrain.cols()) = xTrain.transpose();
    if (s.hasLatent())
        input.bottomRows(1) = s.latentMean.transpose();
    PredictiveDraws out{Eigen::MatrixXd(weightDraws, xTrain.rows()), s.noiseSd};
    for (int w = 0; w < weightDraws; ++w)
        out.f.row(w) = net.forward(drawWeights(s, rng), input);
    return out;
}

} // namespace evx::bnn
