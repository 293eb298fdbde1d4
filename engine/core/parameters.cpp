#include "core/parameters.h"

#include "core/errors.h"
#include "core/input_limits.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

namespace evx {
namespace {

std::string formatNumber(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", std::max(decimals, 1) + 6, v);
    return buf;
}

bool parseDouble(const std::string& text, double& out)
{
    const char* first = text.data();
    const char* last = text.data() + text.size();
    while (first < last && *first == ' ')
        ++first;
    while (last > first && last[-1] == ' ')
        --last;
    if (first == last)
        return false;
    if (*first == '+')
        ++first;
    auto [ptr, ec] = std::from_chars(first, last, out);
    return ec == std::errc() && ptr == last;
}

// The fewest decimals (up to 6) that write v exactly.
int decimalsOf(double v)
{
    for (int d = 0; d < 6; ++d) {
        const double scaled = v * std::pow(10.0, d);
        if (std::fabs(scaled - std::round(scaled)) < 1e-9 * std::max(1.0, std::fabs(scaled)))
            return d;
    }
    return 6;
}

} // namespace

ParameterSpec realParameter(std::string name, std::string label, std::string unit, double minimum,
                            double maximum, double defaultValue, std::string tooltip, bool logScale)
{
    ParameterSpec s;
    s.name = std::move(name);
    s.label = std::move(label);
    s.unit = std::move(unit);
    s.kind = ParameterKind::Real;
    s.minimum = minimum;
    s.maximum = maximum;
    s.defaultValue = defaultValue;
    s.tooltip = std::move(tooltip);
    s.logScale = logScale;
    s.step = std::pow(10.0, std::floor(std::log10((maximum - minimum) / 100)));
    s.decimals = std::max({decimalsOf(s.step), decimalsOf(minimum), decimalsOf(defaultValue)});
    return s;
}

ParameterSpec integerParameter(std::string name, std::string label, int minimum, int maximum,
                               int defaultValue, std::string tooltip, bool animatable)
{
    ParameterSpec s;
    s.name = std::move(name);
    s.label = std::move(label);
    s.kind = ParameterKind::Integer;
    s.minimum = minimum;
    s.maximum = maximum;
    s.defaultValue = defaultValue;
    s.step = 1;
    s.decimals = 0;
    s.tooltip = std::move(tooltip);
    s.animatable = animatable;
    return s;
}

ParameterSpec choiceParameter(std::string name, std::string label, std::vector<std::string> choices,
                              int defaultIndex, std::string tooltip)
{
    ParameterSpec s;
    s.name = std::move(name);
    s.label = std::move(label);
    s.kind = ParameterKind::Choice;
    s.minimum = 0;
    s.maximum = double(choices.size()) - 1;
    s.defaultValue = defaultIndex;
    s.step = 1;
    s.decimals = 0;
    s.choices = std::move(choices);
    s.tooltip = std::move(tooltip);
    return s;
}

ParameterSpec booleanParameter(std::string name, std::string label, bool defaultValue, std::string tooltip)
{
    ParameterSpec s;
    s.name = std::move(name);
    s.label = std::move(label);
    s.kind = ParameterKind::Boolean;
    s.minimum = 0;
    s.maximum = 1;
    s.defaultValue = defaultValue ? 1 : 0;
    s.step = 1;
    s.decimals = 0;
    s.tooltip = std::move(tooltip);
    return s;
}

ParameterSchema::ParameterSchema(std::vector<ParameterSpec> specs) : m_specs(std::move(specs))
{
    std::set<std::string> names;
    for (const auto& s : m_specs) {
        if (!names.insert(s.name).second)
            throw std::logic_error("duplicate parameter '" + s.name + "'");
        if (s.kind == ParameterKind::Choice) {
            if (s.choices.empty())
                throw std::logic_error("choice parameter '" + s.name + "' has no choices");
        }
        if (check(s.name, s.defaultValue))
            throw std::logic_error("default of '" + s.name + "' is not acceptable");
    }
}

const ParameterSpec* ParameterSchema::find(const std::string& name) const
{
    auto it =
        std::find_if(m_specs.begin(), m_specs.end(), [&](const ParameterSpec& s) { return s.name == name; });
    return it == m_specs.end() ? nullptr : &*it;
}

ParameterValues ParameterSchema::defaults() const
{
    ParameterValues v;
    for (const auto& s : m_specs)
        v[s.name] = s.defaultValue;
    return v;
}

std::optional<std::string> ParameterSchema::check(const std::string& name, double value) const
{
    const ParameterSpec* s = find(name);
    if (!s)
        return "unknown parameter " + quoteForMessage(name);
    if (!std::isfinite(value))
        return s->name + ": not a finite number";
    switch (s->kind) {
    case ParameterKind::Boolean:
        if (value != 0 && value != 1)
            return s->name + ": must be true or false";
        return std::nullopt;
    case ParameterKind::Choice:
        if (value != std::floor(value) || value < 0 || value >= double(s->choices.size()))
            return s->name + ": not one of the choices";
        return std::nullopt;
    case ParameterKind::Integer:
        if (value != std::floor(value))
            return s->name + ": must be a whole number";
        [[fallthrough]];
    case ParameterKind::Real:
        if (value < s->minimum || value > s->maximum) {
            std::string unit = s->unit.empty() ? "" : " " + s->unit;
            return s->name + ": " + formatNumber(value, s->decimals) + " is outside the range " +
                   formatNumber(s->minimum, s->decimals) + " to " + formatNumber(s->maximum, s->decimals) +
                   unit;
        }
        return std::nullopt;
    }
    return std::nullopt;
}

double ParameterSchema::parse(const std::string& name, const std::string& text) const
{
    const ParameterSpec* s = find(name);
    if (!s)
        throw InvalidParameter("unknown parameter " + quoteForMessage(name));
    double value = 0;
    if (s->kind == ParameterKind::Choice) {
        auto it = std::find(s->choices.begin(), s->choices.end(), text);
        if (it != s->choices.end()) {
            value = double(it - s->choices.begin());
        } else if (!parseDouble(text, value)) {
            std::string list;
            for (const auto& c : s->choices)
                list += (list.empty() ? "" : ", ") + c;
            throw InvalidParameter(name + ": " + quoteForMessage(text) + " is not one of " + list);
        }
    } else if (s->kind == ParameterKind::Boolean) {
        if (text == "true" || text == "1")
            value = 1;
        else if (text == "false" || text == "0")
            value = 0;
        else
            throw InvalidParameter(name + ": " + quoteForMessage(text) + " is not true or false");
    } else if (!parseDouble(text, value)) {
        throw InvalidParameter(name + ": " + quoteForMessage(text) + " is not a number");
    }
    if (auto why = check(name, value))
        throw InvalidParameter(*why);
    return value;
}

std::string ParameterSchema::format(const std::string& name, double value) const
{
    const ParameterSpec* s = find(name);
    if (!s)
        return formatNumber(value, 3);
    switch (s->kind) {
    case ParameterKind::Choice: {
        auto i = static_cast<size_t>(value);
        return i < s->choices.size() ? s->choices[i] : formatNumber(value, 0);
    }
    case ParameterKind::Boolean:
        return value != 0 ? "true" : "false";
    default:
        return formatNumber(value, s->decimals);
    }
}

ParameterValues ParameterSchema::complete(const ParameterValues& values) const
{
    ParameterValues out = defaults();
    for (const auto& [name, value] : values) {
        if (auto why = check(name, value))
            throw InvalidParameter(*why);
        out[name] = value;
    }
    return out;
}

} // namespace evx
