#include "scenarios/uncertain_evidence/evidence_figure.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace evx::scenarios {

ReadingStyle readingStyle(Reading reading)
{
    switch (reading) {
    case Reading::Prior:
        return {"Prior", "prior", kReferenceColour, true};
    case Reading::Exact:
        return {"Exact evidence", "exact", 5, true};
    case Reading::Jeffrey:
        return {"Jeffrey's rule", "jeffrey", 0, false};
    case Reading::Virtual:
        return {"Virtual evidence", "virtual", 3, false};
    case Reading::Distributional:
        return {"Distributional evidence", "distributional", 2, false};
    }
    return {"?", "unknown", -1, false};
}

Series densitySeries(Reading reading, const std::vector<double>& x, const std::vector<double>& pdf, double lo,
                     double hi)
{
    const ReadingStyle style = readingStyle(reading);
    Series s;
    s.name = style.legend;
    s.kind = SeriesKind::Line;
    s.colour = style.colour;
    s.dashed = style.dashed;
    for (size_t i = 0; i < x.size(); ++i) {
        if (x[i] >= lo && x[i] <= hi) {
            s.x.push_back(x[i]);
            s.y.push_back(pdf[i]);
        }
    }
    return s;
}

Range displayRange(const std::vector<std::pair<double, double>>& meanAndSd, double width)
{
    Range r{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (const auto& [mean, sd] : meanAndSd) {
        r.lo = std::min(r.lo, mean - width * sd);
        r.hi = std::max(r.hi, mean + width * sd);
    }
    return r;
}

void addMoments(Summary& summary, Reading reading, double mean, double sd)
{
    const std::string key = readingStyle(reading).summaryKey;
    summary.set(key + ".mean", mean);
    summary.set(key + ".sd", sd);
}

void addGridCoverage(Figure& figure, Reading reading, const GridDensity& density)
{
    const double outside = massBeyondGrid(density);
    if (outside <= 1e-6)
        return;
    char buf[240];
    if (outside < 0.01)
        std::snprintf(buf, sizeof buf,
                      "The %s posterior reaches past its grid: about %.1e of its mass lies outside, so its "
                      "moments are slightly off.",
                      readingStyle(reading).legend, outside);
    else
        std::snprintf(buf, sizeof buf,
                      "The %s posterior is cut off by its grid: the evidence and the prior disagree too "
                      "strongly for the grid to hold it, so its curve and moments are not reliable.",
                      readingStyle(reading).legend);
    figure.warnings.emplace_back(buf);
}

void addConsistency(Figure& figure, const evidence::ConsistencyCheck& check, const std::string& yName,
                    double shownFactor)
{
    figure.summary.set("jeffrey.consistent", check.consistent() ? 1 : 0);
    figure.summary.set("jeffrey.var_y", check.varY);
    figure.summary.set("jeffrey.expected_var_given_zeta", check.expectedVarGivenZeta);
    if (!check.consistent()) {
        char buf[320];
        std::snprintf(buf, sizeof buf,
                      "Jeffrey's rule is inconsistent with the base model: Var[%s] = %.4g is below "
                      "E[Var[%s | evidence]] = %.4g (Thm 3.3 III), so no joint model produces this "
                      "evidence.",
                      yName.c_str(), check.varY * shownFactor, yName.c_str(),
                      check.expectedVarGivenZeta * shownFactor);
        figure.warnings.emplace_back(buf);
    }
}

ParameterSpec emphasisParameter()
{
    ParameterSpec s;
    s.name = "emphasis";
    s.label = "Emphasise reading";
    s.kind = ParameterKind::Choice;
    s.choices = {"none", "jeffrey", "virtual", "distributional"};
    s.defaultValue = 0;
    s.step = 1;
    s.decimals = 0;
    s.minimum = 0;
    s.maximum = 3;
    s.tooltip = "Draw one reading bold and fade the others (Help → Which reading applies?)";
    return s;
}

namespace {

bool startsWith(const std::string& text, const char* prefix)
{
    return text.rfind(prefix, 0) == 0;
}

} // namespace

void applyEmphasis(Figure& figure, const ParameterValues& values)
{
    const auto it = values.find("emphasis");
    if (it == values.end() || it->second < 1 || it->second > 3)
        return;
    constexpr Reading kReadings[] = {Reading::Jeffrey, Reading::Virtual, Reading::Distributional};
    const Reading chosen = kReadings[int(it->second) - 1];
    auto readingOf = [&](const Series& s) -> int {
        for (int r = 0; r < 3; ++r)
            if (startsWith(s.name, readingStyle(kReadings[r]).legend))
                return r;
        return -1;
    };
    bool present = false;
    for (const Plot& p : figure.plots)
        for (const Series& s : p.series)
            present = present || (readingOf(s) >= 0 && kReadings[readingOf(s)] == chosen);
    if (!present)
        return;
    for (Plot& p : figure.plots)
        for (Series& s : p.series) {
            const int r = readingOf(s);
            if (r >= 0)
                s.emphasis = kReadings[r] == chosen ? 1 : -1;
        }
}

} // namespace evx::scenarios
