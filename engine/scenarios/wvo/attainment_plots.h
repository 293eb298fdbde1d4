#pragma once
// The figures of wvo-attainment (WVO paper Sec. 4.3, Fig. 8): sampled posteriors shown as
// normalised histograms (density = count / (draws · bin width)), full against incremental, and
// the other schools' posterior of β_verbal against its weighted and unweighted reconstructions.

#include "core/figure.h"
#include "models/scots_attainment.h"

#include <Eigen/Core>

#include <string>

namespace evx::scenarios::attainment_plots {

// Labels of θ = (α_0, log s_a, β_v, β_f, β_c, γ_0, γ_v).
extern const char* const kParamNames[models::kAttainmentDim];

// A step series of the density histogram of v on [lo, hi] with `bins` bins.
Series histogram(const std::string& name, int colour, const Eigen::VectorXd& v, double lo, double hi,
                 int bins);

// The four posteriors the figure compares (β_verbal, log s_a, γ_0, γ_verbal), full against
// incremental once that has run (incremental may be null).
std::vector<Plot> posteriorPlots(const Eigen::MatrixXd& full, const Eigen::MatrixXd* incremental, int school);

// β_verbal of the other schools' posterior (rest) against the unweighted and weighted
// reconstructions; one draw per row of each.
Plot reconstructionPlot(const Eigen::MatrixXd& rest, const Eigen::MatrixXd& unweighted,
                        const Eigen::MatrixXd& weighted);

} // namespace evx::scenarios::attainment_plots
