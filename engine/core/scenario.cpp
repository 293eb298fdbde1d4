#include "core/scenario.h"

#include "core/errors.h"

namespace evx {

ParameterValues Scenario::presetValues(const std::string& presetName) const
{
    std::string names;
    for (const Preset& p : presets()) {
        if (p.name == presetName)
            return schema().complete(p.values);
        names += (names.empty() ? "" : ", ") + p.name;
    }
    throw InvalidParameter("scenario '" + info().id + "' has no preset '" + presetName + "'" +
                           (names.empty() ? std::string(" (it has none)") : " (it has " + names + ")"));
}

}  // namespace evx
