#pragma once
// A small, strict reader for the plain CSV data sets the user opens (shared/data/SOURCES.md:
// comma-separated, one header row, no quoting needed). Every malformed or mis-shaped file is
// refused with an InvalidParameter naming the file, the line and what is wrong.

#include <string>
#include <vector>

namespace evx::models {

struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows; // each with header.size() cells

    int column(const std::string& name) const; // -1 when absent
};

// Throws InvalidParameter when the file cannot be read, is empty, has a row with the wrong
// number of cells, or lacks one of requiredColumns.
CsvTable readCsv(const std::string& path, const std::vector<std::string>& requiredColumns = {});

// The cells of a column as numbers; throws InvalidParameter naming the first cell that is
// not a finite number.
std::vector<double> numericColumn(const CsvTable& table, const std::string& name, const std::string& path);

} // namespace evx::models
