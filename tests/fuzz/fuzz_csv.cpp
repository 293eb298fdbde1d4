// The CSV reader and the attainment loader on arbitrary bytes: refusing with InvalidParameter
// is the expected outcome; anything else (a crash, a sanitizer report, another exception)
// is a bug.
#include "core/errors.h"
#include "models/csv_table.h"
#include "models/scots_attainment.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

// One scratch file per process, rewritten for every input: the readers take a path.
const std::string& scratchPath()
{
    static const std::string path = [] {
        char name[] = "/tmp/evx-fuzz-csv-XXXXXX";
        const int fd = mkstemp(name);
        if (fd < 0)
            std::abort();
        close(fd);
        return std::string(name);
    }();
    return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    {
        std::ofstream out(scratchPath(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    }
    try {
        const evx::models::CsvTable t = evx::models::readCsv(scratchPath());
        for (const std::string& column : t.header)
            evx::models::numericColumn(t, column, scratchPath());
    } catch (const evx::InvalidParameter&) {
    }
    try {
        evx::models::readAttainment(scratchPath());
    } catch (const evx::InvalidParameter&) {
    }
    return 0;
}
