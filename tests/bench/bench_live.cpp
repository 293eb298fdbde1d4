// Issue 13 item 4 ("heavy scenarios live"): one engine run of each setting that was too slow to
// follow a slider, without the runner or the plot (--bench-sweep measures those too).
// Run directly for figures: build/tests/bench/bench_live [-callgrind for instruction counts,
// which a shared machine's load does not disturb].
#include "scenario_inputs.h"
#include "scenarios/registry.h"

#include <QtTest>
#include <chrono>

using namespace evx;

Q_DECLARE_METATYPE(evx::ParameterValues)

class BenchLive : public QObject {
    Q_OBJECT

private slots:
    void run_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<ParameterValues>("settings");
        QTest::newRow("ue-drop-ball default") << "ue-drop-ball" << ParameterValues{};
        QTest::newRow("ue-drop-ball sharp model, vague stopwatch")
            << "ue-drop-ball" << ParameterValues{{"sigma_model", 0.001}, {"sigma_obs", 0.1}, {"t_obs", 0.43}};
        QTest::newRow("ue-drop-ball sharp model, t_obs 0.35")
            << "ue-drop-ball" << ParameterValues{{"sigma_model", 0.001}, {"sigma_obs", 0.1}, {"t_obs", 0.35}};
        QTest::newRow("bq-2d-marginal default") << "bq-2d-marginal" << ParameterValues{};
        QTest::newRow("bq-2d-marginal 150 samples") << "bq-2d-marginal" << ParameterValues{{"n_samples", 150}};
        QTest::newRow("bq-1d 50 samples") << "bq-1d" << ParameterValues{{"n_samples", 50}};
    }
    void run()
    {
        QFETCH(QString, scenario);
        QFETCH(ParameterValues, settings);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        QVERIFY(s);
        ParameterValues v = s->schema().defaults();
        for (const auto& [name, value] : settings)
            v[name] = value;
        const RunInput input = testing::exampleInput(*s, v);
        Figure f;
        QBENCHMARK {
            f = s->runWith(input, {});
        }
        QVERIFY(!f.plots.empty());
    }

    // The longest interval between two partial figures of one ue-kepler run (issue: at most
    // 250 ms), with where in the run it fell; the runner's throttle and the plot are not included.
    void keplerLongestWait()
    {
        const auto s = ScenarioRegistry::instance().find("ue-kepler");
        QVERIFY(s);
        using Clock = std::chrono::steady_clock;
        std::vector<std::pair<double, double>> arrivals;  // (ms since start, fraction)
        const auto start = Clock::now();
        const RunContext context(nullptr, [&](const Figure&, double fraction) {
            arrivals.emplace_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count(), fraction);
        });
        s->run(s->schema().defaults(), context);
        const double end = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        double last = 0, worst = 0, worstAt = 0;
        for (const auto& [t, fraction] : arrivals) {
            if (t - last > worst) {
                worst = t - last;
                worstAt = fraction;
            }
            last = t;
        }
        if (end - last > worst) {
            worst = end - last;
            worstAt = 1;
        }
        for (const auto& [t, fraction] : arrivals) qInfo("  %.0f ms  %.3f", t, fraction);
        qInfo("ue-kepler: %zu partial figures in %.0f ms; longest wait %.0f ms, ending at fraction %.3f",
              arrivals.size(), end, worst, worstAt);
    }
};

QTEST_MAIN(BenchLive)
#include "bench_live.moc"
