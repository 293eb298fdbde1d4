#pragma once
// The network of a BNN+LV (bnn-latent-variables-ncai, Sec. 3 and App. F.1; METHODS.md §5):
// f([x, z]; W) = w_Lᵀ a_{L−1} + b_L with a_l = LeakyReLU(W_l a_{l−1} + b_l), slope 0.01, a_0 the
// input [x; z] (D rows of x, then one latent row, or none for a plain BNN).
//
// Batched over all N points at once: a layer's input is a (units × N) matrix, one column per
// datum. The weights live in one flat vector, layer after layer, each as W_l (out × in,
// column-major) then b_l (out); the optimiser and q(W) see only that vector. Forward and
// backward of each layer sit side by side (micrograd / tiny-dnn style); the backward pass
// accumulates ∂L/∂W into the flat gradient and returns ∂L/∂input, whose last row is the
// gradient with respect to the latent inputs.

#include <Eigen/Core>

#include <random>
#include <vector>

namespace evx::bnn {

inline constexpr double kLeakySlope = 0.01;

struct MlpShape {
    int inputs = 1;          // rows of the network's input: D, plus one for a latent
    std::vector<int> hidden; // units per hidden layer
    int parameterCount() const;
    // Offsets of W_l and b_l in the flat vector, and the sizes of layer l (l = 0 … hidden.size()).
    int layerCount() const { return int(hidden.size()) + 1; }
    int fanIn(int layer) const { return layer == 0 ? inputs : hidden[layer - 1]; }
    int fanOut(int layer) const { return layer == int(hidden.size()) ? 1 : hidden[layer]; }
    int weightOffset(int layer) const;
    int biasOffset(int layer) const { return weightOffset(layer) + fanIn(layer) * fanOut(layer); }
};

// y = W x + b·1ᵀ for a batch x (in × N). Eigen's blocked matrix product pays for packing on
// every call; with a fan-in of a few inputs, or one output, outer products and matrix-vector
// products do the same work without it (2–3× faster at N = 750), hence the branches.
struct DenseLayer {
    static constexpr int kSmall = 4;

    static void forward(const Eigen::Ref<const Eigen::MatrixXd>& w,
                        const Eigen::Ref<const Eigen::VectorXd>& b, const Eigen::MatrixXd& x,
                        Eigen::MatrixXd& y)
    {
        y.resize(w.rows(), x.cols());
        if (w.rows() == 1) {
            y.row(0).noalias() = w.row(0) * x;
            y.array() += b(0);
        } else if (w.cols() <= kSmall) {
            y.colwise() = b;
            for (Eigen::Index k = 0; k < w.cols(); ++k)
                y.noalias() += w.col(k) * x.row(k);
        } else {
            y.noalias() = w * x;
            y.colwise() += b;
        }
    }
    // gy = ∂L/∂y. Adds ∂L/∂W = gy xᵀ and ∂L/∂b = gy·1 to gw, gb. When gx is given it receives
    // ∂L/∂x = Wᵀ gy, or only its last row (1 × N) with lastRowOnly.
    static void backward(const Eigen::Ref<const Eigen::MatrixXd>& w, const Eigen::MatrixXd& x,
                         const Eigen::MatrixXd& gy, Eigen::Ref<Eigen::MatrixXd> gw,
                         Eigen::Ref<Eigen::VectorXd> gb, Eigen::MatrixXd* gx, bool lastRowOnly = false)
    {
        if (w.rows() == 1)
            gw.row(0).noalias() += gy.row(0) * x.transpose();
        else if (w.cols() <= kSmall)
            for (Eigen::Index k = 0; k < w.cols(); ++k)
                gw.col(k).noalias() += gy * x.row(k).transpose();
        else
            gw.noalias() += gy * x.transpose();
        gb.noalias() += gy.rowwise().sum();
        if (!gx)
            return;
        if (lastRowOnly) {
            gx->resize(1, gy.cols());
            gx->row(0).noalias() = w.col(w.cols() - 1).transpose() * gy;
        } else if (w.rows() == 1) {
            gx->noalias() = w.row(0).transpose() * gy.row(0);
        } else {
            gx->noalias() = w.transpose() * gy;
        }
    }
};

// a = max(h, s·h) elementwise (0 < s < 1).
struct LeakyReluLayer {
    static void forward(const Eigen::MatrixXd& h, Eigen::MatrixXd& a)
    {
        a = h.array().max(kLeakySlope * h.array());
    }
    // gh = ga ⊙ (h > 0 ? 1 : s), in place on ga.
    static void backward(const Eigen::MatrixXd& h, Eigen::MatrixXd& ga)
    {
        ga.array() *= (h.array() > 0).cast<double>() * (1 - kLeakySlope) + kLeakySlope;
    }
};

// Holds the activations of the last forward pass for the backward pass (not thread-safe:
// one Mlp per thread).
class Mlp {
public:
    explicit Mlp(MlpShape shape);
    const MlpShape& shape() const { return m_shape; }

    // input: inputs × N; returns the 1 × N outputs.
    const Eigen::MatrixXd& forward(const Eigen::Ref<const Eigen::VectorXd>& weights,
                                   const Eigen::MatrixXd& input);
    // After forward() with the same weights and input. gradOutput: 1 × N. Adds ∂L/∂W to
    // gradWeights; writes ∂L/∂input (inputs × N) to gradInput unless it is null, or only its
    // last row (1 × N: the latent inputs) with latentRowOnly.
    void backward(const Eigen::Ref<const Eigen::VectorXd>& weights, const Eigen::MatrixXd& gradOutput,
                  Eigen::Ref<Eigen::VectorXd> gradWeights, Eigen::MatrixXd* gradInput,
                  bool latentRowOnly = false);

private:
    MlpShape m_shape;
    const Eigen::MatrixXd* m_input = nullptr;
    std::vector<Eigen::MatrixXd> m_pre;  // h_l = W_l a_{l−1} + b_l
    std::vector<Eigen::MatrixXd> m_post; // a_l = LeakyReLU(h_l), hidden layers only
    Eigen::MatrixXd m_grad, m_gradNext;
};

// Glorot ("Xavier") normal weights, W_l ~ N(0, 2/(fan_in + fan_out)), and zero biases.
Eigen::VectorXd xavierNormalWeights(const MlpShape& shape, std::mt19937_64& rng);

} // namespace evx::bnn
