#include "scenarios/bnn/bnn_tables.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace evx::scenarios {
namespace {

// bnn-ncai's choice indices (ncai_scenario.cpp).
const std::vector<std::string> kDatasetIds{"heavy-tail", "goldberg", "williams", "yuan",
                                           "depeweg",    "bimodal",  "lidar",    "yacht",
                                           "energy",     "airfoil",  "abalone",  "wine"};
const std::vector<std::string> kInference{"bnn-mfvi", "mfvi", "ncai-0", "ncai"};

struct PaperCell {
    double mi = NAN, hz = NAN, testLl = NAN;
};
using PaperRow = std::array<PaperCell, 4>; // bnn-mfvi, mfvi, ncai-0, ncai

// Transcribed from ../shared/papers/bnn-latent-variables-ncai.txt, Tables 2 (MI), 3 (HZ), 4 and 5
// (test log-likelihood); the paper gives no MI or HZ for the BNN without z, and no Bimodal row.
const std::vector<std::pair<std::string, PaperRow>> kPaper{
    {"heavy-tail",
     {{{NAN, NAN, -2.47}, {0.243, 4.701, -1.867}, {0.051, 7.137, -1.481}, {0.036, 0.027, -1.426}}}},
    {"goldberg",
     {{{NAN, NAN, -1.055}, {0.229, 0.918, -1.026}, {0.02, 0.621, -0.962}, {0.046, 0.026, -0.963}}}},
    {"williams",
     {{{NAN, NAN, -1.591}, {0.982, 6.445, -1.033}, {0.519, 7.248, -0.414}, {0.519, 7.248, -0.414}}}},
    {"yuan", {{{NAN, NAN, -2.846}, {0.24, 5.252, -1.278}, {0.283, 8.091, -1.211}, {0.283, 8.091, -1.211}}}},
    {"depeweg",
     {{{NAN, NAN, -2.306}, {0.428, 6.408, -2.342}, {0.032, 0.792, -1.973}, {0.032, 0.792, -1.973}}}},
    {"abalone", {{{NAN, NAN, -1.248}, {NAN, NAN, -0.843}, {NAN, NAN, -0.831}, {NAN, NAN, -0.831}}}},
    {"airfoil", {{{NAN, NAN, -0.995}, {NAN, NAN, -0.512}, {NAN, NAN, -0.462}, {NAN, NAN, -0.462}}}},
    {"energy", {{{NAN, NAN, 1.281}, {NAN, NAN, 0.573}, {NAN, NAN, 0.862}, {NAN, NAN, 0.898}}}},
    {"lidar", {{{NAN, NAN, -0.31}, {NAN, NAN, 0.129}, {NAN, NAN, 0.269}, {NAN, NAN, 0.263}}}},
    {"wine", {{{NAN, NAN, -1.143}, {NAN, NAN, -1.709}, {NAN, NAN, -1.147}, {NAN, NAN, -0.849}}}},
    {"yacht", {{{NAN, NAN, 0.818}, {NAN, NAN, 0.638}, {NAN, NAN, 0.832}, {NAN, NAN, 0.832}}}},
};

const PaperRow* paperRow(const std::string& dataset)
{
    for (const auto& [id, row] : kPaper)
        if (id == dataset)
            return &row;
    return nullptr;
}

// The paper grid-searches the noise variance over {0.01, 0.1, 1} by validation likelihood on the
// real sets (Sec. 7.2); restart k runs the grid's (k mod 3)-th value with seed k / 3, so that three
// restarts cover the grid and the best by val_ll is the paper's choice. The synthetic sets keep
// the scenario's 0.1, the truth of Heavy-Tail and Depeweg.
constexpr std::array kNoiseGrid{0.01, 0.1, 1.0};

Study makeStudy(std::string id, std::string title, const std::vector<std::string>& datasets, bool searchNoise)
{
    Study s;
    s.id = std::move(id);
    s.title = std::move(title);
    s.scenarioId = "bnn-ncai";
    s.metrics = {"test_ll", "rmse", "picp", "mpiw", "mi_x_z", "hz"};
    s.columns = {"dataset", "inference"};
    s.replicateOption = "--splits";
    s.replicateKey = "split";
    s.defaultReplicates = 5;
    // Restart k of split r: the same data, another initialisation.
    if (searchNoise)
        s.replicateValues = [](int replicate, int restart) {
            return ParameterValues{{"split", replicate},
                                   {"seed", restart / int(kNoiseGrid.size())},
                                   {"noise_variance", kNoiseGrid[std::size_t(restart) % kNoiseGrid.size()]}};
        };
    else
        s.replicateValues = [](int replicate, int restart) {
            return ParameterValues{{"split", replicate}, {"seed", restart}};
        };
    s.selectBy = "val_ll";
    s.defaultRestarts = 10;
    s.filters = {{"--inference", "inference"}, {"--datasets", "dataset"}};
    s.parameterOptions = {{"--epochs", "epochs"}};
    s.naming = RowNaming::SdSuffix;
    for (const std::string& d : datasets) {
        const auto index = std::find(kDatasetIds.begin(), kDatasetIds.end(), d) - kDatasetIds.begin();
        const PaperRow* paper = paperRow(d);
        for (std::size_t m = 0; m < kInference.size(); ++m) {
            StudyCell cell;
            cell.labels = {{"dataset", d}, {"inference", kInference[m]}};
            cell.values = {{"dataset", double(index)}, {"inference", double(m)}};
            // The paper's NCAI_λ row is its selection between λ = 0 and λ by validation likelihood.
            if (kInference[m] == "ncai")
                cell.values["ncai_selection"] = 1;
            if (paper) {
                const PaperCell& p = (*paper)[m];
                for (const auto& [metric, value] :
                     {std::pair{"test_ll", p.testLl}, {"mi_x_z", p.mi}, {"hz", p.hz}})
                    if (std::isfinite(value))
                        cell.paper.emplace_back(metric, value);
            }
            s.cells.push_back(std::move(cell));
        }
    }
    return s;
}

} // namespace

std::vector<Study> bnnStudies()
{
    return {makeStudy("bnn-synthetic",
                      "BNN+LV Tables 2–4: synthetic data, MI, HZ and test log-likelihood (ncai: the paper's "
                      "selection between λ = 0 and λ)",
                      {"heavy-tail", "goldberg", "williams", "yuan", "depeweg", "bimodal"}, false),
            makeStudy("bnn-real",
                      "BNN+LV Table 5: real data, test log-likelihood (ncai: the paper's selection between "
                      "λ = 0 and λ)",
                      {"lidar", "yacht", "energy", "airfoil", "abalone", "wine"}, true)};
}

} // namespace evx::scenarios
