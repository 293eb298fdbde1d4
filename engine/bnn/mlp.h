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

// y = W x + b·1ᵀ for a batch x (in × N).
struct DenseLayer {
    static void forward(const Eigen::Ref<const Eigen::MatrixXd>& w, const Eigen::Ref<const Eigen::VectorXd>& b,
                        const Eigen::MatrixXd& x, Eigen::MatrixXd& y)
    {
        y.noalias() = w * x;
        y.colwise() += b;
    }
    // gy = ∂L/∂y. Adds ∂L/∂W = gy xᵀ and ∂L/∂b = gy·1 to gw, gb; gx = Wᵀ gy when asked for.
    static void backward(const Eigen::Ref<const Eigen::MatrixXd>& w, const Eigen::MatrixXd& x,
                         const Eigen::MatrixXd& gy, Eigen::Ref<Eigen::MatrixXd> gw, Eigen::Ref<Eigen::VectorXd> gb,
                         Eigen::MatrixXd* gx)
    {
        gw.noalias() += gy * x.transpose();
        gb.noalias() += gy.rowwise().sum();
        if (gx)
            gx->noalias() = w.transpose() * gy;
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
    const Eigen::MatrixXd& forward(const Eigen::Ref<const Eigen::VectorXd>& weights, const Eigen::MatrixXd& input);
    // After forward() with the same weights and input. gradOutput: 1 × N. Adds ∂L/∂W to
    // gradWeights; writes ∂L/∂input (inputs × N) to gradInput unless it is null.
    void backward(const Eigen::Ref<const Eigen::VectorXd>& weights, const Eigen::MatrixXd& gradOutput,
                  Eigen::Ref<Eigen::VectorXd> gradWeights, Eigen::MatrixXd* gradInput);

private:
    MlpShape m_shape;
    const Eigen::MatrixXd* m_input = nullptr;
    std::vector<Eigen::MatrixXd> m_pre;  // h_l = W_l a_{l−1} + b_l
    std::vector<Eigen::MatrixXd> m_post; // a_l = LeakyReLU(h_l), hidden layers only
    Eigen::MatrixXd m_grad, m_gradNext;
};

} // namespace evx::bnn
