#pragma once
// Pieces the quadrature scenarios share: the study's parameters and the figure parts that
// show a quadrature study (bq/quadrature_study.h).

#include "bq/quadrature_study.h"
#include "core/figure.h"
#include "core/parameters.h"
#include "core/scenario.h"

#include <string>
#include <vector>

namespace evx::scenarios::quadrature {

// method, strategy, n_samples (animatable), lengthscale, seed.
std::vector<ParameterSpec> studyParameters(double lengthscaleMax, int defaultSamples);
bq::StudySettings studySettings(const ParameterValues& v, const RunInput* input);
std::string methodName(bq::Method m);

// "Z estimate ±2 sd against n" with Monte Carlo beside it and the true value as a line.
Plot convergencePlot(const bq::StudyResult& r, bq::Method method, double truth, const std::string& zName);
// Relative error |E[Z] − Z|/Z on a log scale.
Plot relativeErrorPlot(const bq::StudyResult& r, bq::Method method, double truth);
// Samples, model mean with its ±2 sd band; the caller adds the true curve and the prior.
void addModel(Plot& plot, const bq::StudyResult& r, bq::Method method, int userPoints);

} // namespace evx::scenarios::quadrature
