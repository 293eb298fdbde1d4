#pragma once
// The coverage study of bq-1d (issue 13, "Bands you can trust"): does the truth fall inside
// z.mean ± 2·z.sd as often as a calibrated Gaussian band promises (95 %)?
//
// A cell is a method (bq, log-gp-bq), a strategy (active, mc) and a number of samples
// (10, 25, 50). Its configurations vary what a user varies: the integrand (all four), the
// prior mean and sd (a 5 × 5 grid per integrand, around where that integrand has its mass)
// and the seed (one per configuration). Coverage of a cell = the share of its runs with
// |z.mean − z.true| ≤ 2·z.sd. The configurations are ParameterValues of bq-1d, so a study
// (`--table bq-calibration`) runs them through the scenario as the window does.

#include "core/figure.h"
#include "core/parameters.h"

#include <string>
#include <vector>

namespace evx::scenarios::quadrature {

struct CalibrationCell {
    std::string method;   // "bq" or "log-gp-bq" (bq-1d's method choices)
    std::string strategy; // "active" or "mc"
    int samples = 10;
    double target = 0.95; // the coverage issue 13 asks of this cell
};

// The 12 cells in table order (method, strategy, then n = 10, 25, 50).
std::vector<CalibrationCell> calibrationCells();

// Complete bq-1d parameter values of one cell: perIntegrand configurations of each of the four
// integrands (25 gives the study's 100 per cell; fewer take an evenly spread subset of the
// 5 × 5 prior grid, for a quick check). Deterministic: the same call gives the same runs.
std::vector<ParameterValues> calibrationConfigurations(const CalibrationCell& cell, int perIntegrand = 25);

// What a run contributes: the truth, the estimate and its sd (z.true, z.mean, z.sd).
struct CalibrationOutcome {
    double truth = 0, mean = 0, sd = 0;
    bool covered() const;             // |mean − truth| ≤ 2 sd
    double standardisedError() const; // |mean − truth| / sd (inf for sd = 0)
};
CalibrationOutcome calibrationOutcome(const Figure& figure);

struct CoverageSummary {
    int runs = 0;
    int covered = 0;
    double coverage = 0;                // covered / runs
    double medianStandardisedError = 0; // 0.674 for a calibrated Gaussian band
    double maxStandardisedError = 0;
};
CoverageSummary coverage(const std::vector<CalibrationOutcome>& outcomes);

} // namespace evx::scenarios::quadrature
