#pragma once
// What a running scenario may see of the outside world: a cancellation flag it polls
// in inner loops and a callback through which long runs publish intermediate figures.

#include "core/figure.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>

namespace evx {

class RunContext {
public:
    using ProgressCallback = std::function<void(const Figure& partial, double fraction)>;
    using FinalCallback = std::function<void(const Figure& final)>;
    using FractionCallback = std::function<void(double fraction)>;

    RunContext() = default;
    RunContext(const std::atomic<bool>* cancelFlag, ProgressCallback progress, FinalCallback final = {})
        : m_cancel(cancelFlag), m_progress(std::move(progress)), m_final(std::move(final))
    {
    }

    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    // Throws Cancelled when the run is no longer wanted.
    void checkCancelled() const;
    // fraction in [0, 1]; the runner throttles how often these reach the screen.
    void publish(const Figure& partial, double fraction) const;
    // Whether anyone receives publish(): a run may skip building partial figures otherwise.
    bool wantsProgress() const { return bool(m_progress); }
    // The figure run() will return, handed over before work that only serves later runs (caches
    // for a switch): the receiver shows it as the result at once, where a partial figure could
    // be throttled away. Without a final receiver it goes to publish() with fraction 1.
    void publishFinal(const Figure& final) const;

    // A receiver of the fraction alone (the command line's progress lines): it sees the fraction
    // of every publish() and of every reportFraction(), while wantsProgress() stays false so that
    // no partial figure is built for it. It is called often and must be cheap.
    void followFraction(FractionCallback fraction) { m_fraction = std::move(fraction); }
    // Where a run skips building a partial figure (no one wants it), it still says how far it is.
    void reportFraction(double fraction) const
    {
        if (m_fraction)
            m_fraction(fraction);
    }

private:
    const std::atomic<bool>* m_cancel = nullptr;
    ProgressCallback m_progress;
    FinalCallback m_final;
    FractionCallback m_fraction;
};

// Paces a run's partial figures. Building one costs work, so a run asks due() before building
// it and calls begin() as it starts. The interval runs from the start of one figure's work to the
// start of the next: the gap a viewer sees is the interval plus the step that crosses it, not the
// figure's own cost on top (in gb-regression that cost is up to 40 ms). The first ask is due.
class PublishPace {
public:
    explicit PublishPace(double seconds) : m_seconds(seconds) {}
    bool due() const
    {
        return !m_last || std::chrono::duration<double>(Clock::now() - *m_last).count() >= m_seconds;
    }
    void begin() { m_last = Clock::now(); }

private:
    using Clock = std::chrono::steady_clock;
    double m_seconds;
    std::optional<Clock::time_point> m_last;
};

} // namespace evx
