#pragma once
// ue-kepler: orbital parameters of a planet from uncertain transit times (uncertain-evidence
// paper, Sec. 4.3, Fig. 5) under Jeffrey's rule, virtual and distributional evidence, sampled
// with the ensemble sampler on the worker, with intermediate figures as the chains grow.

#include "core/scenario.h"

namespace evx::scenarios {

class KeplerScenario final : public Scenario {
public:
    KeplerScenario();
    ScenarioInfo info() const override;
    const ParameterSchema& schema() const override { return m_schema; }
    std::vector<Preset> presets() const override;
    std::vector<WorkBudget> workBudget(const RunInput& input) const override;
    // One time unit per kind of quantity: errors, spreads and offsets in minutes, as the
    // parameters σ_e, σ_m and the P axis (P − P_true) are; absolute times (the period, the
    // transit times) in days. The sampler works in days, so the sd of P and the variances of
    // the consistency check are stored in d and d² (JSON, CSV) and shown × 1440 and × 1440².
    // ω and ω + M take their unit (deg) from the parameters true_omega and true_omega_plus_m.
    static constexpr double kMinutesPerDay = 1440;
    std::vector<SummaryUnit> summaryUnits() const override
    {
        return {{"*.P.mean", "d"},
                {"*.P.sd", "min", kMinutesPerDay},
                {"jeffrey.var_y", "min²", kMinutesPerDay * kMinutesPerDay},
                {"jeffrey.expected_var_given_zeta", "min²", kMinutesPerDay * kMinutesPerDay}};
    }
    Figure run(const ParameterValues& values, const RunContext& context) const override;

private:
    ParameterSchema m_schema;
};

} // namespace evx::scenarios
