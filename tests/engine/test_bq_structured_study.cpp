// `--table bq-structured` (issue 39): the study's cells (models × kernels × designs at the issue's
// settings, each on its own scenario, choice values that name the right choices) and its
// per-run metrics on made-up summaries, computed by hand here.

#include "compare_near.h"

#include "scenarios/quadrature/bq_structured_study.h"
#include "scenarios/registry.h"

#include <cmath>
#include <limits>
#include <set>

using namespace evx;
using namespace evx::scenarios;

namespace {

Summary summary(double exactLog, double mean, double sd)
{
    Summary s;
    s.set("exact.log_evidence", exactLog);
    s.set("bq.evidence.mean", mean);
    s.set("bq.evidence.sd", sd);
    return s;
}

} // namespace

class TestBqStructuredStudy : public QObject {
    Q_OBJECT

private slots:
    void shape()
    {
        const Study s = bqStructuredStudy();
        QCOMPARE(s.id, std::string("bq-structured"));
        QCOMPARE(s.columns, (std::vector<std::string>{"model", "kernel", "design"}));
        QCOMPARE(s.metrics,
                 (std::vector<std::string>{"log10_error", "within_2", "within_10", "covered", "negative"}));
        QCOMPARE(s.medianMetrics, (std::vector<std::string>{"log10_error"}));
        QCOMPARE(int(s.cells.size()), 12);
        std::set<std::string> seen;
        for (const StudyCell& c : s.cells) {
            const std::string model = c.label("model"), kernel = c.label("kernel"),
                              design = c.label("design");
            QVERIFY(seen.insert(model + "/" + kernel + "/" + design).second);
            QVERIFY(model == "dp" || model == "ibp");
            QCOMPARE(c.scenarioId, std::string(model == "dp" ? "bq-dp-mixture" : "bq-ibp"));
            QVERIFY(kernel == "paper" || kernel == (model == "dp" ? "mmd" : "gram"));
            QCOMPARE(c.values.at("samples"), 100.0);
            QCOMPARE(c.values.at(model == "dp" ? "n" : "rows"), model == "dp" ? 10.0 : 5.0);
            // The targets sit on the working kernel's mixed design only.
            QCOMPARE(!c.paper.empty(), kernel != "paper" && design == "mixed");
        }
        // Replicate r runs seed r + 1 (the scenarios' seeds start at 1).
        QCOMPARE(s.runValues(s.cells.front(), 0, 0).at("seed"), 1.0);
        QCOMPARE(s.runValues(s.cells.back(), 49, 0).at("seed"), 50.0);
    }

    // Every value a cell sets is a parameter of its scenario, and a choice's index formats as the
    // cell's label (kernel, design; WSABI-L for the DP). Skipped for a scenario not registered.
    void valuesNameTheScenariosChoices()
    {
        const Study s = bqStructuredStudy();
        int checked = 0;
        for (const StudyCell& c : s.cells) {
            const auto scenario = ScenarioRegistry::instance().find(c.scenarioId);
            if (!scenario) {
                qWarning("scenario %s is not registered: its cells' values are not checked",
                         c.scenarioId.c_str());
                continue;
            }
            const ParameterSchema& schema = scenario->schema();
            for (const auto& [name, value] : c.values) {
                QVERIFY2(schema.find(name), name.c_str());
                QVERIFY2(!schema.check(name, value), name.c_str());
            }
            QCOMPARE(schema.format("kernel", c.values.at("kernel")), c.label("kernel"));
            QCOMPARE(schema.format("design", c.values.at("design")), c.label("design"));
            if (c.label("model") == "dp")
                QCOMPARE(schema.format("transform", c.values.at("transform")), std::string("wsabi"));
            QVERIFY(!schema.check("seed", s.runValues(c, 0, 0).at("seed")));
            ++checked;
        }
        if (checked == 0)
            QSKIP("neither bq-dp-mixture nor bq-ibp is registered");
    }

    // The metrics against values worked out by hand: Z = e^{-17}.
    void metricsOnMadeUpSummaries()
    {
        const double z = std::exp(-17.0);
        // m = 1.9 Z: |log10 1.9| = 0.27875, within ×2 and ×10; covered iff 0.9 ≤ 2 s/Z.
        const Summary close = summary(-17, 1.9 * z, 0.5 * z);
        EVX_COMPARE_NEAR(bqStructuredMetric("log10_error", close), std::log10(1.9), 1e-12);
        QCOMPARE(bqStructuredMetric("within_2", close), 1.0);
        QCOMPARE(bqStructuredMetric("within_10", close), 1.0);
        QCOMPARE(bqStructuredMetric("covered", close), 1.0);
        QCOMPARE(bqStructuredMetric("negative", close), 0.0);
        QCOMPARE(bqStructuredMetric("covered", summary(-17, 1.9 * z, 0.4 * z)), 0.0);
        // m = Z / 2.1: outside ×2, inside ×10, error log10 2.1.
        const Summary low = summary(-17, z / 2.1, 0.01 * z);
        EVX_COMPARE_NEAR(bqStructuredMetric("log10_error", low), std::log10(2.1), 1e-12);
        QCOMPARE(bqStructuredMetric("within_2", low), 0.0);
        QCOMPARE(bqStructuredMetric("within_10", low), 1.0);
        QCOMPARE(bqStructuredMetric("covered", low), 0.0);
        // m = 12 Z: outside ×10.
        QCOMPARE(bqStructuredMetric("within_10", summary(-17, 12 * z, z)), 0.0);
        // A negative mean: an infinite error, in no band, counted negative; its ±2 sd may still
        // cover (|−0.5 − 1| = 1.5 ≤ 2·1).
        const Summary negative = summary(-17, -0.5 * z, z);
        QCOMPARE(bqStructuredMetric("log10_error", negative), std::numeric_limits<double>::infinity());
        QCOMPARE(bqStructuredMetric("within_2", negative), 0.0);
        QCOMPARE(bqStructuredMetric("within_10", negative), 0.0);
        QCOMPARE(bqStructuredMetric("negative", negative), 1.0);
        QCOMPARE(bqStructuredMetric("covered", negative), 1.0);
        QCOMPARE(bqStructuredMetric("negative", summary(-17, 0.0, z)), 1.0);
        // Z = e^{-800} underflows as a double; m = 1e-300 does not: log10 error (800 + ln 1e-300)/ln 10.
        const Summary tiny = summary(-800, 1e-300, 1e-301);
        EVX_COMPARE_NEAR(bqStructuredMetric("log10_error", tiny), (800 + std::log(1e-300)) / std::log(10.0),
                         1e-10);
        QCOMPARE(bqStructuredMetric("covered", tiny), 0.0);
        // bq-ibp's mean and sd are in units of exp(bq.log_scale): m = 1.9 Z as above, written
        // as 1.9 e^{-17 + 200} in units of e^{-200}.
        Summary scaled = summary(-217, 1.9 * z, 0.5 * z);
        scaled.set("bq.log_scale", -200);
        EVX_COMPARE_NEAR(bqStructuredMetric("log10_error", scaled), std::log10(1.9), 1e-12);
        QCOMPARE(bqStructuredMetric("covered", scaled), 1.0);
        // Through the study, and a summary without the keys.
        const Study s = bqStructuredStudy();
        EVX_COMPARE_NEAR(s.metricValue("log10_error", close), std::log10(1.9), 1e-12);
        Summary missing;
        missing.set("exact.log_evidence", -17);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, s.metricValue("covered", missing));
    }
};

QTEST_APPLESS_MAIN(TestBqStructuredStudy)
#include "test_bq_structured_study.moc"
