#pragma once
// The scenario contract (DESIGN.md): one explorable experiment with a declared
// parameter schema, presets, and a pure, re-entrant run().

#include "core/figure.h"
#include "core/parameters.h"
#include "core/run_context.h"
#include "core/summary_labels.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace evx {

struct ScenarioInfo {
    std::string id; // kebab-case, stable: persisted in sessions and used on the command line
    std::string title;
    std::string topic;   // groups scenarios in the browser
    std::string summary; // one line for tooltips and --list-scenarios
};

struct Preset {
    std::string name;        // e.g. "fig2-left"
    std::string description; // what it reproduces
    ParameterValues values;  // only the parameters it changes
};

// Inputs beyond the numeric parameters that a scenario accepts; the window offers them
// (clicks on a plot, File → Open Data Set…) only to scenarios that declare them.
struct ScenarioInputs {
    bool userPoints = false; // clicking plot `pointPlot` adds a point (e.g. a BQ sample location)
    int pointPlot = 0;
    std::string pointsHelp;     // what a click does, shown in the status bar
    bool dataFile = false;      // the user may open a data set from a file
    std::string dataFileFilter; // for the file dialog, e.g. "CSV files (*.csv)"
    // The public data set it is written for, as named in ../shared/data (e.g. "scots_sec.csv");
    // tests and benchmarks run the scenario on that file. Empty for a scenario that simulates its
    // own data and only accepts the user's (bq-dp-mixture, bq-ibp): tests run it on its own data.
    std::string dataSetName;

    // Limits, checked by validateRunInput before a run (core/input_limits.h). Points
    // outside the box are refused, not clamped: a point at 1e300 is a typing error.
    int maxPoints = 100;
    std::array<double, 2> pointMin{-1e6, -1e6}; // (x, y)
    std::array<double, 2> pointMax{1e6, 1e6};
    std::uintmax_t maxDataBytes = std::uintmax_t(16) << 20;
};

// One kind of work a run does, counted from its input before it starts; a run whose count
// exceeds the limit is refused with a message naming what to lower.
struct WorkBudget {
    std::string what; // e.g. "sampler steps (walkers × steps over all runs)"
    double count = 0;
    double limit = 0;
    std::string lowerBy; // e.g. "n_e, walkers or jr_steps"
};

// Everything one run depends on; sessions and the runner carry all of it.
struct RunInput {
    ParameterValues values;
    std::vector<std::array<double, 2>> points; // clicked (x, y) in plot coordinates, in click order
    std::string dataPath;                      // "" means the scenario's built-in data
};

class Scenario {
public:
    virtual ~Scenario() = default;

    virtual ScenarioInfo info() const = 0;
    virtual const ParameterSchema& schema() const = 0;
    virtual std::vector<Preset> presets() const { return {}; }

    virtual ScenarioInputs inputs() const { return {}; }

    // Pure and re-entrant: may run on any thread, concurrently with itself.
    // Throws InvalidParameter for bad inputs, Cancelled when context says so.
    virtual Figure run(const ParameterValues& values, const RunContext& context) const = 0;
    // The full input; scenarios that declare points or a data file override this, the rest
    // get their parameters alone. The runner, the window and the command line call this one.
    virtual Figure runWith(const RunInput& input, const RunContext& context) const
    {
        return run(input.values, context);
    }

    // The work this input asks for, one entry per budget; scenarios whose cost grows with
    // their parameters declare it (a closed form needs none).
    virtual std::vector<WorkBudget> workBudget(const RunInput&) const { return {}; }

    // Units of summary keys that no parameter names (e.g. "*.mean" → "m/s²" where every
    // posterior is over g); the window's summary shows them (core/summary_labels.h).
    virtual std::vector<SummaryUnit> summaryUnits() const { return {}; }

    // What the runner, the window and the command line call: validateRunInput, runWith,
    // then checkSummaryFinite. Throws InvalidParameter, NumericalError or Cancelled.
    Figure runChecked(const RunInput& input, const RunContext& context) const;

    // The defaults overlaid with a preset's values; throws InvalidParameter if unknown.
    ParameterValues presetValues(const std::string& presetName) const;
};

} // namespace evx
