#include "scenarios/studies.h"

#include "scenarios/bnn/bnn_tables.h"
#include "scenarios/genbayes/gb_tables.h"
#include "scenarios/quadrature/bq_calibration_study.h"
#include "scenarios/quadrature/bq_structured_study.h"

namespace evx {

const std::vector<Study>& allStudies()
{
    static const std::vector<Study> studies = [] {
        std::vector<Study> all = scenarios::generalisedBayesStudies();
        for (Study& s : scenarios::bnnStudies())
            all.push_back(std::move(s));
        all.push_back(scenarios::bqCalibrationStudy());
        all.push_back(scenarios::bqStructuredStudy());
        return all;
    }();
    return studies;
}

const Study* findStudy(const std::string& id)
{
    for (const Study& s : allStudies())
        if (s.id == id)
            return &s;
    return nullptr;
}

} // namespace evx
