#pragma once
// Tables 2–5 of the BNN+LV paper as studies of bnn-ncai: data set × inference cells, each run
// over data splits with the best of several restarts (by validation log-likelihood) kept per
// split, reporting test LL, RMSE, PICP, MPIW, MI and HZ beside the paper's MI (Table 2), HZ
// (Table 3) and test LL (Tables 4 and 5).

#include "core/study.h"

#include <vector>

namespace evx::scenarios {

std::vector<Study> bnnStudies();

} // namespace evx::scenarios
