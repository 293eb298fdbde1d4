#pragma once
// The one registration site for scenarios: a stable id mapped to a factory.

#include "core/scenario.h"

#include <memory>
#include <string>
#include <vector>

namespace evx {

class ScenarioRegistry {
public:
    static const ScenarioRegistry& instance();

    // In registration order, which is also the browser's order within a topic.
    const std::vector<std::shared_ptr<const Scenario>>& all() const { return m_scenarios; }
    // nullptr if there is no scenario with that id.
    std::shared_ptr<const Scenario> find(const std::string& id) const;

private:
    ScenarioRegistry();
    std::vector<std::shared_ptr<const Scenario>> m_scenarios;
};

} // namespace evx
