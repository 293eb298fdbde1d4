#pragma once
// What a running scenario may see of the outside world: a cancellation flag it polls
// in inner loops and a callback through which long runs publish intermediate figures.

#include "core/figure.h"

#include <atomic>
#include <functional>

namespace evx {

class RunContext {
public:
    using ProgressCallback = std::function<void(const Figure& partial, double fraction)>;
    using FinalCallback = std::function<void(const Figure& final)>;

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

private:
    const std::atomic<bool>* m_cancel = nullptr;
    ProgressCallback m_progress;
    FinalCallback m_final;
};

} // namespace evx
