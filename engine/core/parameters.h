#pragma once
// Parameter schema: each scenario declares its parameters once; the parameter panel,
// session files, presets and the command line's --set are all derived from it.

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace evx {

enum class ParameterKind { Real, Integer, Choice, Boolean };

struct ParameterSpec {
    std::string name;  // snake_case, stable: used in sessions and on the command line
    std::string label; // shown in the panel
    std::string unit;  // SI unit shown beside the value; empty if dimensionless
    ParameterKind kind = ParameterKind::Real;
    double minimum = 0;
    double maximum = 1;
    double defaultValue = 0;
    double step = 0.1;
    int decimals = 3;
    std::vector<std::string> choices; // Choice only; the value is the index
    std::string tooltip;
    bool logScale = false; // slider moves on a log scale (positive scales, widths)
    // The window's Play button steps this parameter by `step` until its maximum (e.g. the
    // number of samples, so a class watches a band shrink); at most one per scenario.
    bool animatable = false;
};

// A real parameter with a step of 1/200 of its range and as many decimals as the step
// needs; enough for nearly every declaration.
ParameterSpec realParameter(std::string name, std::string label, std::string unit, double minimum,
                            double maximum, double defaultValue, std::string tooltip, bool logScale = false);

ParameterSpec integerParameter(std::string name, std::string label, int minimum, int maximum,
                               int defaultValue, std::string tooltip, bool animatable = false);
ParameterSpec choiceParameter(std::string name, std::string label, std::vector<std::string> choices,
                              int defaultIndex, std::string tooltip);
ParameterSpec booleanParameter(std::string name, std::string label, bool defaultValue, std::string tooltip);

// Values by name. Every kind is stored as a double: a Choice as its index,
// a Boolean as 0 or 1.
using ParameterValues = std::map<std::string, double>;

class ParameterSchema {
public:
    ParameterSchema() = default;
    explicit ParameterSchema(std::vector<ParameterSpec> specs);

    const std::vector<ParameterSpec>& specs() const { return m_specs; }
    const ParameterSpec* find(const std::string& name) const;

    ParameterValues defaults() const;

    // Why a value is not acceptable (not a number, out of range, not an integer), or
    // nothing when it is.
    std::optional<std::string> check(const std::string& name, double value) const;

    // Parses text as the parameter's kind: a number, a choice name (or index),
    // or true/false. Throws InvalidParameter with a message naming the parameter.
    double parse(const std::string& name, const std::string& text) const;
    std::string format(const std::string& name, double value) const;

    // Throws InvalidParameter for the first unknown name or unacceptable value;
    // fills in defaults for missing names.
    ParameterValues complete(const ParameterValues& values) const;

private:
    std::vector<ParameterSpec> m_specs;
};

} // namespace evx
