#pragma once
// The scenario contract (DESIGN.md): one explorable experiment with a declared
// parameter schema, presets, and a pure, re-entrant run().

#include "core/figure.h"
#include "core/parameters.h"
#include "core/run_context.h"

#include <string>
#include <vector>

namespace evx {

struct ScenarioInfo {
    std::string id;     // kebab-case, stable: persisted in sessions and used on the command line
    std::string title;
    std::string topic;  // groups scenarios in the browser
    std::string summary;  // one line for tooltips and --list-scenarios
};

struct Preset {
    std::string name;         // e.g. "fig2-left"
    std::string description;  // what it reproduces
    ParameterValues values;   // only the parameters it changes
};

class Scenario {
public:
    virtual ~Scenario() = default;

    virtual ScenarioInfo info() const = 0;
    virtual const ParameterSchema& schema() const = 0;
    virtual std::vector<Preset> presets() const { return {}; }

    // Pure and re-entrant: may run on any thread, concurrently with itself.
    // Throws InvalidParameter for bad inputs, Cancelled when context says so.
    virtual Figure run(const ParameterValues& values, const RunContext& context) const = 0;

    // The defaults overlaid with a preset's values; throws InvalidParameter if unknown.
    ParameterValues presetValues(const std::string& presetName) const;
};

}  // namespace evx
