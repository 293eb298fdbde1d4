#pragma once
// Runs scenarios on one worker thread (DESIGN.md "The runner"). The newest request wins:
// a request that arrives while a run is going cancels that run and waits as the only
// pending one; results of stale revisions are dropped, so after a burst the last
// request is what the user sees. The GUI thread never computes and never waits.

#include "core/figure.h"
#include "core/scenario.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

Q_DECLARE_METATYPE(evx::Figure)

namespace evx {

class Runner : public QObject {
    Q_OBJECT

public:
    explicit Runner(QObject* parent = nullptr);
    ~Runner() override;

    // Returns the revision of this request; every signal names the revision it is about.
    quint64 submit(std::shared_ptr<const Scenario> scenario, RunInput input);
    quint64 submit(std::shared_ptr<const Scenario> scenario, ParameterValues values)
    {
        return submit(std::move(scenario), RunInput{std::move(values), {}, {}});
    }
    quint64 latestRevision() const { return m_latest.load(); }

signals:
    void started(quint64 revision);
    // Intermediate figures from long runs, at most ~30 a second.
    void progressed(quint64 revision, const evx::Figure& partial, double fraction);
    // The result: when the run hands it over early (RunContext::publishFinal), then, with the
    // time until then, and the rest of the run (work for later runs) reports nothing more.
    void finished(quint64 revision, const evx::Figure& figure, double computeMs);
    void failed(quint64 revision, const QString& message);

private:
    struct Request {
        quint64 revision;
        std::shared_ptr<const Scenario> scenario;
        RunInput input;
    };

    void workerLoop();
    void execute(const Request& request, const std::atomic<bool>& cancel);
    bool isCurrent(quint64 revision) const { return revision == m_latest.load(); }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<Request> m_pending;
    std::shared_ptr<std::atomic<bool>> m_runningCancel; // the cancel flag of the run in progress
    bool m_stopping = false;
    std::atomic<quint64> m_latest{0};
    std::thread m_worker; // last: starts after every member it uses exists
};

} // namespace evx
