#include "scenarios/uncertain_evidence/discrete_scenario.h"

#include "evidence/discrete_readings.h"
#include "scenarios/uncertain_evidence/evidence_figure.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace evx::scenarios {
namespace {

constexpr int kN = DiscreteScenario::kMaxStates;
constexpr double kDefaultPrior[kN] = {0.8, 0.2, 0.25, 0.25};
constexpr double kDefaultLikelihood[kN][kN] = {
    {0.7, 0.2, 0.1, 0.25}, {0.1, 0.3, 0.6, 0.25}, {0.25, 0.25, 0.25, 0.25}, {0.25, 0.25, 0.25, 0.25}};
constexpr double kDefaultEvidence[kN] = {0.1, 0.2, 0.7, 0.25};

enum EvidenceAs { LikelihoodRatios = 0, TargetMarginal = 1 };

std::string index(const char* stem, int i)
{
    return stem + std::to_string(i + 1);
}

std::vector<ParameterSpec> specs()
{
    std::vector<ParameterSpec> p;
    p.push_back(integerParameter("n_x", "States of x", 2, kN, 2, "Number of states of the latent cause x"));
    p.push_back(integerParameter("n_y", "States of y", 2, kN, 3, "Number of states of the observable y"));
    for (int i = 0; i < kN; ++i)
        p.push_back(realParameter(index("prior_x", i), "Prior weight of x" + std::to_string(i + 1), "", 0, 1,
                                  kDefaultPrior[i], "Unnormalised p(x); the engine normalises the weights"));
    for (int i = 0; i < kN; ++i)
        for (int k = 0; k < kN; ++k)
            p.push_back(realParameter(
                "lik_x" + std::to_string(i + 1) + "_y" + std::to_string(k + 1),
                "p(y" + std::to_string(k + 1) + " | x" + std::to_string(i + 1) + ") weight", "", 0, 1,
                kDefaultLikelihood[i][k], "Unnormalised row of p(y | x); each row is normalised over y"));
    for (int k = 0; k < kN; ++k)
        p.push_back(realParameter(
            index("evidence_y", k), "Evidence on y" + std::to_string(k + 1), "", 0, 1, kDefaultEvidence[k],
            "A likelihood ratio λ_k or a target probability q(y_k), as 'Evidence is' says"));
    ParameterSpec as;
    as.name = "evidence_as";
    as.label = "Evidence is";
    as.kind = ParameterKind::Choice;
    as.choices = {"likelihood-ratios", "target-marginal"};
    as.maximum = 1;
    as.step = 1;
    as.decimals = 0;
    as.tooltip = "What the entered numbers mean: likelihood ratios λ_k of a noisy reading (virtual "
                 "evidence is right) or the new marginal q(y_k) (Jeffrey's rule is right)";
    p.push_back(as);
    ParameterSpec eq;
    eq.name = "show_equivalent_lambda";
    eq.label = "Show the equivalent evidence";
    eq.kind = ParameterKind::Boolean;
    eq.maximum = 1;
    eq.step = 1;
    eq.decimals = 0;
    eq.tooltip = "Draw the other reading fed with the equivalent evidence, λ_k ∝ q(y_k) / p(y_k) or "
                 "q(y_k) ∝ λ_k p(y_k): it reproduces the intended posterior exactly";
    p.push_back(eq);
    p.push_back(emphasisParameter());
    return p;
}

Series bars(std::string name, const Eigen::VectorXd& values, int colour, bool dashed = false)
{
    Series s;
    s.name = std::move(name);
    s.kind = SeriesKind::Bar;
    s.colour = colour;
    s.dashed = dashed;
    for (Eigen::Index i = 0; i < values.size(); ++i) {
        s.x.push_back(double(i + 1));
        s.y.push_back(values[i]);
    }
    return s;
}

Series readingBars(Reading r, const Eigen::VectorXd& values)
{
    const ReadingStyle st = readingStyle(r);
    return bars(st.legend, values, st.colour, st.dashed);
}

void addProbabilities(Summary& summary, const std::string& prefix, const char* stem, const Eigen::VectorXd& v)
{
    for (Eigen::Index i = 0; i < v.size(); ++i)
        summary.set(prefix + "." + stem + std::to_string(i + 1), v[i]);
}

std::string fixed(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", v);
    return buf;
}

} // namespace

DiscreteScenario::DiscreteScenario() : m_schema(specs()) {}

ScenarioInfo DiscreteScenario::info() const
{
    return {"ue-discrete", "Discrete model: likelihood ratios or a new marginal", "Uncertain evidence",
            "Evidence on a discrete y read as virtual evidence (eq. 3) or Jeffrey's rule, and the "
            "λ ∝ q/p(y) equivalence"};
}

std::vector<Preset> DiscreteScenario::presets() const
{
    return {
        {"noisy-test",
         "A noisy test result, given as likelihood ratios (virtual evidence is right)",
         {{"evidence_as", LikelihoodRatios},
          {"evidence_y1", 0.1},
          {"evidence_y2", 0.2},
          {"evidence_y3", 0.7}}},
        {"new-marginal",
         "An expert's new distribution over y (Jeffrey's rule is right)",
         {{"evidence_as", TargetMarginal},
          {"evidence_y1", 0.1},
          {"evidence_y2", 0.2},
          {"evidence_y3", 0.7},
          {"show_equivalent_lambda", 1}}},
        {"inconsistent",
         "A vaguer q than the model's own p(y): Jeffrey's rule is inconsistent",
         {{"evidence_as", TargetMarginal},
          {"prior_x1", 0.95},
          {"prior_x2", 0.05},
          {"evidence_y1", 0.34},
          {"evidence_y2", 0.33},
          {"evidence_y3", 0.33}}},
    };
}

Figure DiscreteScenario::run(const ParameterValues& input, const RunContext& context) const
{
    const ParameterValues v = m_schema.complete(input);
    context.checkCancelled();
    const int nx = int(v.at("n_x")), ny = int(v.at("n_y"));
    Eigen::VectorXd priorWeights(nx), entered(ny);
    Eigen::MatrixXd rows(nx, ny);
    for (int i = 0; i < nx; ++i) {
        priorWeights[i] = v.at(index("prior_x", i));
        for (int k = 0; k < ny; ++k)
            rows(i, k) = v.at("lik_x" + std::to_string(i + 1) + "_y" + std::to_string(k + 1));
    }
    for (int k = 0; k < ny; ++k)
        entered[k] = v.at(index("evidence_y", k));
    const models::DiscreteModel model(priorWeights, rows);
    const bool asTarget = int(v.at("evidence_as")) == TargetMarginal;
    const bool showEquivalent = v.at("show_equivalent_lambda") != 0;

    // The entered numbers read both ways: as likelihood ratios λ = e and as a target q = e / Σ e.
    const evidence::DiscreteReading virtualReading = evidence::discreteVirtualEvidence(model, entered);
    const evidence::DiscreteReading jeffreyReading = evidence::discreteJeffrey(model, entered);
    const Eigen::VectorXd lambdaForQ = evidence::equivalentLambda(model, entered);
    const Eigen::VectorXd qForLambda = evidence::equivalentTarget(model, entered);
    const evidence::DiscreteReading veFromQ = evidence::discreteVirtualEvidence(model, lambdaForQ);
    const evidence::DiscreteReading jrFromLambda = evidence::discreteJeffrey(model, qForLambda);
    const double maxDiff =
        std::max((veFromQ.posteriorX - jeffreyReading.posteriorX).cwiseAbs().maxCoeff(),
                 (jrFromLambda.posteriorX - virtualReading.posteriorX).cwiseAbs().maxCoeff());

    Figure figure;
    const int prior = kReferenceColour;
    const ReadingStyle jr = readingStyle(Reading::Jeffrey), ve = readingStyle(Reading::Virtual);

    Plot latent;
    latent.title = "Latent cause x: prior and posterior under each reading";
    latent.xLabel = "state i of x";
    latent.yLabel = "probability p(x_i)";
    latent.series = {bars("Prior p(x)", model.prior(), prior),
                     readingBars(Reading::Jeffrey, jeffreyReading.posteriorX),
                     readingBars(Reading::Virtual, virtualReading.posteriorX)};
    Plot observable;
    observable.title = "Observable y: marginal before and after the evidence";
    observable.xLabel = "state k of y";
    observable.yLabel = "probability p(y_k)";
    observable.series = {bars("Prior predictive p(y)", model.marginalY(), prior),
                         readingBars(Reading::Jeffrey, jeffreyReading.marginalY),
                         readingBars(Reading::Virtual, virtualReading.marginalY)};
    if (showEquivalent) {
        if (asTarget) {
            const std::string name = std::string(ve.legend) + " with λ_k ∝ q_k / p(y_k)";
            latent.series.push_back(bars(name, veFromQ.posteriorX, 5));
            observable.series.push_back(bars(name, veFromQ.marginalY, 5));
        } else {
            const std::string name = std::string(jr.legend) + " with q_k ∝ λ_k p(y_k)";
            latent.series.push_back(bars(name, jrFromLambda.posteriorX, 5));
            observable.series.push_back(bars(name, jrFromLambda.marginalY, 5));
        }
    }
    // A line at probability 1 fixes the axis at [0, 1] for every setting (bars are comparable
    // across parameter changes) and leaves the legend room above the bars.
    for (Plot* p : {&latent, &observable}) {
        Series certain;
        certain.name = "Probability 1";
        certain.colour = kReferenceColour;
        certain.dashed = true;
        const double right = (p == &latent ? nx : ny) + 0.5;
        for (int i = 0; i <= 20; ++i) { // drawn with enough points to hover anywhere along it
            certain.x.push_back(0.5 + (right - 0.5) * i / 20);
            certain.y.push_back(1);
        }
        p->series.push_back(std::move(certain));
    }
    figure.plots.push_back(std::move(latent));
    figure.plots.push_back(std::move(observable));

    if (showEquivalent) {
        Table t;
        t.title = asTarget ? "The target marginal q and the likelihood ratios that reproduce it"
                           : "The likelihood ratios λ and the target marginal that reproduces them";
        t.columns = {"y_k", "p(y_k)", asTarget ? "q(y_k) entered" : "λ_k entered",
                     asTarget ? "equivalent λ_k ∝ q_k / p(y_k)" : "equivalent q_k ∝ λ_k p(y_k)"};
        const Eigen::VectorXd py = model.marginalY();
        const Eigen::VectorXd enteredShown = asTarget ? Eigen::VectorXd(entered / entered.sum()) : entered;
        for (int k = 0; k < ny; ++k)
            t.rows.push_back({"y" + std::to_string(k + 1), fixed(py[k]), fixed(enteredShown[k]),
                              fixed(asTarget ? lambdaForQ[k] : qForLambda[k])});
        figure.tables.push_back(std::move(t));
    }

    Summary& s = figure.summary;
    addProbabilities(s, "prior", "p_x", model.prior());
    addProbabilities(s, jr.summaryKey, "p_x", jeffreyReading.posteriorX);
    addProbabilities(s, ve.summaryKey, "p_x", virtualReading.posteriorX);
    addProbabilities(s, "prior", "p_y", model.marginalY());
    addProbabilities(s, jr.summaryKey, "p_y", jeffreyReading.marginalY);
    addProbabilities(s, ve.summaryKey, "p_y", virtualReading.marginalY);
    addProbabilities(s, "equivalence", "lambda_", lambdaForQ);
    addProbabilities(s, "equivalence", "q_", qForLambda);
    s.set("equivalence.max_abs_diff", maxDiff);
    addConsistency(figure, evidence::discreteConsistency(model, entered), "y");
    applyEmphasis(figure, v);
    return figure;
}

} // namespace evx::scenarios
