#include "runner.h"

#include "core/errors.h"
#include "core/input_limits.h"

#include <QMetaObject>
#include <chrono>

namespace evx {
namespace {

constexpr auto kProgressInterval = std::chrono::milliseconds(33);

} // namespace

Runner::Runner(QObject* parent) : QObject(parent), m_worker([this] { workerLoop(); })
{
    qRegisterMetaType<evx::Figure>();
}

Runner::~Runner()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_pending.reset();
        if (m_runningCancel)
            m_runningCancel->store(true);
    }
    m_wake.notify_one();
    m_worker.join();
}

quint64 Runner::submit(std::shared_ptr<const Scenario> scenario, RunInput input)
{
    const quint64 revision = ++m_latest;
    {
        std::lock_guard lock(m_mutex);
        m_pending = Request{revision, std::move(scenario), std::move(input)};
        if (m_runningCancel)
            m_runningCancel->store(true);
    }
    m_wake.notify_one();
    return revision;
}

void Runner::workerLoop()
{
    for (;;) {
        Request request;
        auto cancel = std::make_shared<std::atomic<bool>>(false);
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || m_pending.has_value(); });
            if (m_stopping)
                return;
            request = std::move(*m_pending);
            m_pending.reset();
            m_runningCancel = cancel;
        }
        execute(request, *cancel);
        std::lock_guard lock(m_mutex);
        m_runningCancel.reset();
    }
}

// Results travel to the GUI thread by value in a queued call on this object, which lives
// there; the revision check happens on arrival, so a result overtaken meanwhile is dropped.
void Runner::execute(const Request& request, const std::atomic<bool>& cancel)
{
    const quint64 revision = request.revision;
    QMetaObject::invokeMethod(
        this,
        [this, revision] {
            if (isCurrent(revision))
                emit started(revision);
        },
        Qt::QueuedConnection);

    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto lastProgress = start - kProgressInterval;
    bool finishedSent = false;
    auto finish = [&](Figure figure) {
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        finishedSent = true;
        QMetaObject::invokeMethod(
            this,
            [this, revision, figure = std::move(figure), ms] {
                if (isCurrent(revision))
                    emit finished(revision, figure, ms);
            },
            Qt::QueuedConnection);
    };
    const RunContext context(
        &cancel,
        [&](const Figure& partial, double fraction) {
            const auto now = Clock::now();
            if (now - lastProgress < kProgressInterval || cancel.load())
                return;
            lastProgress = now;
            QMetaObject::invokeMethod(
                this,
                [this, revision, partial, fraction] {
                    if (isCurrent(revision))
                        emit progressed(revision, partial, fraction);
                },
                Qt::QueuedConnection);
        },
        [&](const Figure& final) {
            checkSummaryFinite(final); // as runChecked checks the figure it returns
            finish(final);
        });

    try {
        Figure figure = request.scenario->runChecked(request.input, context);
        if (!finishedSent)
            finish(std::move(figure));
    } catch (const Cancelled&) {
        // A newer request replaced this one; it reports for itself.
    } catch (const std::exception& e) {
        if (finishedSent)
            return; // the result is out; what failed after it only served later runs
        const QString message = QString::fromUtf8(e.what());
        QMetaObject::invokeMethod(
            this,
            [this, revision, message] {
                if (isCurrent(revision))
                    emit failed(revision, message);
            },
            Qt::QueuedConnection);
    }
}

} // namespace evx
