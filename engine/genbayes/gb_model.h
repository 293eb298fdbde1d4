#pragma once
// The three models of the generalised-Bayes paper (METHODS.md §4) and the distributions that
// generate their data. A point is a row: (x) for the Poisson and Gaussian models, (x, y) for
// the regression, whose likelihood and truth are conditional on x (the marginal of x is
// shared by model and truth and cancels in every ratio).

#include <Eigen/Core>

#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace evx::genbayes {

using Points = Eigen::MatrixXd;

// A box of θ with a grid on it, as in METHODS §4 (uniform prior on the box).
struct ParameterBox {
    std::vector<std::string> names;  // summary keys: "lambda"; "mu", "log_sigma2"; "beta0", …
    std::vector<std::string> labels; // for axes: "λ", "μ", "log σ²", …
    Eigen::VectorXd lower, upper;
    std::vector<int> gridPoints; // per axis, ends included

    int dimension() const { return int(lower.size()); }
    Eigen::MatrixXd grid() const; // every grid point, one row each, the first axis slowest
};

class GbModel {
public:
    virtual ~GbModel() = default;
    virtual ParameterBox box() const = 0;
    // log p(point | θ) (regression: log p(y | x, θ)).
    virtual double logLikelihood(const Eigen::VectorXd& theta, const Eigen::RowVectorXd& point) const = 0;
    // log p(point | θ) for every row at once: the reference and Gen grid need it at every grid
    // point (13 million terms on the regression's 51³ grid), where a call per point costs most.
    virtual Eigen::VectorXd logLikelihoods(const Eigen::VectorXd& theta, const Points& points) const = 0;
    // Points from p(· | θ), one per row of `uniforms`, each by inverse CDFs of that row's
    // uniformsPerDraw() values in (0, 1): the simulator's randomness made explicit, so the
    // caller chooses its design (independent draws, a Latin hypercube, common numbers).
    virtual int uniformsPerDraw() const = 0;
    virtual Points simulateFromUniforms(const Eigen::VectorXd& theta,
                                        const Eigen::MatrixXd& uniforms) const = 0;
    // count points from independent uniforms: the same seed at two θ's gives common random
    // numbers (METHODS §4, lead 2).
    Points simulate(const Eigen::VectorXd& theta, int count, std::mt19937_64& rng) const;
    // The classifier's features of METHODS §4 (without the constant), with the centring
    // statistics (x̄, ȳ, s_y) taken from the observed sample.
    virtual Eigen::MatrixXd features(const Points& points, const Points& observed) const = 0;
    virtual int featureCount() const = 0;
    // Features in θ's own coordinates, where the model has them (the regression's, see there);
    // the others' are features(points, observed).
    virtual Eigen::MatrixXd residualFeatures(const Points& points, const Points& observed,
                                             const Eigen::VectorXd&) const
    {
        return features(points, observed);
    }
};

// How the uniforms behind one θ's simulations are drawn. Independent: iid U(0, 1).
// Stratified: a Latin hypercube (McKay, Beckman & Conover 1979): in each column, exactly one
// value in each of the count strata [j/count, (j + 1)/count), uniform within it, the strata in
// random order, the columns permuted independently. Each draw is still exactly from p(· | θ),
// but the sample's marginals match p(· | θ) far more closely: with 81 independent Poisson(3)
// draws the sample mean has sd 0.19, as large as the posterior sd of λ at n = 90, and that
// error shifts the whole classifier estimate D̂_f(θ) like an error in θ.
enum class SimulationDesign { Independent, Stratified };
Eigen::MatrixXd simulationUniforms(int count, int columns, SimulationDesign design, std::mt19937_64& rng);

std::unique_ptr<GbModel> poissonModel();
std::unique_ptr<GbModel> gaussianModel();
std::unique_ptr<GbModel> regressionModel();

// The data-generating distribution g.
struct Truth {
    std::function<Points(int count, std::mt19937_64& rng)> sample;
    std::function<double(const Eigen::RowVectorXd& point)> logDensity; // regression: log g(y | x)
    std::string label;
};

Truth poissonTruth(double rate);
Truth negBinTruth(double size, double p); // failures before `size` successes: mean size (1 − p)/p
Truth normalTruth(double loc, double scale);
Truth laplaceTruth(double loc, double scale);
// y = β0 + β1 x + scale·ε, x ~ N(0, 1), ε ~ N(0, 1) or Student-t with dof degrees (dof = 0: normal).
Truth regressionTruth(double beta0, double beta1, double scale, double dof);

} // namespace evx::genbayes
