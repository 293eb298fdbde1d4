#include "scenarios/registry.h"

#include "scenarios/bnn/identifiability_scenario.h"
#include "scenarios/bnn/ncai_scenario.h"
#include "scenarios/bnn/uncertainty_scenario.h"
#include "scenarios/genbayes/gb_scenario.h"
#include "scenarios/quadrature/bq_1d_scenario.h"
#include "scenarios/quadrature/bq_2d_marginal_scenario.h"
#include "scenarios/quadrature/bq_dp_mixture_scenario.h"
#include "scenarios/quadrature/bq_evidence_scenario.h"
#include "scenarios/quadrature/bq_ibp_scenario.h"
#include "scenarios/uncertain_evidence/commutativity_scenario.h"
#include "scenarios/uncertain_evidence/discrete_scenario.h"
#include "scenarios/uncertain_evidence/drop_ball_scenario.h"
#include "scenarios/uncertain_evidence/gaussian_scenario.h"
#include "scenarios/uncertain_evidence/hetero_scenario.h"
#include "scenarios/uncertain_evidence/kepler_scenario.h"
#include "scenarios/wvo/attainment_scenario.h"
#include "scenarios/wvo/beta_bernoulli_scenario.h"
#include "scenarios/wvo/eight_schools_scenario.h"
#include "scenarios/wvo/normal_hyper_scenario.h"
#include "scenarios/wvo/normal_scenario.h"
#include "scenarios/wvo/rats_scenario.h"

#include <algorithm>

namespace evx {

ScenarioRegistry::ScenarioRegistry()
{
    // Ids are persisted in session files: never rename one without an upgrade step.
    // Topics in the order of DESIGN.md; the browser keeps this order within a topic.
    m_scenarios.push_back(std::make_shared<scenarios::GaussianScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::DropBallScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::DiscreteScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::HeteroScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::CommutativityScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::KeplerScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::Bq1dScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::BqEvidenceScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::Bq2dMarginalScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::BqDpMixtureScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::BqIbpScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::WvoBetaBernoulliScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::WvoNormalScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::WvoNormalHyperScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::WvoEightSchoolsScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::WvoRatsScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::WvoAttainmentScenario>());
    m_scenarios.push_back(scenarios::makeGbPoissonScenario());
    m_scenarios.push_back(scenarios::makeGbGaussianScenario());
    m_scenarios.push_back(scenarios::makeGbRegressionScenario());
    m_scenarios.push_back(std::make_shared<scenarios::BnnIdentifiabilityScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::BnnNcaiScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::BnnUncertaintyScenario>());
}

const ScenarioRegistry& ScenarioRegistry::instance()
{
    static const ScenarioRegistry registry;
    return registry;
}

std::shared_ptr<const Scenario> ScenarioRegistry::find(const std::string& id) const
{
    auto it = std::find_if(m_scenarios.begin(), m_scenarios.end(),
                           [&](const auto& s) { return s->info().id == id; });
    return it == m_scenarios.end() ? nullptr : *it;
}

} // namespace evx
