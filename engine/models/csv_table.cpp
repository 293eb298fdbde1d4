#include "models/csv_table.h"

#include "core/errors.h"
#include "core/input_limits.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace evx::models {

namespace {

std::vector<std::string> splitLine(std::string line)
{
    if (!line.empty() && line.back() == '\r') // tolerate CRLF files
        line.pop_back();
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ','))
        cells.push_back(cell);
    if (!line.empty() && line.back() == ',')
        cells.emplace_back();
    for (std::string& c : cells) {
        const auto b = c.find_first_not_of(" \t\"");
        const auto e = c.find_last_not_of(" \t\"");
        c = b == std::string::npos ? std::string() : c.substr(b, e - b + 1);
    }
    return cells;
}

} // namespace

int CsvTable::column(const std::string& name) const
{
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name)
            return static_cast<int>(i);
    return -1;
}

CsvTable readCsv(const std::string& path, const std::vector<std::string>& requiredColumns,
                 std::uintmax_t maxBytes)
{
    checkDataFile(path, maxBytes);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InvalidParameter("Cannot open the data file " + path);
    CsvTable t;
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.find('\0') != std::string::npos)
            throw InvalidParameter(path + " is not a text CSV file (binary data on line " +
                                   std::to_string(lineNo) + ")");
        if (line.empty() || line == "\r")
            continue;
        std::vector<std::string> cells = splitLine(line);
        if (t.header.empty()) {
            t.header = std::move(cells);
            continue;
        }
        if (cells.size() != t.header.size())
            throw InvalidParameter(path + ", line " + std::to_string(lineNo) + ": " +
                                   std::to_string(cells.size()) + " values where the header has " +
                                   std::to_string(t.header.size()) + " columns");
        t.rows.push_back(std::move(cells));
    }
    if (t.header.empty())
        throw InvalidParameter(path + " is empty: a CSV data set needs a header row and data rows");
    if (t.rows.empty())
        throw InvalidParameter(path + " has a header but no data rows");
    for (const std::string& c : requiredColumns)
        if (t.column(c) < 0) {
            std::string have;
            for (const std::string& h : t.header)
                have += (have.empty() ? "" : ", ") + h;
            throw InvalidParameter(path + " has no column '" + c +
                                   "' (its columns: " + quoteForMessage(have) + ")");
        }
    return t;
}

std::vector<double> numericColumn(const CsvTable& table, const std::string& name, const std::string& path,
                                  double maxMagnitude)
{
    const int c = table.column(name);
    if (c < 0)
        throw InvalidParameter(path + " has no column '" + name + "'");
    std::vector<double> v;
    v.reserve(table.rows.size());
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const std::string& cell = table.rows[r][c];
        std::size_t used = 0;
        double x = NAN;
        try {
            x = std::stod(cell, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (cell.empty() || used != cell.size() || !std::isfinite(x))
            throw InvalidParameter(path + ", data row " + std::to_string(r + 1) + ": column '" + name +
                                   "' holds " + quoteForMessage(cell) + ", not a number");
        if (std::fabs(x) > maxMagnitude) {
            char limit[32];
            std::snprintf(limit, sizeof limit, "%g", maxMagnitude);
            throw InvalidParameter(path + ", data row " + std::to_string(r + 1) + ": column '" + name +
                                   "' holds " + quoteForMessage(cell) + ", beyond the ±" + limit +
                                   " such data can hold");
        }
        v.push_back(x);
    }
    return v;
}

} // namespace evx::models
