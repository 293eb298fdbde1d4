#pragma once
// The input the generic tests and benchmarks give a scenario: its values, plus the public data
// set it names (from ../shared/data, beside the repository) when it opens one. A scenario that
// accepts a file of the user's but is written for data it simulates (bq-dp-mixture, bq-ibp)
// names none and runs on its own.
#include "core/scenario.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace evx::testing {

inline RunInput exampleInput(const Scenario& scenario, const ParameterValues& values)
{
    RunInput input{values, {}, {}};
    const ScenarioInputs accepts = scenario.inputs();
    if (accepts.dataFile && !accepts.dataSetName.empty()) {
        input.dataPath = std::string(EVX_SOURCE_DIR) + "/../shared/data/" + accepts.dataSetName;
        if (!std::filesystem::is_regular_file(input.dataPath)) {
            const std::string why =
                input.dataPath + " is missing: the tests expect ../shared beside the repository";
            std::fprintf(stderr, "%s\n", why.c_str());
            throw std::runtime_error(why);
        }
    }
    return input;
}

} // namespace evx::testing
