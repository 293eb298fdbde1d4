#include "core/summary_labels.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace evx {
namespace {

// Keys that read better as one phrase than component by component.
const std::map<std::string, std::string> kWholeKeys = {
    {"test_ll", "Test log-likelihood"},
    {"val_ll", "Validation log-likelihood"},
    {"mi_x_z", "MI(x; μ_z)"},
    {"hz", "Henze–Zirkler statistic"},
    {"ks", "Kolmogorov–Smirnov statistic"},
    {"jsd", "Jensen–Shannon distance"},
    {"time.speedup", "Speed-up"},
    {"kernel.fit_samples", "Samples the length-scales were fitted to"},
    {"exact.log_evidence", "Exact: log evidence"},
    {"exact.evidence", "Exact: evidence"},
    {"c_lo", "Cₗₒ (lower end of the family)"},
    {"c_star", "C* (peak of the density)"},
    {"c_map", "C at the mode"},
    {"w_map", "W/C at the mode"},
    {"mean_x_squared", "Mean of x²"},
    {"corr_x_zhat", "corr(x, ẑ)"},
    {"picp", "PICP (interval coverage)"},
    {"mpiw", "MPIW (mean interval width)"},
};

// The first dot component, the thing a key is about: readings, methods, groups.
const std::map<std::string, std::string> kThings = {
    {"prior", "Prior"},
    {"jeffrey", "Jeffrey's rule"},
    {"virtual", "Virtual evidence"},
    {"distributional", "Distributional evidence"},
    {"distributional_exact", "Distributional evidence (exact)"},
    {"distributional_implied", "Distributional evidence (implied)"},
    {"exact", "Exact posterior"},
    {"adjusted_prior", "Adjusted prior"},
    {"jeffrey_a_then_b", "Jeffrey's rule, A then B"},
    {"jeffrey_b_then_a", "Jeffrey's rule, B then A"},
    {"virtual_b_then_a", "Virtual evidence, B then A"},
    {"posterior_true", "True posterior"},
    {"mc", "Monte Carlo"},
    {"n", "Observations"},
    {"loo", "Leave one out"},
};

// Any other dot component that reads better whole than token by token.
const std::map<std::string, std::string> kComponents = {
    {"var_y", "var(y)"},
    {"expected_var_given_zeta", "E[var(y | ζ)]"},
    {"n_e", "nₑ (inner draws)"},
    {"ess_p_mean", "mean ESS of p"},
    {"inner_ess_min", "smallest inner ESS"},
    {"omega_plus_m", "ω + M"},
    {"sd_plugin", "sd (plug-in)"},
    {"rel_error", "relative error"},
    {"sd_of_means", "sd of the means"},
    {"total", "total entropy"},
    {"aleatoric", "aleatoric entropy"},
    {"epistemic", "epistemic entropy"},
    {"log_sigma2", "log σ²"},
    {"log_sa", "log σₐ"},
    {"rms_vs_hmc", "RMS difference from HMC"},
    {"rms_vs_truth", "RMS difference from the truth"},
    {"likelihood_evaluations", "likelihood evaluations"},
};

// Single tokens, after a component is split at '_'.
const std::map<std::string, std::string> kTokens = {
    {"mu", "μ"},
    {"sigma", "σ"},
    {"tau", "τ"},
    {"lambda", "λ"},
    {"omega", "ω"},
    {"zeta", "ζ"},
    {"alpha0", "α₀"},
    {"beta0", "β₀"},
    {"beta1", "β₁"},
    {"gamma0", "γ₀"},
    {"alpha", "α"},
    {"beta", "β"},
    {"gamma", "γ"},
    {"ess", "ESS"},
    {"kl", "KL"},
    {"wvo", "WVO"},
    {"meb", "MEB"},
    {"mfvi", "MFVI"},
    {"ncai", "NCAI"},
    {"hmc", "HMC"},
    {"rmse", "RMSE"},
    {"elbo", "ELBO"},
    {"rms", "RMS"},
    {"z", "Z"},
    {"abs", "|·|"},
    {"lengthscale", "length-scale"},
    {"acceptance", "acceptance rate"},
    {"diff", "difference"},
    {"mi", "MI"},
    {"ll", "log-likelihood"},
    {"bq", "BQ"},
};

std::vector<std::string> split(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    for (;;) {
        const auto end = text.find(separator, start);
        parts.push_back(text.substr(start, end - start));
        if (end == std::string::npos)
            return parts;
        start = end + 1;
    }
}

bool allDigits(const std::string& s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string join(const std::vector<std::string>& parts, const std::string& separator)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i ? separator : "") + parts[i];
    return out;
}

// "max_abs_diff" → "max |difference|": an "abs" wraps the token after it.
std::string readComponent(const std::string& component)
{
    if (const auto it = kComponents.find(component); it != kComponents.end())
        return it->second;
    const std::vector<std::string> tokens = split(component, '_');
    std::vector<std::string> words;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& t = tokens[i];
        if (t.empty())
            continue;
        if (t == "abs" && i + 1 < tokens.size()) {
            // Appending rather than "|" + …: GCC 12 warns falsely (-Wrestrict) on the latter.
            std::string word(1, '|');
            word += readComponent(tokens[++i]);
            word += '|';
            words.push_back(std::move(word));
        } else if (t == "p" && i + 1 < tokens.size()) {
            words.push_back("P(" + tokens[++i] + ")"); // "p_x1" → "P(x1)"
        } else if (allDigits(t) && !words.empty()) {
            words.back() += t; // "lambda_1" → "λ1", "q_1" → "q1"
        } else if (t.size() > 1 && t[0] == 'k' && allDigits(t.substr(1))) {
            words.push_back("k = " + t.substr(1)); // "k5": a subsample of 5 groups
        } else if (const auto it = kTokens.find(t); it != kTokens.end()) {
            words.push_back(it->second);
        } else {
            words.push_back(t);
        }
    }
    return join(words, " ");
}

std::string capitalised(std::string text)
{
    if (!text.empty() && std::islower(static_cast<unsigned char>(text[0])))
        text[0] = char(std::toupper(static_cast<unsigned char>(text[0])));
    return text;
}

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The time unit a key is written in (keys under "time." ending "_ms" or "_s"), or "".
std::string timeUnitOf(const std::string& key)
{
    if (key.rfind("time.", 0) != 0)
        return {};
    if (endsWith(key, "_ms"))
        return "ms";
    if (endsWith(key, "_s"))
        return "s";
    return {};
}

std::string withoutTimeSuffix(const std::string& key)
{
    const std::string unit = timeUnitOf(key);
    return unit.empty() ? key : key.substr(0, key.size() - unit.size() - 1);
}

} // namespace

std::string summaryDisplayName(const std::string& key)
{
    if (const auto it = kWholeKeys.find(key); it != kWholeKeys.end())
        return it->second;
    const std::vector<std::string> components = split(withoutTimeSuffix(key), '.');
    const auto known = kThings.find(components.front());
    std::string thing =
        known != kThings.end() ? known->second : capitalised(readComponent(components.front()));
    if (components.size() == 1)
        return thing;
    std::vector<std::string> rest;
    for (std::size_t i = 1; i < components.size(); ++i)
        rest.push_back(readComponent(components[i]));
    // "jeffrey.omega.mean" reads "Jeffrey's rule: mean of ω", not "ω mean".
    const std::string& statistic = components.back();
    if (rest.size() >= 2 && (statistic == "mean" || statistic == "sd")) {
        rest.pop_back();
        return thing + ": " + statistic + " of " + join(rest, " ");
    }
    return thing + ": " + join(rest, " ");
}

bool summaryUnitMatches(const std::string& pattern, const std::string& key)
{
    if (pattern.size() > 2 && pattern.compare(0, 2, "*.") == 0)
        return endsWith(key, pattern.substr(1));
    if (pattern.size() > 2 && endsWith(pattern, ".*"))
        return key.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
    return pattern == key;
}

std::string summaryUnit(const std::string& key, const ParameterSchema* schema,
                        const std::vector<SummaryUnit>& hints)
{
    for (const SummaryUnit& hint : hints)
        if (summaryUnitMatches(hint.pattern, key))
            return hint.unit;
    if (!schema)
        return {};
    // Only the components before the statistic name a quantity: "jeffrey.omega.mean" → omega.
    const std::vector<std::string> components = split(key, '.');
    for (std::size_t i = 0; i + 1 < components.size(); ++i) {
        const std::string& c = components[i];
        for (const ParameterSpec& spec : schema->specs())
            if (!spec.unit.empty() && (spec.name == c || endsWith(spec.name, "_" + c)))
                return spec.unit;
    }
    return {};
}

double summaryUnitFactor(const std::string& key, const std::vector<SummaryUnit>& hints)
{
    for (const SummaryUnit& hint : hints)
        if (summaryUnitMatches(hint.pattern, key))
            return hint.factor;
    return 1;
}

std::string formatSummaryNumber(double value)
{
    if (std::isnan(value))
        return "–";
    if (std::isinf(value))
        return value > 0 ? "∞" : "-∞"; // ASCII minus, as in every negative number (pastes as text)
    if (value == 0)
        return "0";
    char buffer[64];
    const double magnitude = std::fabs(value);
    if (value == std::round(value) && magnitude < 1e15) {
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
        return buffer;
    }
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    std::string text = buffer;
    const auto e = text.find('e');
    if (e == std::string::npos)
        return text;
    // "6.97e-17" → "6.97×10⁻¹⁷": a reader should not have to parse C's notation.
    static const char* const kSuperscripts[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string mantissa = text.substr(0, e);
    const int exponent = std::stoi(text.substr(e + 1));
    std::string power = exponent < 0 ? "⁻" : "";
    for (char digit : std::to_string(std::abs(exponent)))
        power += kSuperscripts[digit - '0'];
    return (mantissa == "1" ? "" : mantissa + "×") + "10" + power;
}

std::vector<SummaryRow> presentSummary(const Summary& summary, const ParameterSchema* schema,
                                       const std::vector<SummaryUnit>& hints)
{
    const auto& entries = summary.entries();
    std::map<std::string, double> largestOfStatistic;
    double largestMs = 0;
    for (const auto& [key, value] : entries) {
        const std::string statistic = split(key, '.').back();
        if (std::isfinite(value))
            largestOfStatistic[statistic] = std::max(largestOfStatistic[statistic], std::fabs(value));
        const std::string t = timeUnitOf(key);
        if (!t.empty() && std::isfinite(value))
            largestMs = std::max(largestMs, std::fabs(value) * (t == "s" ? 1000.0 : 1.0));
    }
    const std::string timeUnit = largestMs >= 1000 ? "s" : "ms";

    std::vector<SummaryRow> rows;
    std::set<std::string> names;
    for (const auto& [key, value] : entries) {
        SummaryRow row;
        row.key = key;
        row.name = summaryDisplayName(key);
        // Two keys that read alike keep apart by their stable key rather than silently merging.
        if (!names.insert(row.name).second)
            row.name += " [" + key + "]";
        row.value = value;
        row.raw = value;
        if (const std::string t = timeUnitOf(key); !t.empty()) {
            row.unit = timeUnit;
            row.value = value * (t == "s" ? 1000.0 : 1.0) / (timeUnit == "s" ? 1000.0 : 1.0);
        } else {
            row.unit = summaryUnit(key, schema, hints);
            row.value = value * summaryUnitFactor(key, hints);
        }
        // Noise is judged on the stored values: a factor does not change what is noise.
        const double scale = std::max(1.0, largestOfStatistic[split(key, '.').back()]);
        if (std::isfinite(value) && std::fabs(value) < 1e-12 * scale)
            row.value = 0;
        row.text = formatSummaryNumber(row.value);
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace evx
