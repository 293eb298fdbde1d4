#pragma once
// The input the generic tests and benchmarks give a scenario: its values, plus the public data
// set it names (from ../shared/data, beside the repository) when it opens one.
#include "core/scenario.h"

#include <string>

namespace evx::testing {

inline RunInput exampleInput(const Scenario& scenario, const ParameterValues& values)
{
    RunInput input{values, {}, {}};
    const ScenarioInputs accepts = scenario.inputs();
    if (accepts.dataFile)
        input.dataPath = std::string(EVX_SOURCE_DIR) + "/../shared/data/" + accepts.dataSetName;
    return input;
}

}  // namespace evx::testing
