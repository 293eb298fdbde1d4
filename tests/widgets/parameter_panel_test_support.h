#pragma once
// Parameter specs for the ParameterPanel suites: one of each kind, with units and a log scale.
#include "core/parameters.h"

#include <string>
#include <utility>

namespace evx::panel_test {

inline ParameterSpec spec(std::string name, std::string label, std::string unit, ParameterKind kind,
                          double minimum, double maximum, double defaultValue, double step, int decimals)
{
    ParameterSpec s;
    s.name = std::move(name);
    s.label = std::move(label);
    s.unit = std::move(unit);
    s.kind = kind;
    s.minimum = minimum;
    s.maximum = maximum;
    s.defaultValue = defaultValue;
    s.step = step;
    s.decimals = decimals;
    return s;
}

inline ParameterSchema sampleSchema()
{
    ParameterSpec mu = spec("mu_x", "Prior mean", "m", ParameterKind::Real, -10, 10, 0, 0.5, 2);
    mu.tooltip = "Mean of the Gaussian prior on x.";
    ParameterSpec sigma = spec("sigma_x", "Prior sd", "m", ParameterKind::Real, 0.1, 20, 2, 0.1, 3);
    sigma.logScale = true;
    sigma.tooltip = "Standard deviation of the prior.";
    ParameterSpec samples = spec("samples", "Samples", "", ParameterKind::Integer, 1, 200, 50, 1, 0);
    ParameterSpec method = spec("method", "Interpretation", "", ParameterKind::Choice, 0, 2, 0, 1, 0);
    method.choices = {"Jeffrey's rule", "virtual evidence", "distributional"};
    ParameterSpec prior = spec("show_prior", "Show prior", "", ParameterKind::Boolean, 0, 1, 1, 1, 0);
    return ParameterSchema({mu, sigma, samples, method, prior});
}

} // namespace evx::panel_test
