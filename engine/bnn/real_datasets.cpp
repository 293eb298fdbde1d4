#include "bnn/real_datasets.h"

#include "core/errors.h"
#include "core/input_limits.h"
#include "models/csv_table.h"

namespace evx::bnn {

RealTable readRealTable(std::string_view id, const std::string& path)
{
    const DatasetInfo& info = datasetInfo(id);
    if (info.synthetic)
        throw InvalidParameter("'" + info.id +
                               "' is a synthetic data set: it is generated, not read from a file");
    if (path.empty())
        throw InvalidParameter("the data set '" + info.id + "' is read from a file: open " + info.fileName);

    std::vector<std::string> required = info.inputColumns;
    required.push_back(info.targetColumn);
    const models::CsvTable table = models::readCsv(path, required);
    const auto rows = static_cast<Eigen::Index>(table.rows.size());

    RealTable t;
    std::vector<Eigen::VectorXd> columns;
    for (const std::string& name : info.inputColumns) {
        if (name == "sex") {
            // One-hot with all three levels (Table 7 counts 10 inputs: 3 + 7), so no level is
            // singled out as the baseline.
            const int c = table.column(name);
            static const char* levels[3] = {"M", "F", "I"};
            Eigen::MatrixXd hot = Eigen::MatrixXd::Zero(rows, 3);
            for (Eigen::Index r = 0; r < rows; ++r) {
                const std::string& cell = table.rows[r][c];
                int level = -1;
                for (int l = 0; l < 3; ++l)
                    if (cell == levels[l])
                        level = l;
                if (level < 0)
                    throw InvalidParameter(path + ", data row " + std::to_string(r + 1) +
                                           ": column 'sex' holds " + quoteForMessage(cell) +
                                           ", not one of M, F, I");
                hot(r, level) = 1;
            }
            for (int l = 0; l < 3; ++l) {
                t.inputNames.push_back(std::string("sex_") + levels[l]);
                columns.push_back(hot.col(l));
            }
            continue;
        }
        const std::vector<double> v = models::numericColumn(table, name, path);
        t.inputNames.push_back(name);
        columns.push_back(Eigen::Map<const Eigen::VectorXd>(v.data(), rows));
    }
    t.x.resize(rows, static_cast<Eigen::Index>(columns.size()));
    for (std::size_t j = 0; j < columns.size(); ++j)
        t.x.col(static_cast<Eigen::Index>(j)) = columns[j];
    const std::vector<double> y = models::numericColumn(table, info.targetColumn, path);
    t.y = Eigen::Map<const Eigen::VectorXd>(y.data(), rows);
    return t;
}

} // namespace evx::bnn
