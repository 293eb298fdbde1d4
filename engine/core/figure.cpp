#include "core/figure.h"

#include <algorithm>
#include <stdexcept>

namespace evx {

void Summary::set(const std::string& key, double value)
{
    auto it = std::find_if(m_entries.begin(), m_entries.end(), [&](const auto& e) { return e.first == key; });
    if (it != m_entries.end())
        it->second = value;
    else
        m_entries.emplace_back(key, value);
}

bool Summary::contains(const std::string& key) const
{
    return std::any_of(m_entries.begin(), m_entries.end(), [&](const auto& e) { return e.first == key; });
}

double Summary::value(const std::string& key) const
{
    for (const auto& [k, v] : m_entries)
        if (k == key)
            return v;
    throw std::out_of_range("no summary entry '" + key + "'");
}

} // namespace evx
