#pragma once
// The coverage study of bq-1d as a table (`--table bq-calibration`): the 12 cells of
// bq_calibration.h, each over the same configurations (integrand, prior, seed), scoring whether
// the ±2 sd band covered the truth, beside the coverage issue 13 asks for.

#include "core/study.h"

namespace evx::scenarios {

Study bqCalibrationStudy();

} // namespace evx::scenarios
