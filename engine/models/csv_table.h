#pragma once
// A small, strict reader for the plain CSV data sets the user opens (shared/data/SOURCES.md:
// comma-separated, one header row, no quoting needed). Every malformed or mis-shaped file is
// refused with an InvalidParameter naming the file, the line and what is wrong.

#include <cstdint>
#include <string>
#include <vector>

namespace evx::models {

struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows; // each with header.size() cells

    int column(const std::string& name) const; // -1 when absent
};

inline constexpr std::uintmax_t kMaxCsvBytes = std::uintmax_t(16) << 20;

// Throws InvalidParameter when the file is not a regular file of at most maxBytes (see
// checkDataFile), cannot be read, is empty, has a row with the wrong number of cells, or
// lacks one of requiredColumns.
CsvTable readCsv(const std::string& path, const std::vector<std::string>& requiredColumns = {},
                 std::uintmax_t maxBytes = kMaxCsvBytes);

// The cells of a column as numbers; throws InvalidParameter naming the first cell that is
// not a finite number or whose magnitude exceeds maxMagnitude (a value no data set of the
// kind holds, which would overflow the sums of squares downstream).
std::vector<double> numericColumn(const CsvTable& table, const std::string& name, const std::string& path,
                                  double maxMagnitude = 1e9);

} // namespace evx::models
