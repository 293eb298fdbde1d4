// Speed of the BNN+LV engine (issue 12, item 1) on Depeweg-sized data: N = 750, one hidden layer
// of 50 LeakyReLU units, one draw of (W, z) per step. Targets: an MFVI epoch ≤ 0.5 ms; 30 000
// epochs within 20 s (MFVI) and 60 s (NCAI_λ); a cancellation honoured within 50 ms.
// scripts/bench_bnn_torch.py times the same network and loss in PyTorch for the ratio.
// Run directly for figures: build/tests/bench/bench_bnn (EVX_BENCH_SMOKE shortens the long runs).
#include "bnn/bnn_trainer.h"
#include "bnn/hmc.h"
#include "bnn/ncai_penalties.h"

#include "../engine/bnn_test_support.h"

#include <QCoreApplication>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <ctime>
#include <thread>

using namespace evx;
using namespace evx::bnn;

namespace {

bool smoke()
{
    return qEnvironmentVariableIsSet("EVX_BENCH_SMOKE");
}

BnnConfig depewegConfig(Variant v)
{
    BnnConfig c;
    c.variant = v;
    c.hidden = {50};
    c.warmStartEpochs = 0; // timed separately: the loop below is the VI epoch alone
    c.seed = 1;
    return c;
}

double cpuSeconds()
{
    return double(std::clock()) / CLOCKS_PER_SEC;
}

} // namespace

class BenchBnn : public QObject {
    Q_OBJECT

private slots:
    void epoch_data()
    {
        QTest::addColumn<int>("variant");
        for (Variant v : allVariants())
            QTest::newRow(variantId(v).c_str()) << int(v);
    }
    // One VI epoch (the loss, its gradient by the backward pass, an EB update and an Adam step).
    void epoch()
    {
        QFETCH(int, variant);
        const auto d = evx::testing::depewegLike(750, 1);
        BnnTrainer t(d.x, d.y, depewegConfig(Variant(variant)));
        t.advance(20); // past the first steps, where μ_z = 0 skips the Henze–Zirkler term
        const double cpu0 = cpuSeconds();
        const int before = t.snapshot().epoch;
        QBENCHMARK
        {
            t.advance(1);
        }
        const int epochs = t.snapshot().epoch - before;
        if (epochs >= 100) // Qt reruns the function while it calibrates; report the long passes
            qInfo("%s: %.3f ms CPU per epoch over %d epochs", variantId(Variant(variant)).c_str(),
                  1000 * (cpuSeconds() - cpu0) / epochs, epochs);
    }

    void henzeZirklerWithGradient()
    {
        const auto d = evx::testing::depewegLike(750, 2);
        DifferentiableValue v;
        QBENCHMARK
        {
            v = henzeZirkler1d(d.z);
        }
        QVERIFY(v.defined);
    }

    void warmStartEpoch()
    {
        const auto d = evx::testing::depewegLike(750, 3);
        std::mt19937_64 rng(4);
        PointNetworkFit fit(d.x, d.y, {50}, std::sqrt(0.1), {}, rng);
        QBENCHMARK
        {
            fit.step();
        }
    }

    // 30 000 epochs end to end (NCAI with its 2 000 warm-start epochs first), as a scenario runs
    // them: in chunks of 100 with a cancellation poll per epoch.
    void fullRun_data()
    {
        QTest::addColumn<int>("variant");
        QTest::newRow("mfvi") << int(Variant::Mfvi);
        QTest::newRow("ncai") << int(Variant::Ncai);
    }
    void fullRun()
    {
        QFETCH(int, variant);
        const int epochs = smoke() ? 300 : 30000;
        const auto d = evx::testing::depewegLike(750, 5);
        BnnConfig c = depewegConfig(Variant(variant));
        if (c.variant == Variant::Ncai)
            c.warmStartEpochs = 2000;
        // Timed by hand rather than with QBENCHMARK, which would repeat a 30-second run.
        std::atomic<bool> cancel{false};
        const auto start = std::chrono::steady_clock::now();
        const double cpu0 = cpuSeconds();
        BnnTrainer t(d.x, d.y, c);
        int done = 0;
        while (done < epochs + (c.variant == Variant::Ncai ? c.warmStartEpochs : 0)) {
            const AdvanceResult r = t.advance(100, [&] { return cancel.load(std::memory_order_relaxed); });
            QVERIFY(r.status == TrainStatus::Running);
            done += r.epochsRun;
        }
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        qInfo("%s: %d VI epochs (+%d warm start) in %.2f s wall, %.2f s CPU; final ELBO %.1f",
              variantId(c.variant).c_str(), t.snapshot().epoch, t.snapshot().warmStartEpochs, wall,
              cpuSeconds() - cpu0, t.snapshot().history.back().elboValue());
    }

    // HMC on the Depeweg-sized BNN+LV (P = 201 weights and N = 750 latents): one chain, 30
    // leapfrog steps at most per iteration, each one forward and backward pass.
    void hmcIteration()
    {
        const auto d = evx::testing::depewegLike(750, 7);
        HmcOptions o;
        o.chains = 1;
        o.warmup = smoke() ? 2 : 50;
        o.draws = smoke() ? 2 : 50;
        const double cpu0 = cpuSeconds();
        const BnnHmcResult r = runBnnHmc(d.x, d.y, {50}, true, std::sqrt(0.1), 10, 1, o);
        qInfo("HMC: %.2f ms CPU per iteration (≤ 30 leapfrog steps), acceptance %.2f",
              1000 * (cpuSeconds() - cpu0) / (o.warmup + o.draws), r.chains[0].acceptance);
    }

    // From the moment another thread raises the flag to advance() returning.
    void cancellationLatency()
    {
        const auto d = evx::testing::depewegLike(750, 6);
        BnnTrainer t(d.x, d.y, depewegConfig(Variant::Ncai));
        t.advance(20);
        double worst = 0;
        for (int trial = 0; trial < (smoke() ? 1 : 10); ++trial) {
            std::atomic<bool> cancel{false};
            std::chrono::steady_clock::time_point raised;
            std::thread raiser([&] {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                raised = std::chrono::steady_clock::now();
                cancel.store(true);
            });
            const AdvanceResult r = t.advance(1000000, [&] { return cancel.load(); });
            const auto returned = std::chrono::steady_clock::now();
            raiser.join();
            QVERIFY(r.status == TrainStatus::Cancelled);
            worst = std::max(worst, std::chrono::duration<double, std::milli>(returned - raised).count());
        }
        qInfo("NCAI, N = 750: worst cancellation latency %.2f ms", worst);
    }
};

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    BenchBnn bench;
    QStringList args = app.arguments();
    if (smoke())
        args << "-iterations"
             << "1";
    return QTest::qExec(&bench, args);
}

#include "bench_bnn.moc"
