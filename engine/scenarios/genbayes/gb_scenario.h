#pragma once
// Generalised Bayes with f-divergences (METHODS.md §4): one scenario per model of the paper
// (gb-poisson, gb-gaussian, gb-regression), sharing this class. The user picks the truth
// (well specified or not), the divergence, and how log r is estimated: a classifier (cv, eb,
// vb) or a generative estimate of g (gen-bayesopt, gen-grid); the figure shows the data with
// the fits, the GP-smoothed divergence surface with its acquisitions, and the posterior
// against the reference update with the true g, scored by the Jensen–Shannon distance.

#include "core/scenario.h"
#include "genbayes/gb_model.h"
#include "gp/kernel.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace evx::scenarios {

struct GbScenarioConfig {
    ScenarioInfo info;
    std::function<std::unique_ptr<genbayes::GbModel>()> model;
    std::vector<std::string> truths;            // choice names, the well-specified one first
    std::vector<ParameterSpec> truthParameters; // e.g. truth_rate, nb_size, nb_p
    std::function<genbayes::Truth(const ParameterValues&)> truth;
    std::vector<Preset> presets;
    std::vector<std::string> dataNames;                          // "x" or "x", "y": the keys of Figure::data
    std::vector<std::string> featureBases{"paper", "principal"}; // choices of feature_basis
    int featureBasis = 0;                                        // its default
    // Choices of generative_g, the Gen baselines' g(y | x) (generative_density.h), default the
    // first; empty: no such parameter (one-column data, where g is the paper's KDE).
    std::vector<std::string> generativeGs;
};

class GbScenario final : public Scenario {
public:
    explicit GbScenario(GbScenarioConfig config);

    ScenarioInfo info() const override { return m_config.info; }
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override { return m_config.presets; }
    std::vector<WorkBudget> workBudget(const RunInput& input) const override;
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    // Per-point δ_i of Algorithm 1, cached by everything they depend on, so that changing
    // only the divergence or the tempering replays evaluations instead of refitting
    // classifiers wherever the new run visits the same θ.
    Eigen::VectorXd cachedLogRatios(const std::string& key,
                                    const std::function<Eigen::VectorXd()>& compute) const;

    // The model's grid (the box is fixed per scenario), built once.
    std::shared_ptr<const Eigen::MatrixXd> grid(const genbayes::ParameterBox& box) const;

    // A divergence surface over the grid with the evaluations behind it.
    struct Surface {
        Eigen::VectorXd mean, sd;
        Eigen::MatrixXd evaluated;
        Eigen::VectorXd values;
        int evaluations = 0;
    };
    // Finished surfaces by everything but the tempering (which only rescales them), and the
    // reference surface by the data and divergence: revisiting a setting costs no GP loop.
    std::shared_ptr<const Surface> findSurface(const std::string& key) const;
    void storeSurface(const std::string& key, Surface surface) const;
    // The θ's and δ_i of the last loop per data and method, so that a new divergence can show
    // a surface from them before its own loop has run: when the loop published figures, the
    // stand-in surfaces of all eight divergences, made at its end by genbayes::smoothWithShape
    // from its final GP (a switch then only looks them up); otherwise rescored and smoothed
    // on demand.
    struct Evaluations {
        Eigen::MatrixXd thetas;
        std::vector<Eigen::VectorXd> logRatios;
        gp::KernelKind kernel = gp::KernelKind::Matern52;
        Eigen::MatrixXd values;  // D̂_f per evaluation (rows) and divergence (kAllDivergences order)
        Eigen::MatrixXd means;   // stand-in GP mean per grid point and divergence; empty if not made
        Eigen::VectorXd sdRatio; // per divergence: its sd is sdRatio · sd
        Eigen::VectorXd sd;      // the loop's final GP sd on the grid
        std::size_t bytes() const;
    };
    // D_f with the true g on the grid, by the data and the divergence. A loop that published
    // figures fills in the other seven divergences at its end, so a switch finds its reference.
    std::shared_ptr<const Eigen::VectorXd> findReference(const std::string& key) const;
    void storeReference(const std::string& key, Eigen::VectorXd surface) const;
    // The last loop's evaluations for its data and method, within kRecentBytes in all.
    void keepRecent(const std::string& key, std::shared_ptr<const Evaluations> entry) const;
    // What a run's reference surfaces depend on: the model, the observed sample, log g there.
    struct DataSet {
        const genbayes::GbModel& model;
        const genbayes::Points& observed;
        const Eigen::VectorXd& logG;
        const std::string& key; // of the data, without the divergence
    };
    // Once the final figure of a loop that someone watches is out (issue 11): its evaluations
    // rescored under all eight divergences, each smoothed by the loop's final GP shape
    // (genbayes::smoothWithShape) and kept under recentKey, and the references of the
    // divergences that have none yet, in one pass over the grid; a switch then only looks up.
    void prepareSwitches(const DataSet& data, const std::string& recentKey, Evaluations made,
                         const Eigen::VectorXd& logHyperparameters, const Eigen::VectorXd& sd,
                         const RunContext& context) const;

    GbScenarioConfig m_config;
    ParameterSchema m_schema;
    mutable std::mutex m_cacheMutex;
    mutable std::map<std::string, Eigen::VectorXd> m_cache;
    mutable std::map<std::string, std::shared_ptr<const Surface>> m_surfaces;
    mutable std::map<std::string, std::shared_ptr<const Evaluations>> m_recent;
    mutable std::map<std::string, std::shared_ptr<const Eigen::VectorXd>> m_references;
    mutable std::shared_ptr<const Eigen::MatrixXd> m_grid;
};

std::shared_ptr<Scenario> makeGbPoissonScenario();
std::shared_ptr<Scenario> makeGbGaussianScenario();
std::shared_ptr<Scenario> makeGbRegressionScenario();

} // namespace evx::scenarios
