#pragma once
// Generators of the synthetic BNN+LV data sets (bnn-latent-variables-ncai, App. G; METHODS.md
// §5). Second arguments of N(·, ·) are variances.
//
//   heavy-tail  y = 6 tanh(0.1x³(z + 1)⁶ − 10xz² + z) + ε, z ~ N(0, 0.01), ε ~ N(0, 0.1),
//               x ~ U[−4, 4]; 300/300/300
//   depeweg     y = 7 sin x + 3|cos(x/2)| z + ε, z ~ N(0, 1), ε ~ N(0, 0.1),
//               x ~ ⅓N(−4, 0.16) + ⅓N(0, 0.81) + ⅓N(4, 0.16); 750/250/250
//   bimodal     y = (z > 0 ? 10 sin x : 10 cos x) + ε, z ~ N(0, 0.1), ε ~ N(0, 1),
//               x = min(Exp(rate 2) − 0.5, 2); 750/250/250
//   goldberg    y = 2 sin 2πx + N(0, x + 0.5)
//   yuan        y = 2 exp(−30(x − 0.25)² + sin πx²) − 2 + N(0, exp(sin 2πx))
//   williams    y = sin 2.5x · sin 1.5x + N(0, 0.01 + 0.25(1 − sin 2.5x)²)
//               (these three: x ~ U[0, 1], 200/200/200, no latent input)
//
// The paper regenerated Heavy-Tail and Depeweg from a network trained on f_GT (App. G); we use
// f_GT itself, which is the generative process the paper states.

#include "bnn/datasets.h"

#include <random>

namespace evx::bnn {

// The noiseless f(x, z) (z ignored by goldberg, yuan, williams) and the variance of y − f.
double syntheticF(std::string_view id, double x, double z);
double syntheticNoiseVariance(std::string_view id, double x);

// log p(y | x) of the truth, z integrated out: in closed form where y | x is Gaussian
// (goldberg, yuan, williams, depeweg: N(7 sin x, 9 cos²(x/2) σ_z² + σ_ε²)) or a two-component
// mixture (bimodal: z > 0 with probability ½); heavy-tail by the trapezoid rule over z on
// ±10 σ_z with 1000 steps (f is smooth in z, but steep for |x| near 4: 400 steps are off by
// 6e-4, 1000 agree with adaptive quadrature to 1e-9). Raw units.
double syntheticLogDensity(std::string_view id, double x, double y);
// The truth's mean log-density over a split, on the scale the paper reports for the set
// (DatasetInfo::reportScale): a ceiling for a model's expected test log-likelihood.
double syntheticLogLikelihood(const Dataset& data, const DataSplit& rawSplit);

// n draws of (x, z, f, noise variance, y). Throws InvalidParameter for an id that is not synthetic.
DataSplit sampleSynthetic(std::string_view id, int n, std::mt19937_64& rng);
// The same at the given inputs (x not drawn): for conditional checks and plots of the truth.
DataSplit sampleSyntheticAt(std::string_view id, const Eigen::VectorXd& x, std::mt19937_64& rng);

} // namespace evx::bnn
