#pragma once
// Where a scenario finds a public data set it names (e.g. "uci_yacht.csv" from ../shared/data):
// the file or folder the user opened, else $EVX_DATA_DIR, else the shared/data folder beside the
// source tree this engine was built from. Throws InvalidParameter inviting the user to open it.

#include <string>

namespace evx {

// userPath: "" (nothing opened), a folder (fileName inside it), or a file: used as it is, unless
// it has another name and fileName lies beside it.
std::string locateDataFile(const std::string& fileName, const std::string& userPath, const std::string& what);

} // namespace evx
