#include "bnn/datasets.h"

#include "bnn/real_datasets.h"
#include "bnn/synthetic_datasets.h"
#include "core/errors.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace evx::bnn {
namespace {

DatasetInfo synthetic(std::string id, std::string title, int units, int layers, int nTrain, int nValidation,
                      int nTest, YScale scale, double sigmaZ2 = std::numeric_limits<double>::quiet_NaN(),
                      double sigmaEps2 = std::numeric_limits<double>::quiet_NaN())
{
    DatasetInfo d;
    d.id = std::move(id);
    d.title = std::move(title);
    d.synthetic = true;
    d.latent = std::isfinite(sigmaZ2);
    d.hiddenUnits = units;
    d.hiddenLayers = layers;
    d.sigmaZ2 = sigmaZ2;
    d.sigmaEps2 = sigmaEps2;
    d.nTrain = nTrain;
    d.nValidation = nValidation;
    d.nTest = nTest;
    d.reportScale = scale;
    return d;
}

DatasetInfo real(std::string id, std::string title, int units, std::string file,
                 std::vector<std::string> inputs, std::string target, int subsample = 0)
{
    DatasetInfo d;
    d.id = std::move(id);
    d.title = std::move(title);
    d.hiddenUnits = units;
    d.hiddenLayers = 1;
    d.fileName = std::move(file);
    d.inputColumns = std::move(inputs);
    d.targetColumn = std::move(target);
    d.subsample = subsample;
    d.reportScale = YScale::Standardised;
    return d;
}

std::vector<DatasetInfo> makeRegistry()
{
    using S = YScale;
    return {
        synthetic("heavy-tail", "Heavy-Tail", 50, 1, 300, 300, 300, S::Raw, 0.01, 0.1),
        synthetic("goldberg", "Goldberg", 20, 1, 200, 200, 200, S::Standardised),
        synthetic("williams", "Williams", 20, 2, 200, 200, 200, S::Raw),
        synthetic("yuan", "Yuan", 20, 1, 200, 200, 200, S::Standardised),
        synthetic("depeweg", "Depeweg", 50, 1, 750, 250, 250, S::Raw, 1.0, 0.1),
        synthetic("bimodal", "Bimodal", 50, 2, 750, 250, 250, S::Raw, 0.1, 1.0),
        real("lidar", "Lidar", 10, "lidar.csv", {"range"}, "logratio"),
        real(
            "yacht", "Yacht", 5, "uci_yacht.csv",
            {"lc_buoyancy", "prismatic_coef", "length_displacement", "beam_draught", "length_beam", "froude"},
            "resid_resistance"),
        real("energy", "Energy efficiency", 10, "uci_energy.csv",
             {"X1", "X2", "X3", "X4", "X5", "X6", "X7", "X8"}, "Y1"),
        real("airfoil", "Airfoil self-noise", 30, "uci_airfoil.csv",
             {"frequency_hz", "angle_of_attack_deg", "chord_length_m", "free_stream_velocity_ms",
              "suction_side_displacement_thickness_m"},
             "sound_pressure_db", 1000),
        real("abalone", "Abalone", 10, "uci_abalone.csv",
             {"sex", "length", "diameter", "height", "whole_weight", "shucked_weight", "viscera_weight",
              "shell_weight"},
             "rings", 1000),
        real("wine", "Wine quality (red)", 20, "uci_wine_quality_red.csv",
             {"fixed_acidity", "volatile_acidity", "citric_acid", "residual_sugar", "chlorides",
              "free_sulfur_dioxide", "total_sulfur_dioxide", "density", "pH", "sulphates", "alcohol"},
             "quality"),
    };
}

DataSplit takeRows(const RealTable& t, const std::vector<int>& rows)
{
    DataSplit s;
    s.x.resize(static_cast<Eigen::Index>(rows.size()), t.x.cols());
    s.y.resize(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        s.x.row(static_cast<Eigen::Index>(i)) = t.x.row(rows[i]);
        s.y(static_cast<Eigen::Index>(i)) = t.y(rows[i]);
    }
    s.rows = rows;
    return s;
}

} // namespace

const std::vector<DatasetInfo>& datasets()
{
    static const std::vector<DatasetInfo> registry = makeRegistry();
    return registry;
}

const DatasetInfo& datasetInfo(std::string_view id)
{
    std::string known;
    for (const DatasetInfo& d : datasets()) {
        if (d.id == id)
            return d;
        known += (known.empty() ? "" : ", ") + d.id;
    }
    throw InvalidParameter("unknown BNN data set '" + std::string(id.substr(0, 40)) + "' (known: " + known +
                           ")");
}

double Dataset::reportOutputScale() const
{
    return info.reportScale == YScale::Raw ? scaling.ySd : 1.0;
}

Standardisation Standardisation::fromTraining(const DataSplit& train)
{
    const Eigen::Index n = train.size();
    if (n < 2)
        throw InvalidParameter("standardising needs at least two training points");
    Standardisation s;
    s.xMean = train.x.colwise().mean();
    s.xSd = ((train.x.rowwise() - s.xMean).array().square().colwise().sum() / double(n)).sqrt();
    // A column constant over the training split carries no information there; sd 1 keeps it
    // at 0 instead of dividing by zero.
    s.xSd = (s.xSd.array() > 0).select(s.xSd, 1.0);
    s.yMean = train.y.mean();
    s.ySd = std::sqrt((train.y.array() - s.yMean).square().sum() / double(n));
    if (!(s.ySd > 0))
        throw InvalidParameter("the training targets are all equal: y cannot be standardised");
    return s;
}

Eigen::MatrixXd Standardisation::x(const Eigen::MatrixXd& raw) const
{
    return (raw.rowwise() - xMean).array().rowwise() / xSd.array();
}

Eigen::VectorXd Standardisation::y(const Eigen::VectorXd& raw) const
{
    return (raw.array() - yMean) / ySd;
}

Eigen::MatrixXd Standardisation::rawY(const Eigen::MatrixXd& standardised) const
{
    return (standardised.array() * ySd + yMean).matrix();
}

DataSplit Standardisation::apply(const DataSplit& raw) const
{
    DataSplit s = raw;
    s.x = x(raw.x);
    s.y = y(raw.y);
    if (raw.f.size() > 0)
        s.f = y(raw.f);
    if (raw.noiseVariance.size() > 0)
        s.noiseVariance = raw.noiseVariance / (ySd * ySd);
    return s;
}

Dataset makeDataset(std::string_view id, std::uint64_t seed, int split, const std::string& path)
{
    const DatasetInfo& info = datasetInfo(id);
    if (split < 0)
        throw InvalidParameter("a split index cannot be negative");
    Dataset d;
    d.info = info;
    d.seed = seed;
    d.split = split;
    // Each (seed, split) seeds its own stream, so split k does not depend on having drawn 0…k−1.
    std::seed_seq sequence{std::uint32_t(seed), std::uint32_t(seed >> 32), std::uint32_t(split)};
    std::mt19937_64 rng(sequence);

    if (info.synthetic) {
        d.inputNames = {"x"};
        d.train = sampleSynthetic(id, info.nTrain, rng);
        d.validation = sampleSynthetic(id, info.nValidation, rng);
        d.test = sampleSynthetic(id, info.nTest, rng);
    } else {
        const RealTable table = readRealTable(id, path);
        const int n = static_cast<int>(table.y.size());
        if (n < 10)
            throw InvalidParameter(path + " has " + std::to_string(n) +
                                   " data rows: a 70/20/10 split needs at least 10");
        d.inputNames = table.inputNames;
        std::vector<int> rows(static_cast<std::size_t>(n));
        std::iota(rows.begin(), rows.end(), 0);
        if (info.subsample > 0 && info.subsample < n) {
            // From the seed alone: the splits of one seed share the subsample.
            std::seed_seq subSequence{std::uint32_t(seed), std::uint32_t(seed >> 32), 0xab5u};
            std::mt19937_64 subRng(subSequence);
            std::shuffle(rows.begin(), rows.end(), subRng);
            rows.resize(static_cast<std::size_t>(info.subsample));
            std::sort(rows.begin(), rows.end());
        }
        std::shuffle(rows.begin(), rows.end(), rng);
        const auto m = static_cast<long>(rows.size());
        const long nTrain = std::lround(0.7 * double(m)), nValidation = std::lround(0.2 * double(m));
        d.train = takeRows(table, {rows.begin(), rows.begin() + nTrain});
        d.validation = takeRows(table, {rows.begin() + nTrain, rows.begin() + nTrain + nValidation});
        d.test = takeRows(table, {rows.begin() + nTrain + nValidation, rows.end()});
    }
    d.scaling = Standardisation::fromTraining(d.train);
    return d;
}

} // namespace evx::bnn
