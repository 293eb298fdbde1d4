#pragma once
// Adam (Kingma and Ba 2014, Algorithm 1) on a flat parameter vector, minimising:
//   m ← β1 m + (1 − β1) g,  v ← β2 v + (1 − β2) g²,
//   x ← x − α (m / (1 − β1^t)) / (√(v / (1 − β2^t)) + ε).
// Written by hand: no Debian-packaged C++ library offers Adam (LBFGS++ and NLopt are
// deterministic full-gradient methods, unsuited to a one-sample reparameterised gradient).

#include <Eigen/Core>

namespace evx::bnn {

struct AdamOptions {
    double learningRate = 0.01; // the paper's
    double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
};

class Adam {
public:
    Adam(Eigen::Index size, AdamOptions options);
    void step(Eigen::Ref<Eigen::VectorXd> x, const Eigen::VectorXd& grad);
    long steps() const { return m_t; }
    const AdamOptions& options() const { return m_options; }

private:
    AdamOptions m_options;
    Eigen::VectorXd m_m, m_v;
    long m_t = 0;
    double m_beta1Power = 1, m_beta2Power = 1;
};

} // namespace evx::bnn
