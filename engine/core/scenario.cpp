#include "core/scenario.h"

#include "core/errors.h"
#include "core/input_limits.h"

namespace evx {

Figure Scenario::runChecked(const RunInput& input, const RunContext& context) const
{
    validateRunInput(*this, input);
    Figure figure = runWith(input, context);
    checkSummaryFinite(figure);
    return figure;
}

ParameterValues Scenario::presetValues(const std::string& presetName) const
{
    std::string names;
    for (const Preset& p : presets()) {
        if (p.name == presetName)
            return schema().complete(p.values);
        names += (names.empty() ? "" : ", ") + p.name;
    }
    throw InvalidParameter("scenario '" + info().id + "' has no preset " + quoteForMessage(presetName) +
                           (names.empty() ? std::string(" (it has none)") : " (it has " + names + ")"));
}

} // namespace evx
