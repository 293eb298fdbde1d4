#pragma once
// The real BNN+LV data sets (bnn-latent-variables-ncai, Table 7; shared/data/SOURCES.md):
//   lidar    lidar.csv                 x: range                      y: logratio          221 rows
//   yacht    uci_yacht.csv             x: the 6 hull columns         y: resid_resistance  308
//   energy   uci_energy.csv            x: X1–X8                      y: Y1 (heating load; Y2 unused) 768
//   airfoil  uci_airfoil.csv           x: the 5 other columns        y: sound_pressure_db 1503 → 1000
//   abalone  uci_abalone.csv           x: sex one-hot (sex_M, sex_F, sex_I) + the 7 measurements,
//                                         10 inputs as Table 7      y: rings             4177 → 1000
//   wine     uci_wine_quality_red.csv  x: the 11 physicochemical columns   y: quality     1599
// Table 7 lists Yacht as 309 rows (the UCI file has 308 and a header) and Wine as 1-dimensional
// (it has 11 inputs; we take all). Energy's target is Y1, as in the UCI benchmarks of
// Hernández-Lobato & Adams and Gal that Table 7's dimensions (8) follow.

#include "bnn/datasets.h"

namespace evx::bnn {

struct RealTable {
    std::vector<std::string> inputNames;
    Eigen::MatrixXd x; // every row of the file, raw
    Eigen::VectorXd y;
};

// Throws InvalidParameter for an id that is not real, a missing or malformed file, a missing
// column, a cell that is not a number (Abalone's sex: not one of M, F, I).
RealTable readRealTable(std::string_view id, const std::string& path);

} // namespace evx::bnn
