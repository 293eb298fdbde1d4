#include "scenarios/registry.h"

#include "scenarios/uncertain_evidence/drop_ball_scenario.h"
#include "scenarios/uncertain_evidence/gaussian_scenario.h"

#include <algorithm>

namespace evx {

ScenarioRegistry::ScenarioRegistry()
{
    // Ids are persisted in session files: never rename one without an upgrade step.
    m_scenarios.push_back(std::make_shared<scenarios::GaussianScenario>());
    m_scenarios.push_back(std::make_shared<scenarios::DropBallScenario>());
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

}  // namespace evx
