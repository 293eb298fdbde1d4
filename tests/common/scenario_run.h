#pragma once
// Running a registered scenario by id and reading its exported data, for the scenario tests.
#include "core/figure.h"
#include "scenarios/registry.h"

#include <QtGlobal>

#include <string>
#include <vector>

namespace evx::testing {

inline Figure runScenario(const std::string& id, const ParameterValues& values)
{
    const auto s = ScenarioRegistry::instance().find(id);
    if (!s)
        qFatal("scenario %s is not registered", id.c_str());
    return s->run(values, {});
}

// A column of the figure's exported data (JSON "data"); empty when it is missing, which the
// length checks then report.
inline std::vector<double> dataColumn(const Figure& f, const std::string& name)
{
    for (const auto& [key, values] : f.data)
        if (key == name)
            return values;
    return {};
}

} // namespace evx::testing
