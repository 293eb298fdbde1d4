#include "scenarios/wvo/attainment_plots.h"

#include "scenarios/wvo/wvo_figure.h"

#include <algorithm>
#include <vector>

namespace evx::scenarios::attainment_plots {

using namespace wvo_figure;

const char* const kParamNames[models::kAttainmentDim] = {
    "α_0 (mean school intercept)", "log s_a (school sd)", "β_verbal", "β_female", "β_social",
    "γ_0 (log residual sd)",       "γ_verbal (on log sd)"};

Series histogram(const std::string& name, int colour, const Eigen::VectorXd& v, double lo, double hi,
                 int bins)
{
    Series s;
    s.name = name;
    s.colour = colour;
    s.kind = SeriesKind::Step;
    std::vector<double> counts(bins, 0.0);
    const double h = (hi - lo) / bins;
    for (double x : v) {
        const int b = static_cast<int>((x - lo) / h);
        if (b >= 0 && b < bins)
            counts[b] += 1.0 / (v.size() * h);
    }
    for (int b = 0; b < bins; ++b) {
        s.x.push_back(lo + b * h);
        s.y.push_back(counts[b]);
    }
    s.x.push_back(hi);
    s.y.push_back(counts.back());
    return s;
}

std::vector<Plot> posteriorPlots(const Eigen::MatrixXd& full, const Eigen::MatrixXd* incremental, int school)
{
    std::vector<Plot> plots;
    for (int k : {2, 1, 5, 6}) {
        Plot p;
        p.title = std::string("Posterior of ") + kParamNames[k];
        p.xLabel = kParamNames[k];
        p.yLabel = "probability density";
        const Eigen::VectorXd a = full.col(k);
        double lo = a.minCoeff(), hi = a.maxCoeff();
        if (incremental) {
            lo = std::min(lo, incremental->col(k).minCoeff());
            hi = std::max(hi, incremental->col(k).maxCoeff());
        }
        p.series.push_back(histogram("Full inference, all schools", kOriginalColour, a, lo, hi, 40));
        if (incremental)
            p.series.push_back(histogram("Incremental: WVO + school " + std::to_string(school + 1),
                                         kWeightedColour, incremental->col(k), lo, hi, 40));
        plots.push_back(std::move(p));
    }
    return plots;
}

Plot reconstructionPlot(const Eigen::MatrixXd& rest, const Eigen::MatrixXd& unweighted,
                        const Eigen::MatrixXd& weighted)
{
    Plot p;
    p.title = "Reconstruction of the other schools' posterior of β_verbal";
    p.xLabel = kParamNames[2];
    p.yLabel = "probability density";
    const Eigen::VectorXd a = rest.col(2);
    const double pad = 0.5 * (a.maxCoeff() - a.minCoeff());
    const double lo = a.minCoeff() - pad, hi = a.maxCoeff() + pad;
    Series original =
        histogram(std::string(kOriginalName) + ", other schools", kOriginalColour, a, lo, hi, 50);
    original.emphasis = 1;
    p.series.push_back(std::move(original));
    Series unw = histogram(kUnweightedName, kUnweightedColour, unweighted.col(2), lo, hi, 50);
    unw.dashed = true;
    p.series.push_back(std::move(unw));
    p.series.push_back(histogram(kWeightedName, kWeightedColour, weighted.col(2), lo, hi, 50));
    return p;
}

} // namespace evx::scenarios::attainment_plots
