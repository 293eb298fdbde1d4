// runTableCommand: the runs of a table on worker threads, or the runs a merge read, written
// as the exports ask. Interrupted, it writes what is done to partial files beside the targets.
#include "core/errors.h"
#include "exporter.h"
#include "scenarios/registry.h"
#include "table_command.h"
#include "table_format.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <tuple>
#include <unistd.h>

namespace evx {
namespace {

// Set by SIGINT or SIGTERM: the cancel flag every run polls, and which signal it was.
std::atomic<bool> g_cancel{false};
std::atomic<int> g_signal{0};

extern "C" void onInterrupt(int signal)
{
    // A second signal quits at once: the user has seen the first one is taking its time.
    if (g_signal.exchange(signal) != 0) {
        static const char message[] = "\nevidence-explorer: stopped at once; nothing written\n";
        [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message, sizeof message - 1);
        std::_Exit(128 + signal);
    }
    g_cancel.store(true);
}

int writeExports(const TableCommand& command, const std::vector<StudyRun>& runs, const TablePartial& partial)
{
    for (const QString& target : command.exports) {
        // A partial table never replaces a target: it goes beside it, named so.
        const QString path = partial.partial && !command.merge ? partialPath(target) : target;
        const QString suffix = QFileInfo(path).suffix().toLower();
        const QByteArray bytes = suffix == "json"
                                     ? tableJson(command.study, runs, command.provenance, partial)
                                 : suffix == "csv" ? tableCsv(command.study, runs, partial)
                                                   : tableMarkdown(command.study, runs, partial);
        const QString error = writeFileAtomically(path, bytes);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "evidence-explorer: error: %s\n", error.toUtf8().constData());
            return 1;
        }
        if (path != target)
            std::fprintf(stderr, "%s: partial table written to %s; %s is left as it was\n",
                         command.study.id.c_str(), path.toUtf8().constData(), target.toUtf8().constData());
    }
    return 0;
}

struct WorkItem {
    int cell, replicate, restart;
};

} // namespace

QString partialPath(const QString& path)
{
    const QFileInfo info(path);
    return info.dir().filePath(info.completeBaseName() + ".partial." + info.suffix());
}

int runTableCommand(const TableCommand& command)
{
    const Study& study = command.study;
    if (command.merge) {
        std::fprintf(stderr, "%s: merged %zu runs from %d files%s\n", study.id.c_str(),
                     command.mergedRuns.size(), command.mergedFiles,
                     command.mergedPartial.partial ? " (partial: --allow-partial)" : "");
        const std::size_t failedRuns = failedRunCount(command.mergedRuns);
        if (failedRuns > 0)
            std::fprintf(stderr,
                         "%s: %zu of the merged runs failed in their shards; the table marks them and "
                         "leaves them out of its numbers\n",
                         study.id.c_str(), failedRuns);
        const int written = writeExports(command, command.mergedRuns, command.mergedPartial);
        // As for the table run itself: written, but not a whole table.
        return written != 0 ? written : failedRuns > 0 ? 1 : 0;
    }

    std::vector<std::shared_ptr<const Scenario>> scenarioOfCell;
    for (const StudyCell& c : study.cells)
        scenarioOfCell.push_back(ScenarioRegistry::instance().find(study.scenarioOf(c)));
    // Interleaved slices: run i (cell-major, then replicate, then restart) belongs to shard
    // (i mod N) + 1.
    std::vector<WorkItem> work;
    std::size_t i = 0;
    for (std::size_t c = 0; c < study.cells.size(); ++c)
        for (int r = 0; r < command.replicates; ++r)
            for (int k = 0; k < command.restarts; ++k, ++i)
                if (int(i % std::size_t(command.shards)) == command.shard - 1)
                    work.push_back({int(c), r, k});
    g_cancel.store(false);
    g_signal.store(0);
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    std::vector<StudyRun> results;
    std::atomic<std::size_t> next{0}, done{0}, failed{0};
    std::mutex mutex;
    const auto start = std::chrono::steady_clock::now();
    auto worker = [&] {
        const RunContext context(&g_cancel, {});
        for (;;) {
            const std::size_t w = next++;
            if (w >= work.size() || g_cancel.load())
                return;
            const WorkItem item = work[w];
            StudyRun run{item.cell, item.replicate, item.restart,
                         std::vector<double>(study.metrics.size(), NAN), NAN};
            bool ok = true;
            try {
                const Scenario* scenario = scenarioOfCell[std::size_t(item.cell)].get();
                if (!scenario)
                    throw std::runtime_error("unknown scenario " +
                                             study.scenarioOf(study.cells[std::size_t(item.cell)]));
                ParameterValues values = scenario->schema().defaults();
                for (const auto& [k, v] :
                     study.runValues(study.cells[std::size_t(item.cell)], item.replicate, item.restart))
                    values[k] = v;
                const Figure figure = scenario->runChecked({values, {}, {}}, context);
                // A metric a cell does not have (e.g. a latent statistic of a network without a
                // latent) stays empty in its row; the others count.
                for (std::size_t m = 0; m < study.metrics.size(); ++m)
                    try {
                        run.values[m] = study.metricValue(study.metrics[m], figure.summary);
                    } catch (const std::out_of_range&) {
                    }
                if (!study.selectBy.empty())
                    run.select = figure.summary.value(study.selectBy);
            } catch (const Cancelled&) {
                return; // stopped by a signal: not a run, neither done nor failed
            } catch (const std::exception& e) {
                ok = false;
                run.error = e.what();
                std::fprintf(stderr, "%s: cell %d %s %d restart %d failed: %s\n", study.id.c_str(), item.cell,
                             study.replicateKey.c_str(), item.replicate, item.restart, e.what());
            }
            std::lock_guard lock(mutex);
            results.push_back(std::move(run));
            failed += ok ? 0 : 1;
            ++done;
        }
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < std::min<int>(command.jobs, int(work.size())); ++j)
        threads.emplace_back(worker);
    auto lastLine = start;
    while (done.load() < work.size() && !g_cancel.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const auto now = std::chrono::steady_clock::now();
        if (now - lastLine < std::chrono::seconds(2) && done.load() < work.size())
            continue;
        lastLine = now;
        const double elapsed = std::chrono::duration<double>(now - start).count();
        const std::size_t d = done.load();
        if (d == 0) {
            std::fprintf(stderr, "%s: 0/%zu runs, %.0f s elapsed\n", study.id.c_str(), work.size(), elapsed);
            continue;
        }
        const double remaining = elapsed / double(d) * double(work.size() - d);
        std::fprintf(stderr, "%s: %zu/%zu runs, %.0f s elapsed, about %.0f s remaining\n", study.id.c_str(),
                     d, work.size(), elapsed, remaining);
    }
    for (std::thread& t : threads)
        t.join();
    // In table order, not the order the threads finished them: the JSON is the same every time.
    std::sort(results.begin(), results.end(), [](const StudyRun& a, const StudyRun& b) {
        return std::tie(a.cell, a.replicate, a.restart) < std::tie(b.cell, b.replicate, b.restart);
    });
    const int signal = g_signal.load();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "%s: %zu/%zu runs in %.1f s%s\n", study.id.c_str(), results.size(), work.size(),
                 elapsed, signal ? " (interrupted)" : "");
    if (!results.empty() && failed.load() == results.size()) {
        std::fprintf(stderr,
                     "evidence-explorer: error: every one of the %zu runs failed (see above); nothing "
                     "written\n",
                     results.size());
        return 1;
    }
    if (failed.load() > 0)
        std::fprintf(stderr,
                     "%s: %zu of %zu runs failed (see above); the table marks them and leaves them out "
                     "of its numbers\n",
                     study.id.c_str(), failed.load(), results.size());
    TablePartial partial;
    if (signal) {
        partial = {true,
                   QString("%1 of the %2 runs of %3, stopped by %4")
                       .arg(results.size())
                       .arg(work.size())
                       .arg(command.shards > 1 ? QString("shard %1/%2").arg(command.shard).arg(command.shards)
                                               : QString("the table"))
                       .arg(signal == SIGINT ? "Ctrl+C (SIGINT)" : "SIGTERM")};
        if (results.empty()) {
            std::fprintf(stderr, "%s: interrupted before any run finished; nothing written\n",
                         study.id.c_str());
            return 128 + signal;
        }
    }
    const int written = writeExports(command, results, partial);
    // Failed runs make the exit status non-zero although the table is written: a script or a
    // cluster array job then sees the table is not the whole one.
    return written != 0 ? written : signal ? 128 + signal : failed.load() > 0 ? 1 : 0;
}

} // namespace evx
