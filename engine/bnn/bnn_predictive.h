#pragma once
// Draws from a trained BNN (+LV) for the predictive metrics and plots
// (bnn-latent-variables-ncai, Eqs. 3 and 34; METHODS.md §5):
//
//   predictive:  f_s(x*) = f([x*, z_s]; W_s),  W_s ~ q(W),  z_s ~ N(0, σ_z²) drawn afresh for
//                every draw and every test point (the latent of a new input is independent of
//                the training latents), so y* ~ N(f_s(x*), σ_ε²) is one draw of p(y* | x*, D);
//   fit:         the same on training points with z fixed at its variational mean μ_n.
//
// Rows are draws, columns test points. With latentDrawsPerWeight = K > 1, rows s·K … s·K + K − 1
// share W_s and differ in z: the aleatoric part of the uncertainty decomposition (Sec. 7.3)
// needs several z for each W. A BNN without z ignores the latent arguments.

#include "bnn/bnn_trainer.h"

#include <cstdint>
#include <functional>

namespace evx::bnn {

struct PredictiveDraws {
    Eigen::MatrixXd f;  // draws × points: the network's outputs, without ε
    double noiseSd = 0; // σ_ε, to add ε ~ N(0, σ_ε²) or to integrate it analytically
};

// x: M × D test inputs. weightDraws ≥ 1. afterEachWeightDraw (if any) runs after each weight
// draw's rows: a long run's progress and cancellation.
PredictiveDraws predictiveDraws(const BnnSnapshot& snapshot, const Eigen::MatrixXd& x, int weightDraws,
                                std::uint64_t seed, int latentDrawsPerWeight = 1,
                                const std::function<void()>& afterEachWeightDraw = {});

// xTrain: the N × D training inputs in training order (z_n = μ_n).
PredictiveDraws fittedDraws(const BnnSnapshot& snapshot, const Eigen::MatrixXd& xTrain, int weightDraws,
                            std::uint64_t seed);

} // namespace evx::bnn
