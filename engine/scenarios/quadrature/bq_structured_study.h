#pragma once
// `--table bq-structured` (issue 39, METHODS.md §2b): BQ over structured domains against the
// exact evidence, over data sets (seeds). Cells: model {dp (bq-dp-mixture, n = 10, WSABI-L),
// ibp (bq-ibp, N = 5)} × kernel {paper, mmd | gram} × design {posterior, prior, mixed}, S = 100.
// Per run, from exact.log_evidence = log Z, bq.evidence.mean = m, bq.evidence.sd = s:
//   log10_error = |log₁₀(m / Z)| (+∞ when m ≤ 0; aggregated by the median),
//   within_2 = [log10_error ≤ log₁₀ 2], within_10 = [log10_error ≤ 1],
//   covered = [|m − Z| ≤ 2s], negative = [m ≤ 0] (shares: their means).
// 'paper' holds the targets (DP mmd mixed: median ×1.5, 75 % within ×2, 80 % covered;
// IBP gram mixed: median ×10^0.1).

#include "core/study.h"

#include <string>

namespace evx::scenarios {

// The run's metric from its summary; throws std::out_of_range when a key is missing.
double bqStructuredMetric(const std::string& metric, const Summary& summary);

Study bqStructuredStudy();

} // namespace evx::scenarios
