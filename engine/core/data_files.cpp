#include "core/data_files.h"

#include "core/errors.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace evx {

std::string locateDataFile(const std::string& fileName, const std::string& userPath, const std::string& what)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!userPath.empty()) {
        if (fs::is_directory(userPath, ec))
            return (fs::path(userPath) / fileName).string();
        // Another file of the same folder (e.g. lidar.csv opened, yacht wanted): its sibling.
        const fs::path sibling = fs::path(userPath).parent_path() / fileName;
        if (fs::path(userPath).filename() != fileName && fs::is_regular_file(sibling, ec))
            return sibling.string();
        return userPath; // the reader says what is wrong with it, if anything
    }
    std::vector<fs::path> folders;
    if (const char* env = std::getenv("EVX_DATA_DIR"); env && *env)
        folders.emplace_back(env);
#ifdef EVX_SHARED_DATA_DIR
    folders.emplace_back(EVX_SHARED_DATA_DIR);
#endif
    for (const fs::path& folder : folders)
        if (fs::is_regular_file(folder / fileName, ec))
            return (folder / fileName).string();
    throw InvalidParameter("Open the " + what +
                           " data set (File → Open Data Set…, or --data PATH): the file " + fileName +
                           " from the shared data folder, or set EVX_DATA_DIR to that folder");
}

} // namespace evx
