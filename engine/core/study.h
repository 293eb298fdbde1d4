#pragma once
// A study: a paper's table as a batch of scenario runs (DESIGN.md "Studies"). Each cell is
// one setting of the scenario's parameters (labelled, e.g. truth × divergence × method) run
// over replicates (seeds, or data splits); the table reports the mean and sd of each metric
// per cell, beside the paper's number where it gives one.
//
// A replicate may run several restarts and keep the one that scores best on a selection key
// (the BNN paper keeps, per split, the best of 10 restarts by validation log-likelihood).

#include "core/figure.h"
#include "core/parameters.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace evx {

struct StudyCell {
    std::vector<std::pair<std::string, std::string>> labels; // column → value, e.g. {"method", "vb"}
    ParameterValues values;                                  // everything but the replicate's own
    std::vector<std::pair<std::string, double>> paper;       // metric → the paper's value
    // The scenario this cell runs; empty for the study's own (Study::scenarioId). Lets one
    // table set rows of different scenarios side by side.
    std::string scenarioId;

    std::string label(const std::string& column) const;
    std::optional<double> paperValue(const std::string& metric) const;
};

// How the JSON and CSV rows name the mean and sd of a metric m.
enum class RowNaming {
    MeanSdPrefix, // "mean_m", "sd_m" (the generalised-Bayes tables)
    SdSuffix,     // "m", "m_sd" (the BNN tables)
};

struct Study {
    std::string id;    // e.g. "gb-table2"
    std::string title; // what it reproduces
    // What a reader comparing with the paper should know (printed under the Markdown
    // table's heading and carried in the JSON); empty for most tables.
    std::string note;
    std::string scenarioId; // the scenario every cell runs
    // Recorded for every run and averaged per cell: summary keys, or names `derive` knows.
    std::vector<std::string> metrics;
    // Metrics of `metrics` aggregated by the median over replicates instead of the mean (a
    // heavy-tailed metric whose mean one bad replicate would set); the tables say "median".
    std::vector<std::string> medianMetrics;
    std::vector<std::string> columns; // label columns in table order
    std::vector<StudyCell> cells;

    // Replicates 0 … N−1 of every cell; N from the command line (replicateOption) or the default.
    std::string replicateOption = "--seeds";
    std::string replicateKey = "seed"; // names the replicate in the JSON runs and the CSV/Markdown count
    int defaultReplicates = 50;
    int maxReplicates = 10000;
    // The parameters replicate r, restart k sets; by default the parameter `replicateKey` = r.
    std::function<ParameterValues(int replicate, int restart)> replicateValues;

    // Restarts per replicate (--restarts N), of which the one with the largest summary value
    // `selectBy` counts; without a selection key every replicate runs once.
    std::string selectBy;
    int defaultRestarts = 1;

    // A metric's value from a run's summary, for metrics that are not summary keys (e.g. whether
    // an interval covered the truth); throws std::out_of_range when the summary lacks what it needs.
    std::function<double(const std::string& metric, const Summary&)> derive;

    // Options that keep only some cells, e.g. {"--methods", "method"}: a comma list of labels.
    std::vector<std::pair<std::string, std::string>> filters;
    // Options that set one scenario parameter in every cell, e.g. {"--epochs", "epochs"}.
    std::vector<std::pair<std::string, std::string>> parameterOptions;
    RowNaming naming = RowNaming::MeanSdPrefix;

    // The scenario `cell` runs: its own, else the study's.
    const std::string& scenarioOf(const StudyCell& cell) const;
    bool isMedian(const std::string& metric) const;
    ParameterValues runValues(const StudyCell& cell, int replicate, int restart) const;
    double metricValue(const std::string& metric, const Summary& summary) const;
};

} // namespace evx
