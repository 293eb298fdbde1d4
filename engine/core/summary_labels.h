#pragma once
// How a Summary is shown to a reader: a readable name per stable key, a unit where the key is a
// model quantity with one, and numbers without rounding noise. The keys themselves stay as they
// are in JSON and CSV exports; only the window's table uses these names.
//
// Names: a key "<thing>.<statistic>" reads "<Thing>: <statistic>", e.g. "jeffrey.sd" →
// "Jeffrey's rule: sd", and "<thing>.<quantity>.mean" reads "<Thing>: mean of <quantity>".
// Each dot component is looked up whole, then split at '_' and each token
// looked up (Greek letters, acronyms, "p_x1" → "P(x1)", "k5" → "k = 5"); what no dictionary
// knows is kept with '_' read as a space. A short table of whole-key exceptions covers keys
// that read better as one phrase ("test_ll" → "Test log-likelihood", "time.speedup" → "Speed-up").
//
// Units: a scenario's hints (Scenario::summaryUnits) come first; otherwise a key whose thing
// (or one of its components) is a parameter's name, or the end of one after '_' (e.g.
// "jeffrey.omega.mean" and the parameter "true_omega"), takes that parameter's unit. Times are
// keys under "time." ending in "_ms" (or "_s"); one scenario shows all of them in ms, or all in s
// when the largest is at least 1000 ms.
//
// Numbers: a value v is shown as 0 when |v| < 1e-12 · max(1, max |w|) over the values w of
// the same statistic (the key's last component), i.e. rounding noise next to its peers, or
// below 1e-12 when all are tiny; otherwise 6 significant digits, fixed notation for
// 1e-4 ≤ |v| < 1e6 and "d.ddddd×10ⁿ" outside; integers below 1e15 in full; NaN "–", inf "∞" and "-∞".

#include "core/figure.h"
#include "core/parameters.h"

#include <string>
#include <vector>

namespace evx {

// A unit for the keys that match pattern: the whole key, "*.<suffix>" (any key ending in
// ".<suffix>") or "<prefix>.*" (any key starting with "<prefix>."). A value is shown as
// stored × factor in `unit`, so that a scenario shows one unit per kind of quantity whatever
// unit its code computes in (e.g. Kepler's period sd, computed in days, shown in minutes:
// factor 1440); the Summary, and so JSON and CSV, keep the stored value.
struct SummaryUnit {
    std::string pattern;
    std::string unit;
    double factor = 1;
};

struct SummaryRow {
    std::string key;  // stable, as in the Summary
    std::string name; // readable, unique within a summary
    std::string unit; // "" when dimensionless or unknown
    double value = 0; // in `unit` (a time may be converted from ms to s, a hint scales by its
                      // factor), snapped to 0 if noise
    std::string text; // value as shown
    double raw = 0;   // as in the Summary
};

std::string summaryDisplayName(const std::string& key);

bool summaryUnitMatches(const std::string& pattern, const std::string& key);

// The unit of key from hints, then schema (nullptr: none); "" if neither gives one. Times
// are handled by presentSummary, which sees all of a scenario's times at once.
std::string summaryUnit(const std::string& key, const ParameterSchema* schema,
                        const std::vector<SummaryUnit>& hints);
// The factor of the first hint matching key; 1 if none matches.
double summaryUnitFactor(const std::string& key, const std::vector<SummaryUnit>& hints);

std::string formatSummaryNumber(double value);

std::vector<SummaryRow> presentSummary(const Summary& summary, const ParameterSchema* schema = nullptr,
                                       const std::vector<SummaryUnit>& hints = {});

} // namespace evx
