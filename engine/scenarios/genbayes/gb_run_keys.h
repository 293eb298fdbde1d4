#pragma once
// The keys under which a generalised-Bayes scenario caches its work (δ vectors, surfaces,
// references) and seeds its simulations, and the parameter values they are made from. A key
// names exactly what the cached thing depends on: a run that changes only something else finds
// it again, and a run that keeps its key keeps its simulation seeds.

#include "core/parameters.h"

#include <Eigen/Core>

#include <initializer_list>
#include <string>
#include <string_view>

namespace evx::scenarios::gb_run_keys {

// The values as the run uses them: simulation=auto replaced by the design it stands for, and a
// fixed penalty (eb_precision, cv_c) cleared unless the chosen classifier uses it. Made before
// any key, so that auto and its choice, or a penalty and its absence where it does nothing, are
// the same run.
ParameterValues resolvedValues(ParameterValues v);

// The values in v except the excluded names, exactly, as a map key.
std::string valuesKey(const ParameterValues& v, std::initializer_list<std::string_view> excluded);

// What δ_i depend on (resolved values): the truth and its parameters, seed, n, folds, method
// and a fixed penalty, not the loop's settings nor what is done with δ afterwards.
std::string evaluationsKey(const ParameterValues& v);

// One θ's δ vector: its evaluations key, θ and the repeat; also the seed of its simulations.
std::string cacheKey(const ParameterValues& v, const Eigen::VectorXd& theta, int repeat);

// The reference surfaces are kept by the data and the divergence only.
std::string referenceKey(const std::string& dataKey, int divergenceAt);

} // namespace evx::scenarios::gb_run_keys
