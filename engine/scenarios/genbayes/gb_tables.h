#pragma once
// Tables 2–4 of the generalised-Bayes paper as studies: truth × divergence × method cells of
// gb-poisson, gb-gaussian and gb-regression, with the paper's 50-seed mean JSDs.

#include "core/study.h"

#include <vector>

namespace evx::scenarios {

std::vector<Study> generalisedBayesStudies();

} // namespace evx::scenarios
