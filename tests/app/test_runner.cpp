// The runner: latest request wins, stale runs are cancelled, errors are reported, and a
// burst of requests ends with the last one on screen.
#include "core/errors.h"
#include "runner.h"

#include <QSignalSpy>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <thread>

using namespace evx;

namespace {

// Returns its "value" parameter in the summary after working for "work_ms", publishing a
// partial figure every millisecond; polls cancellation unless "ignore_cancel" (a run that
// finishes after it was replaced, so its result arrives stale). Counts how many runs
// completed and how many were cancelled.
class ProbeScenario final : public Scenario {
public:
    ProbeScenario()
        : m_schema({realParameter("value", "value", "", -1e6, 1e6, 0, ""),
                    realParameter("work_ms", "work", "ms", 0, 10000, 0, ""),
                    realParameter("fail", "fail", "", 0, 1, 0, ""),
                    realParameter("ignore_cancel", "ignore cancel", "", 0, 1, 0, "")})
    {
    }
    ScenarioInfo info() const override { return {"probe", "Probe", "Tests", ""}; }
    const ParameterSchema& schema() const override { return m_schema; }
    Figure run(const ParameterValues& input, const RunContext& context) const override
    {
        const ParameterValues v = m_schema.complete(input);
        if (v.at("fail") != 0)
            throw InvalidParameter("probe refuses");
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(v.at("work_ms"));
        while (std::chrono::steady_clock::now() < end) {
            if (v.at("ignore_cancel") == 0 && context.cancelled()) {
                ++cancelled;
                throw Cancelled();
            }
            Figure partial;
            partial.summary.set("partial", 1);
            context.publish(partial, 0.5);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        ++completed;
        Figure f;
        f.summary.set("value", v.at("value"));
        return f;
    }
    mutable std::atomic<int> completed{0};
    mutable std::atomic<int> cancelled{0};

private:
    ParameterSchema m_schema;
};

}  // namespace

class TestRunner : public QObject {
    Q_OBJECT

private slots:
    void runsAndReportsCompute()
    {
        Runner runner;
        auto probe = std::make_shared<ProbeScenario>();
        QSignalSpy finished(&runner, &Runner::finished);
        const quint64 rev = runner.submit(probe, {{"value", 7}, {"work_ms", 30}});
        QVERIFY(finished.wait(5000));
        QCOMPARE(finished.at(0).at(0).toULongLong(), rev);
        QCOMPARE(finished.at(0).at(1).value<Figure>().summary.value("value"), 7.0);
        // The compute time covers the run's 30 ms of work (a lower bound only: never time out).
        QVERIFY2(finished.at(0).at(2).toDouble() >= 30, qPrintable(finished.at(0).at(2).toString()));
    }

    void errorsAreReportedNotThrown()
    {
        Runner runner;
        QSignalSpy failed(&runner, &Runner::failed);
        QSignalSpy finished(&runner, &Runner::finished);
        runner.submit(std::make_shared<ProbeScenario>(), {{"fail", 1}});
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.at(0).at(1).toString(), QString("probe refuses"));
        QCOMPARE(finished.count(), 0);
    }

    void newRequestCancelsALongRunPromptly()
    {
        Runner runner;
        auto probe = std::make_shared<ProbeScenario>();
        QSignalSpy finished(&runner, &Runner::finished);
        QSignalSpy started(&runner, &Runner::started);
        runner.submit(probe, {{"value", 1}, {"work_ms", 10000}});
        QVERIFY(started.wait(5000));
        QElapsedTimer clock;
        clock.start();
        const quint64 last = runner.submit(probe, {{"value", 2}});
        QVERIFY(finished.wait(5000));
        // The 10 s run was abandoned: only the new one reported, long before 10 s.
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).toULongLong(), last);
        QCOMPARE(finished.at(0).at(1).value<Figure>().summary.value("value"), 2.0);
        QCOMPARE(probe->cancelled.load(), 1);
    }

    void burstEndsWithTheLastRequest()
    {
        Runner runner;
        auto probe = std::make_shared<ProbeScenario>();
        QSignalSpy finished(&runner, &Runner::finished);
        quint64 last = 0;
        for (int i = 1; i <= 100; ++i)
            last = runner.submit(probe, {{"value", double(i)}, {"work_ms", 2}});
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() &&
                                     finished.last().at(0).toULongLong() == last, 10000);
        // Nothing stale arrives afterwards, and no reported result was out of date: every
        // reported revision was the newest at the time it was delivered, so they increase.
        QTest::qWait(100);
        QCOMPARE(finished.last().at(1).value<Figure>().summary.value("value"), 100.0);
        for (int i = 1; i < finished.count(); ++i)
            QVERIFY(finished.at(i).at(0).toULongLong() > finished.at(i - 1).at(0).toULongLong());
        // Coalescing: far fewer than 100 runs completed.
        QVERIFY2(probe->completed.load() < 100, qPrintable(QString::number(probe->completed.load())));
    }

    // Frames of a run that finished after a newer request arrive in the GUI thread's queue
    // (the worker posts them; the event loop has not run). The runner must drop them on
    // arrival: every frame delivered names the newest revision at the moment it arrives.
    // Without that check this test fails (verified by removing it from finished's and from
    // progressed's delivery); "revisions increase" alone does not catch it.
    void noStaleFrameIsDelivered()
    {
        for (int round = 0; round < 5; ++round) {
            Runner runner;
            auto probe = std::make_shared<ProbeScenario>();
            std::vector<std::pair<quint64, quint64>> frames;  // (frame's revision, newest when delivered)
            connect(&runner, &Runner::progressed, this,
                    [&](quint64 rev) { frames.emplace_back(rev, runner.latestRevision()); });
            connect(&runner, &Runner::finished, this,
                    [&](quint64 rev) { frames.emplace_back(rev, runner.latestRevision()); });
            QSignalSpy finished(&runner, &Runner::finished);
            // A run that ignores cancellation publishes and finishes while the GUI thread
            // sleeps; its frames wait in the queue, then a newer request makes them stale.
            const quint64 stale = runner.submit(probe, {{"value", 1}, {"work_ms", 40}, {"ignore_cancel", 1}});
            std::this_thread::sleep_for(std::chrono::milliseconds(120));
            const quint64 last = runner.submit(probe, {{"value", 2}});
            QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() && finished.last().at(0).toULongLong() == last, 5000);
            QTest::qWait(50);
            QCOMPARE(probe->completed.load(), 2);  // the stale run did finish, and was dropped
            for (const auto& [rev, newest] : frames)
                QVERIFY2(rev == newest, qPrintable(QString("frame of revision %1 delivered when %2 was newest (stale %3)")
                                                       .arg(rev).arg(newest).arg(stale)));
            QCOMPARE(finished.count(), 1);
        }
    }

    void progressIsThrottledAndOnlyForTheCurrentRun()
    {
        Runner runner;
        auto probe = std::make_shared<ProbeScenario>();
        QSignalSpy progressed(&runner, &Runner::progressed);
        QSignalSpy finished(&runner, &Runner::finished);
        const quint64 rev = runner.submit(probe, {{"value", 3}, {"work_ms", 400}});
        QVERIFY(finished.wait(5000));
        // ~400 publishes in 400 ms, forwarded at most ~30 per second: about 12, never 400.
        QVERIFY2(progressed.count() >= 2 && progressed.count() <= 20, qPrintable(QString::number(progressed.count())));
        for (const auto& args : progressed)
            QCOMPARE(args.at(0).toULongLong(), rev);
    }

    void destructionCancelsARunningJob()
    {
        auto probe = std::make_shared<ProbeScenario>();
        QElapsedTimer clock;
        {
            Runner runner;
            QSignalSpy started(&runner, &Runner::started);
            runner.submit(probe, {{"work_ms", 10000}});
            QVERIFY(started.wait(5000));
            clock.start();
        }
        QVERIFY(clock.elapsed() < 5000);
        QCOMPARE(probe->cancelled.load(), 1);
    }
};

QTEST_GUILESS_MAIN(TestRunner)
#include "test_runner.moc"
