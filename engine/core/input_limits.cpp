#include "core/input_limits.h"

#include "core/errors.h"
#include "core/scenario.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace evx {
namespace {

std::string formatCount(double n)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", n);
    return buf;
}

bool parseNumber(std::string_view text, double& out)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text.empty())
        return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

void checkPoints(const ScenarioInputs& accepts, const RunInput& input, const std::string& id)
{
    if (input.points.empty())
        return;
    if (!accepts.userPoints)
        throw InvalidParameter("scenario '" + id + "' takes no points");
    if (input.points.size() > std::size_t(accepts.maxPoints))
        throw InvalidParameter(std::to_string(input.points.size()) + " points given; scenario '" + id +
                               "' takes at most " + std::to_string(accepts.maxPoints));
    for (const auto& p : input.points)
        for (int axis = 0; axis < 2; ++axis)
            if (!std::isfinite(p[axis]) || p[axis] < accepts.pointMin[axis] ||
                p[axis] > accepts.pointMax[axis]) {
                char buf[160];
                std::snprintf(buf, sizeof buf, "point (%.6g, %.6g): %s must lie from %g to %g", p[0], p[1],
                              axis == 0 ? "x" : "y", accepts.pointMin[axis], accepts.pointMax[axis]);
                throw InvalidParameter(buf);
            }
}

} // namespace

std::string quoteForMessage(std::string_view text, std::size_t maxCharacters)
{
    std::string out = "'";
    std::size_t shown = 0, i = 0;
    for (; i < text.size() && shown < maxCharacters; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += char(c);
        }
        // A UTF-8 continuation byte does not start a new character.
        if ((c & 0xc0) != 0x80)
            ++shown;
    }
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xc0) == 0x80)
        out += text[i++];
    out += "'";
    if (i < text.size())
        out += "… (" + std::to_string(text.size()) + " bytes in all)";
    return out;
}

std::array<double, 2> parsePoint(const std::string& text)
{
    const std::size_t comma = text.find(',');
    const std::string_view view(text);
    double x = 0, y = 0;
    const bool ok = comma == std::string::npos
                        ? parseNumber(view, x)
                        : parseNumber(view.substr(0, comma), x) && parseNumber(view.substr(comma + 1), y);
    if (!ok)
        throw InvalidParameter("point " + quoteForMessage(text) + " is not x or x,y with finite numbers");
    return {x, y};
}

void checkDataFile(const std::string& path, std::uintmax_t maxBytes, const std::string& what)
{
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status))
        throw InvalidParameter("the " + what + " " + quoteForMessage(path, kPathCharacters) +
                               " does not exist");
    if (!fs::is_regular_file(status))
        throw InvalidParameter("the " + what + " " + quoteForMessage(path, kPathCharacters) +
                               " is not a regular file (a folder, device or pipe cannot be read as data)");
    const std::uintmax_t size = fs::file_size(path, error);
    if (error)
        throw InvalidParameter("cannot read the size of the " + what + " " +
                               quoteForMessage(path, kPathCharacters));
    if (size > maxBytes)
        throw InvalidParameter("the " + what + " " + quoteForMessage(path, kPathCharacters) + " has " +
                               formatCount(double(size)) + " bytes; at most " +
                               formatCount(double(maxBytes)) + " are read");
    if (!std::ifstream(path, std::ios::binary))
        throw InvalidParameter("cannot open the " + what + " " + quoteForMessage(path, kPathCharacters) +
                               " for reading");
}

void validateRunInput(const Scenario& scenario, const RunInput& input)
{
    const std::string id = scenario.info().id;
    scenario.schema().complete(input.values);
    const ScenarioInputs accepts = scenario.inputs();
    checkPoints(accepts, input, id);
    if (!input.dataPath.empty()) {
        if (!accepts.dataFile)
            throw InvalidParameter("scenario '" + id + "' takes no data file");
        checkDataFile(input.dataPath, accepts.maxDataBytes);
    }
    for (const WorkBudget& b : scenario.workBudget(input))
        if (!(b.count <= b.limit))
            throw InvalidParameter("this run needs " + formatCount(b.count) + " " + b.what + "; at most " +
                                   formatCount(b.limit) + " fit in one run: lower " + b.lowerBy);
}

void checkSummaryFinite(const Figure& figure)
{
    std::string names;
    for (const auto& [key, value] : figure.summary.entries())
        if (!std::isfinite(value))
            names += (names.empty() ? "" : ", ") + key + " = " +
                     (std::isnan(value) ? "NaN"
                      : value > 0       ? "+inf"
                                        : "-inf");
    if (!names.empty())
        throw NumericalError("the run produced numbers that are not finite (" + names +
                             "); the inputs are beyond what this method can compute reliably");
}

} // namespace evx
