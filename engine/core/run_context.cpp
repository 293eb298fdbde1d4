#include "core/run_context.h"

#include "core/errors.h"

namespace evx {

void RunContext::checkCancelled() const
{
    if (cancelled())
        throw Cancelled();
}

void RunContext::publish(const Figure& partial, double fraction) const
{
    if (m_progress)
        m_progress(partial, fraction);
    reportFraction(fraction);
}

void RunContext::publishFinal(const Figure& final) const
{
    if (m_final)
        m_final(final);
    else
        publish(final, 1.0);
}

} // namespace evx
