#include "bnn/ncai_penalties.h"

#include "bnn/gaussian_pair_sums.h"
#include "core/errors.h"
#include "stats/normality.h"

#include <cmath>

namespace evx::bnn {
namespace {

// The sd below which a sample counts as constant: standardising it would divide rounding noise.
bool isConstant(double sd, double mean)
{
    return !(sd > 1e-12 * std::max(1.0, std::fabs(mean)));
}

} // namespace

double cappedExp(double t, double cap, double* derivative)
{
    if (t <= cap) {
        const double e = std::exp(t);
        if (derivative)
            *derivative = e;
        return e;
    }
    const double e = std::exp(cap);
    if (derivative)
        *derivative = e;
    return e * (1 + t - cap);
}

DifferentiableValue henzeZirkler1d(const Eigen::VectorXd& a, bool wantGradient)
{
    const Eigen::Index n = a.size();
    if (n < 2)
        throw InvalidParameter("Henze–Zirkler needs at least two values");
    DifferentiableValue out;
    out.gradient.setZero(wantGradient ? n : 0);
    const double mean = a.mean();
    const double sd = std::sqrt((a.array() - mean).square().mean());
    if (isConstant(sd, mean)) {
        out.defined = false;
        return out;
    }
    const Eigen::ArrayXd u = (a.array() - mean) / sd;
    const double b2 = std::pow(stats::henzeZirklerBeta(int(n), 1), 2), c = b2 / 2;

    Eigen::ArrayXd s0, s1;
    const double offDiagonal =
        wantGradient ? gaussianPairSums(u, c, &s0, &s1) : gaussianPairSums(u, c, nullptr, nullptr);
    const double c2 = b2 / (2 * (1 + b2)), singleFactor = -2 / std::sqrt(1 + b2);
    const Eigen::ArrayXd q = (-c2 * u.square()).exp();
    out.value = (double(n) + 2 * offDiagonal) / double(n) + singleFactor * q.sum() +
                double(n) / std::sqrt(1 + 2 * b2);
    if (wantGradient) {
        const Eigen::ArrayXd g = -(4 * c / double(n)) * (u * s0 - s1) + singleFactor * q * (-2 * c2) * u;
        out.gradient = ((g - g.mean() - u * (g * u).mean()) / sd).matrix();
    }
    return out;
}

DifferentiableValue pearsonCorrelation(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
    const Eigen::Index n = a.size();
    DifferentiableValue out;
    out.gradient.setZero(n);
    const double ma = a.mean(), mb = b.mean();
    const Eigen::ArrayXd ac = a.array() - ma, bc = b.array() - mb;
    const double sa = std::sqrt(ac.square().mean()), sb = std::sqrt(bc.square().mean());
    if (isConstant(sa, ma) || isConstant(sb, mb)) {
        out.defined = false;
        return out;
    }
    out.value = (ac * bc).mean() / (sa * sb);
    out.gradient = (ac / (double(n) * sa * sb) - out.value * bc / (double(n) * sb * sb)).matrix();
    return out;
}

DifferentiableValue offDiagonalCovarianceNorm(const Eigen::MatrixXd& m)
{
    const Eigen::Index n = m.rows(), k = m.cols();
    DifferentiableValue out;
    out.gradient.setZero(n * k);
    const Eigen::MatrixXd centred = m.rowwise() - m.colwise().mean();
    Eigen::MatrixXd offDiagonal = centred.transpose() * centred / double(n);
    offDiagonal.diagonal().setZero();
    out.value = offDiagonal.norm();
    if (out.value > 0) // the norm has no gradient at 0 (always the case for K = 1)
        Eigen::Map<Eigen::MatrixXd>(out.gradient.data(), n, k) =
            (2 / (double(n) * out.value)) * centred * offDiagonal;
    return out;
}

NcaiPenaltyValue ncaiPenalties(const Eigen::VectorXd& mu, const Eigen::MatrixXd& x, const Eigen::VectorXd& y,
                               const NcaiPenaltyOptions& o, Eigen::VectorXd* gradMu)
{
    const Eigen::Index n = mu.size();
    if (x.rows() != n || y.size() != n)
        throw InvalidParameter("NCAI penalties: x, y and the latent means differ in length");
    const double nd = double(n);
    NcaiPenaltyValue v;

    if (o.lambda1 != 0) {
        const DifferentiableValue hz = henzeZirkler1d(mu, gradMu != nullptr);
        v.hzDefined = hz.defined;
        if (hz.defined) {
            double slope = 0;
            v.hz = hz.value;
            v.hzPenalty = o.lambda1 * nd * cappedExp(hz.value / o.epsT, o.expCap, &slope);
            if (gradMu)
                *gradMu += (o.lambda1 * nd * slope / o.epsT) * hz.gradient;
        }
    }

    if (o.lambda2 != 0) {
        const DifferentiableValue off = offDiagonalCovarianceNorm(mu);
        v.offDiagonal = off.value;
        v.offDiagonalPenalty = o.lambda2 * nd * off.value;
        if (gradMu)
            *gradMu += o.lambda2 * nd * off.gradient;
    }

    if (o.lambda3 != 0) {
        // Exponent t = mean_d |corr(x_d, μ)|/ε_x + |corr(y, μ)|/ε_y; dt/dμ from each correlation.
        // A constant μ (the warm start) has no correlation: it counts as 0, with no gradient.
        Eigen::VectorXd dt = Eigen::VectorXd::Zero(n);
        for (Eigen::Index d = 0; d < x.cols(); ++d) {
            const DifferentiableValue r = pearsonCorrelation(x.col(d), mu);
            v.pcX += std::fabs(r.value) / double(x.cols());
            dt += (r.value >= 0 ? 1.0 : -1.0) / (double(x.cols()) * o.epsX) * r.gradient;
        }
        const DifferentiableValue ry = pearsonCorrelation(y, mu);
        v.pcY = std::fabs(ry.value);
        dt += (ry.value >= 0 ? 1.0 : -1.0) / o.epsY * ry.gradient;
        double slope = 0;
        v.pcPenalty = o.lambda3 * nd * cappedExp(v.pcX / o.epsX + v.pcY / o.epsY, o.expCap, &slope);
        if (gradMu)
            *gradMu += (o.lambda3 * nd * slope) * dt;
    }
    return v;
}

double clipRms(Eigen::Ref<Eigen::VectorXd> g, double maxRms)
{
    if (g.size() == 0)
        return 1;
    const double rms = g.norm() / std::sqrt(double(g.size()));
    if (!(rms > maxRms))
        return 1;
    const double factor = maxRms / rms;
    g *= factor;
    return factor;
}

} // namespace evx::bnn
