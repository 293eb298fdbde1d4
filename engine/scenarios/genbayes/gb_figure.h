#pragma once
// The generalised-Bayes figure: the data with the model's fits, the divergence surface over θ
// with its acquisitions, and the method's posterior against the reference.

#include "core/figure.h"
#include "genbayes/gb_model.h"

namespace evx::scenarios {

struct GbView {
    const genbayes::GbModel* model = nullptr;
    genbayes::ParameterBox box;
    const Eigen::MatrixXd* grid = nullptr;
    const genbayes::Points* observed = nullptr;
    const genbayes::Truth* truth = nullptr;
    std::string methodLabel, divergenceLabel;
    Eigen::VectorXd reference, method;      // posterior weights on the grid
    Eigen::VectorXd referenceDivergence;    // D_f with the true g
    Eigen::VectorXd surfaceMean, surfaceSd; // the method's D_f (GP mean, sd; sd empty on a grid
                                            // and in 2-D/3-D partial figures)
    Eigen::MatrixXd evaluated;              // θ's evaluated so far (rows)
    Eigen::VectorXd evaluatedValues;        // D̂_f at each
    double jsd = 0;
};

// Without reference weights (the first figure, before they are computed): the data alone.
Figure gbFigure(const GbView& view);

// Marginal weights of axis k (the grid's first axis varies slowest).
std::vector<double> gridMarginal(const genbayes::ParameterBox& box, const Eigen::VectorXd& weights, int axis);

} // namespace evx::scenarios
