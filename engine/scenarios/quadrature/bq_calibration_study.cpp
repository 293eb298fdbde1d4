#include "scenarios/quadrature/bq_calibration_study.h"

#include "scenarios/quadrature/bq_calibration.h"

#include <cmath>
#include <string>

namespace evx::scenarios {

Study bqCalibrationStudy()
{
    using namespace quadrature;
    Study s;
    s.id = "bq-calibration";
    s.title =
        "Calibration of bq-1d's ±2 sd band: how often it covers the truth; 'paper' holds the target coverage";
    s.scenarioId = "bq-1d";
    s.metrics = {"covered"}; // its mean over the configurations is the coverage
    s.columns = {"method", "strategy", "n"};
    s.replicateOption = "--configs";
    s.replicateKey = "config";
    s.defaultReplicates = 100;
    // Beyond the 100 configurations, each is run again with other seeds (seed + 100, + 200,
    // + 300): a coverage near its target needs more than 100 runs to tell 89 % from 90 % (the
    // binomial sd at 100 runs is 3 points; at 400, 1.5).
    s.maxReplicates = 400;
    // Configuration r is the same integrand, prior and seed in every cell.
    s.replicateValues = [](int replicate, int) {
        const std::vector<ParameterValues> all = calibrationConfigurations(calibrationCells().front());
        const auto block = std::size_t(replicate) / all.size();
        ParameterValues v = all.at(std::size_t(replicate) % all.size());
        v["seed"] += double(100 * block);
        for (const char* cellOwn : {"method", "strategy", "n_samples"})
            v.erase(cellOwn);
        return v;
    };
    s.derive = [](const std::string& metric, const Summary& summary) {
        const CalibrationOutcome o{summary.value("z.true"), summary.value("z.mean"), summary.value("z.sd")};
        (void)metric;
        return o.covered() ? 1.0 : 0.0;
    };
    s.filters = {{"--methods", "method"}, {"--strategies", "strategy"}};
    for (const CalibrationCell& c : calibrationCells()) {
        const ParameterValues v = calibrationConfigurations(c, 1).front();
        StudyCell cell;
        cell.labels = {{"method", c.method}, {"strategy", c.strategy}, {"n", std::to_string(c.samples)}};
        cell.values = {
            {"method", v.at("method")}, {"strategy", v.at("strategy")}, {"n_samples", v.at("n_samples")}};
        cell.paper = {{"covered", c.target}};
        s.cells.push_back(std::move(cell));
    }
    return s;
}

} // namespace evx::scenarios
