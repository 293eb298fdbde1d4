// Issue 13 item 4 ("heavy scenarios live"): one engine run of each setting that was too slow to
// follow a slider, without the runner or the plot (--bench-sweep measures those too).
// Run directly for figures: build/tests/bench/bench_live [-callgrind for instruction counts,
// which a shared machine's load does not disturb].
#include "scenario_inputs.h"
#include "scenarios/registry.h"

#include <QtTest>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>

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
        QTest::newRow("bq-2d-marginal 150 samples")
            << "bq-2d-marginal" << ParameterValues{{"n_samples", 150}};
        QTest::newRow("bq-2d-marginal active, 150 samples")
            << "bq-2d-marginal" << ParameterValues{{"strategy", 2}, {"n_samples", 150}};
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
        QBENCHMARK
        {
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
        std::vector<std::pair<double, double>> arrivals; // (ms since start, fraction)
        const auto start = Clock::now();
        const RunContext context(nullptr, [&](const Figure&, double fraction) {
            arrivals.emplace_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count(),
                                  fraction);
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
        for (const auto& [t, fraction] : arrivals)
            qInfo("  %.0f ms  %.3f", t, fraction);
        qInfo("ue-kepler: %zu partial figures in %.0f ms; longest wait %.0f ms, ending at fraction %.3f",
              arrivals.size(), end, worst, worstAt);
    }

    // Issue 11 ("switching the divergence in the window ≤ 16 ms once evaluations are cached"):
    // after a KL run, each other divergence in turn, as --bench-sweep divergence=tvd:kl drives
    // it, without the runner's queue or the plot: the time to the first published figure (the
    // stand-in) and to the final figure of each switch.
    void gbDivergenceSwitch_data()
    {
        QTest::addColumn<QString>("scenario");
        for (const char* id : {"gb-poisson", "gb-gaussian", "gb-regression"})
            QTest::newRow(id) << id;
    }
    void gbDivergenceSwitch()
    {
        QFETCH(QString, scenario);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        QVERIFY(s);
        using Clock = std::chrono::steady_clock;
        auto ms = [](Clock::time_point a, Clock::time_point b) {
            return std::chrono::duration<double, std::milli>(b - a).count();
        };
        // The thread's CPU time beside the wall clock: on a shared machine the wall clock
        // also counts the time other processes held the core.
        auto cpuMs = [] {
            timespec t{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
        };
        ParameterValues v = s->schema().defaults();
        // CTest's smoke run (EVX_BENCH_SMOKE) only proves the path works: a short loop and
        // one switch (the regression's full loops take about 10 s each, more on a busy machine).
        const bool smoke = qEnvironmentVariableIsSet("EVX_BENCH_SMOKE");
        if (smoke)
            v["acquisitions"] = 2;
        std::vector<double> first, firstCpu, total;
        for (int d : smoke ? std::vector<int>{7, 0} : std::vector<int>{7, 0, 1, 2, 3, 4, 5, 6}) {
            v["divergence"] = d;
            auto start = Clock::now();
            double cpuStart = 0, firstMs = -1, firstCpuMs = -1;
            const RunContext context(nullptr, [&](const Figure&, double) {
                if (firstMs < 0) {
                    firstMs = ms(start, Clock::now());
                    firstCpuMs = cpuMs() - cpuStart;
                }
            });
            cpuStart = cpuMs();
            start = Clock::now();
            s->run(v, context);
            const double end = ms(start, Clock::now());
            if (d == 7)
                continue; // the first run has no evaluations to stand in
            first.push_back(firstMs);
            firstCpu.push_back(firstCpuMs);
            total.push_back(end);
        }
        auto quantile = [](std::vector<double> x, double p) {
            std::sort(x.begin(), x.end());
            const double rank = p * double(x.size() - 1);
            const auto lo = std::size_t(std::floor(rank)), hi = std::size_t(std::ceil(rank));
            return x[lo] + (x[hi] - x[lo]) * (rank - double(lo));
        };
        QString firsts;
        for (double t : first)
            firsts += QString::number(t, 'f', 1) + " ";
        qInfo("%s, %zu switches from KL: first figure p50 %.1f p95 %.1f ms [%s], its CPU time p50 %.1f "
              "p95 %.1f ms; final p50 %.0f p95 %.0f ms",
              qPrintable(scenario), first.size(), quantile(first, 0.5), quantile(first, 0.95),
              qPrintable(firsts), quantile(firstCpu, 0.5), quantile(firstCpu, 0.95), quantile(total, 0.5),
              quantile(total, 0.95));
    }
};

QTEST_MAIN(BenchLive)
#include "bench_live.moc"
