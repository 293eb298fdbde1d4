#pragma once
// A study: a paper's table as a batch of scenario runs (DESIGN.md "Studies"). Each cell is
// one setting of the scenario's parameters (labelled, e.g. truth × divergence × method) run
// over seeds; the table reports the mean and sd of one summary value per cell, beside the
// paper's number where it gives one.

#include "core/parameters.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace evx {

struct StudyCell {
    std::vector<std::pair<std::string, std::string>> labels; // column → value, e.g. {"method", "vb"}
    ParameterValues values;                                  // everything but the seed
    std::optional<double> paper;                             // the paper's value for the cell

    std::string label(const std::string& column) const;
};

struct Study {
    std::string id;         // e.g. "gb-table2"
    std::string title;      // what it reproduces
    std::string scenarioId; // the scenario every cell runs
    std::string metric;     // the summary key averaged over seeds, e.g. "jsd"
    std::string seedParameter = "seed";
    std::vector<std::string> columns; // label columns in table order
    std::vector<StudyCell> cells;
};

} // namespace evx
