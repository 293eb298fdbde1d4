#include "scenarios/quadrature/bq_structured_study.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace evx::scenarios {
namespace {
struct ModelSpec {
    const char* model;
    const char* scenario;
    const char* sizeKey; // n for the DP, rows for the IBP
    const char* goodKernel;
};

// Choice indices of the scenarios' schemas (test_bq_structured_study checks them by name).
constexpr double kPaperKernel = 0, kGoodKernel = 1;
constexpr const char* kDesigns[] = {"posterior", "prior", "mixed"};
constexpr double kWsabi = 1;
constexpr int kSize = 10, kIbpRows = 5, kSamples = 100;

double log10Error(double logRatio)
{
    return std::abs(logRatio) / std::log(10.0);
}
} // namespace

double bqStructuredMetric(const std::string& metric, const Summary& summary)
{
    // bq-ibp gives the BQ mean and sd in units of exp(bq.log_scale) (p(X) underflows at N = 25);
    // the exact value is measured in the same units.
    const double logScale = summary.contains("bq.log_scale") ? summary.value("bq.log_scale") : 0.0;
    const double exactLog = summary.value("exact.log_evidence") - logScale;
    const double mean = summary.value("bq.evidence.mean"), sd = summary.value("bq.evidence.sd");
    const bool negative = !(mean > 0);
    if (metric == "negative")
        return negative ? 1 : 0;
    // Everything relative to Z = exp(exactLog), in logs: Z itself may underflow (IBP images).
    const double logRatio = negative ? std::numeric_limits<double>::infinity() : std::log(mean) - exactLog;
    if (metric == "log10_error")
        return log10Error(logRatio);
    if (metric == "within_2")
        return !negative && log10Error(logRatio) <= std::log10(2.0) ? 1 : 0;
    if (metric == "within_10")
        return !negative && log10Error(logRatio) <= 1 ? 1 : 0;
    if (metric == "covered") {
        // |m/Z − 1| ≤ 2 s/Z, with m/Z = ±e^{log|m| − log Z} (0 for m = 0) and s/Z = e^{log s − log Z}.
        const double m = mean == 0 ? 0.0 : std::copysign(std::exp(std::log(std::abs(mean)) - exactLog), mean);
        const double s = sd > 0 ? std::exp(std::log(sd) - exactLog) : 0.0;
        return std::abs(m - 1) <= 2 * s ? 1 : 0;
    }
    throw std::out_of_range("bq-structured: unknown metric " + metric);
}

Study bqStructuredStudy()
{
    Study s;
    s.id = "bq-structured";
    s.title = "BQ over structured domains: DP mixture and IBP evidence against the exact value; 'paper' "
              "holds the targets an independent study reached";
    s.note =
        "log10_error = |log10(BQ mean / exact evidence)|, its median over data sets (infinite when the BQ "
        "mean is not positive); within_2, within_10: share within a factor 2, 10; covered: share of "
        "exact evidence within BQ mean ± 2 sd; negative: share of non-positive BQ means. DP: n = 10, "
        "S = 100, WSABI-L; IBP: N = 5, S = 100. The paper's kernels are expected to fail (METHODS.md §2b).";
    s.scenarioId = "bq-dp-mixture";
    s.metrics = {"log10_error", "within_2", "within_10", "covered", "negative"};
    s.medianMetrics = {"log10_error"};
    s.columns = {"model", "kernel", "design"};
    s.defaultReplicates = 50;
    s.maxReplicates = 9999;
    // The scenarios' seeds start at 1.
    s.replicateValues = [](int replicate, int) { return ParameterValues{{"seed", double(replicate + 1)}}; };
    s.derive = bqStructuredMetric;
    s.filters = {{"--models", "model"}, {"--kernels", "kernel"}, {"--designs", "design"}};
    s.parameterOptions = {{"--samples", "samples"}};

    const ModelSpec models[] = {{"dp", "bq-dp-mixture", "n", "mmd"}, {"ibp", "bq-ibp", "rows", "gram"}};
    for (const ModelSpec& m : models) {
        const bool dp = std::string(m.model) == "dp";
        for (int k = 0; k < 2; ++k) {
            for (int d = 0; d < 3; ++d) {
                StudyCell cell;
                cell.scenarioId = m.scenario;
                cell.labels = {
                    {"model", m.model}, {"kernel", k == 0 ? "paper" : m.goodKernel}, {"design", kDesigns[d]}};
                cell.values = {{m.sizeKey, double(dp ? kSize : kIbpRows)},
                               {"kernel", k == 0 ? kPaperKernel : kGoodKernel},
                               {"design", double(d)},
                               {"samples", double(kSamples)}};
                if (dp)
                    cell.values["transform"] = kWsabi;
                if (k == 1 && d == 2) {
                    if (dp)
                        cell.paper = {{"log10_error", std::log10(1.5)}, {"within_2", 0.75}, {"covered", 0.8}};
                    else
                        cell.paper = {{"log10_error", 0.1}};
                }
                s.cells.push_back(std::move(cell));
            }
        }
    }
    return s;
}

} // namespace evx::scenarios
