#include "core/study.h"

namespace evx {

std::string StudyCell::label(const std::string& column) const
{
    for (const auto& [c, v] : labels)
        if (c == column)
            return v;
    return {};
}

} // namespace evx
