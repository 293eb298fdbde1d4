#include "genbayes/ratio_estimation.h"

#include "core/errors.h"
#include "genbayes/logistic.h"
#include "stats/densities.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace evx::genbayes {

Eigen::VectorXd classifierLogRatios(const GbModel& model, const Points& observed,
                                    const Eigen::VectorXd& theta, Classifier classifier, int folds,
                                    std::uint64_t simulationSeed, SimulationDesign design, FeatureBasis basis,
                                    const EbOptions& eb, const L1Options& l1)
{
    const Eigen::Index n = observed.rows();
    if (folds < 2 || n < folds)
        throw InvalidParameter("Algorithm 1 needs at least as many observations as folds (" +
                               std::to_string(folds) + ")");
    // Fold k holds the points i ≡ k (mod K); the largest training set has n − ⌊n/K⌋ points.
    const Eigen::Index simulations = n - n / folds;
    std::mt19937_64 rng(simulationSeed);
    auto featuresOf = [&](const Points& points) {
        return basis == FeatureBasis::Residual ? model.residualFeatures(points, observed, theta)
                                               : model.features(points, observed);
    };
    Eigen::MatrixXd simulated = featuresOf(model.simulateFromUniforms(
        theta, simulationUniforms(int(simulations), model.uniformsPerDraw(), design, rng)));
    Eigen::MatrixXd features = featuresOf(observed);
    const Eigen::Index d = features.cols();
    if (basis == FeatureBasis::Principal) {
        const Eigen::RowVectorXd mean = features.colwise().mean();
        const Eigen::MatrixXd centred = features.rowwise() - mean;
        const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(centred.transpose() * centred /
                                                                   double(n - 1));
        // A direction without spread in the sample (a constant feature) keeps a finite scale.
        const Eigen::VectorXd spread =
            eigen.eigenvalues().cwiseMax(1e-12 * std::max(eigen.eigenvalues().maxCoeff(), 1e-300));
        const Eigen::MatrixXd toPrincipal =
            eigen.eigenvectors() * spread.cwiseSqrt().cwiseInverse().asDiagonal();
        simulated = (simulated.rowwise() - mean) * toPrincipal;
        features = centred * toPrincipal;
    }

    Eigen::VectorXd delta(n);
    for (int k = 0; k < folds; ++k) {
        std::vector<Eigen::Index> train, test;
        for (Eigen::Index i = 0; i < n; ++i)
            (i % folds == k ? test : train).push_back(i);
        const Eigen::Index m = Eigen::Index(train.size()); // balanced: as many simulations
        LogisticData data{Eigen::MatrixXd(2 * m, d), Eigen::VectorXd(2 * m)};
        data.features.topRows(m) = simulated.topRows(m);
        data.features.bottomRows(m) = features(train, Eigen::all);
        data.labels.head(m).setOnes();
        data.labels.tail(m).setZero();
        const LogisticFit fit = classifier == Classifier::Vb   ? fitLogisticVb(data)
                                : classifier == Classifier::Eb ? fitLogisticEb(data, eb)
                                                               : fitLogisticL1Cv(data, l1);
        for (Eigen::Index i : test)
            delta(i) = fit.decision(features.row(i));
    }
    return delta;
}

Eigen::VectorXd modelLogRatios(const GbModel& model, const Points& observed, const Eigen::VectorXd& theta,
                               const Eigen::VectorXd& logG)
{
    return model.logLikelihoods(theta, observed) - logG;
}

Eigen::VectorXd truthLogDensity(const Truth& truth, const Points& observed)
{
    Eigen::VectorXd g(observed.rows());
    for (Eigen::Index i = 0; i < observed.rows(); ++i)
        g(i) = truth.logDensity(observed.row(i));
    return g;
}

Eigen::VectorXd generativeLogDensity(const Points& observed, double bandwidth, GenerativeG regressionG,
                                     int folds)
{
    const Eigen::Index n = observed.rows();
    Eigen::VectorXd out(n);
    if (observed.cols() == 1) {
        const double logNorm = -std::log(double(n) * bandwidth) - stats::kHalfLog2Pi;
        for (Eigen::Index i = 0; i < n; ++i) {
            const Eigen::ArrayXd z = (observed.col(0).array() - observed(i, 0)) / bandwidth;
            out(i) = stats::logSumExp(Eigen::ArrayXd(-0.5 * z.square())) + logNorm;
        }
        return out;
    }
    return regressionGenerativeLogDensity(observed.col(0), observed.col(1), regressionG, folds);
}

double divergenceEstimate(Divergence d, const Eigen::VectorXd& logRatios)
{
    return meanClippedF(d, logRatios);
}

} // namespace evx::genbayes
