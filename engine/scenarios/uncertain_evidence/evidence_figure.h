#pragma once
// Shared presentation of the uncertain-evidence scenarios: one name, colour and summary
// prefix per reading, so every scenario draws Jeffrey's rule in the same colour and
// reports it under the same keys (the summary keys are a contract, see issue 2).

#include "core/figure.h"
#include "core/grid.h"
#include "core/parameters.h"
#include "evidence/readings.h"

#include <string>
#include <vector>

namespace evx::scenarios {

enum class Reading { Prior, Exact, Jeffrey, Virtual, Distributional };

struct ReadingStyle {
    const char* legend;     // e.g. "Jeffrey's rule"
    const char* summaryKey; // e.g. "jeffrey"
    int colour;             // palette index
    bool dashed;
};
ReadingStyle readingStyle(Reading reading);

// The external evidence density q itself, drawn beside the prior predictive.
inline constexpr int kEvidenceColour = 4; // vermillion

// A density curve restricted to [lo, hi] so the plot frames where the mass is.
Series densitySeries(Reading reading, const std::vector<double>& x, const std::vector<double>& pdf, double lo,
                     double hi);

// The interval that shows every curve: the union of mean ± width·sd.
struct Range {
    double lo, hi;
};
Range displayRange(const std::vector<std::pair<double, double>>& meanAndSd, double width = 4.5);

void addMoments(Summary& summary, Reading reading, double mean, double sd);
// A warning when a reading's tabulated posterior holds less than all but 1e-6 of its mass.
void addGridCoverage(Figure& figure, Reading reading, const GridDensity& density);

// jeffrey.consistent, jeffrey.var_y and jeffrey.expected_var_given_zeta, plus a warning
// in the figure when the condition of Thm 3.3 (III) fails. The warning shows the variances
// × shownFactor (the unit yName states), the summary keeps them as computed.
void addConsistency(Figure& figure, const evidence::ConsistencyCheck& check, const std::string& yName,
                    double shownFactor = 1);

// The `emphasis` choice every ue-* scenario declares (none | jeffrey | virtual |
// distributional, default none), matching what the "Which reading applies?" guide recommends.
ParameterSpec emphasisParameter();

// Sets Series.emphasis from values["emphasis"]: +1 on every series of the chosen reading, −1
// on the series of the other readings; priors, evidence and reference curves stay at 0.
// A series belongs to a reading when its name starts with that reading's legend (so
// "Jeffrey's rule, A then B" is Jeffrey's rule). Nothing changes when the figure has no
// series of the chosen reading (e.g. distributional in a scenario without it).
void applyEmphasis(Figure& figure, const ParameterValues& values);

} // namespace evx::scenarios
