#include "core/study.h"

#include <algorithm>

namespace evx {

std::string StudyCell::label(const std::string& column) const
{
    for (const auto& [c, v] : labels)
        if (c == column)
            return v;
    return {};
}

std::optional<double> StudyCell::paperValue(const std::string& metric) const
{
    for (const auto& [m, v] : paper)
        if (m == metric)
            return v;
    return std::nullopt;
}

const std::string& Study::scenarioOf(const StudyCell& cell) const
{
    return cell.scenarioId.empty() ? scenarioId : cell.scenarioId;
}

bool Study::isMedian(const std::string& metric) const
{
    return std::find(medianMetrics.begin(), medianMetrics.end(), metric) != medianMetrics.end();
}

ParameterValues Study::runValues(const StudyCell& cell, int replicate, int restart) const
{
    ParameterValues values = cell.values;
    if (replicateValues) {
        for (const auto& [k, v] : replicateValues(replicate, restart))
            values[k] = v;
    } else {
        values[replicateKey] = replicate;
    }
    return values;
}

double Study::metricValue(const std::string& metric, const Summary& summary) const
{
    return derive ? derive(metric, summary) : summary.value(metric);
}

} // namespace evx
