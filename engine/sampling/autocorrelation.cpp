#include "sampling/autocorrelation.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <complex>
#include <vector>

namespace evx::sampling {

Eigen::VectorXd autocorrelationFunction(const Eigen::VectorXd& chain)
{
    const Eigen::Index n = chain.size();
    // Zero-pad to a power of two ≥ 2n so the circular correlation equals the linear one.
    Eigen::Index m = 1;
    while (m < 2 * n)
        m *= 2;
    std::vector<double> padded(m, 0.0);
    const double mean = chain.mean();
    for (Eigen::Index i = 0; i < n; ++i)
        padded[i] = chain[i] - mean;
    Eigen::FFT<double> fft;
    std::vector<std::complex<double>> spectrum;
    fft.fwd(spectrum, padded);
    for (auto& c : spectrum)
        c = std::norm(c);
    std::vector<double> acov;
    fft.inv(acov, spectrum);
    Eigen::VectorXd rho(n);
    if (!(acov[0] > 0)) {
        rho.setZero();
        rho[0] = 1;
        return rho;
    }
    for (Eigen::Index t = 0; t < n; ++t)
        rho[t] = acov[t] / acov[0];
    return rho;
}

double integratedAutocorrelationTime(const Eigen::MatrixXd& chains, double window)
{
    const Eigen::Index n = chains.rows();
    if (n < 2 || chains.cols() == 0)
        return 1;
    Eigen::VectorXd rho = Eigen::VectorXd::Zero(n);
    int used = 0;
    for (Eigen::Index w = 0; w < chains.cols(); ++w) {
        const Eigen::VectorXd c = chains.col(w);
        if ((c.array() - c.mean()).abs().maxCoeff() == 0)
            continue; // a walker that never moved carries no information on ρ
        rho += autocorrelationFunction(c);
        ++used;
    }
    if (used == 0)
        return double(n);
    rho /= used;
    // τ(M) = 2 Σ_{t=0}^{M} ρ(t) − 1; stop at the first M with M ≥ c·τ(M) (emcee's auto_window).
    double tau = 1;
    double cumulative = 0;
    for (Eigen::Index t = 0; t < n; ++t) {
        cumulative += rho[t];
        tau = 2 * cumulative - 1;
        if (double(t) >= window * tau)
            return std::max(tau, 1.0);
    }
    // The window never closed: the chain is too short to estimate τ reliably; the last
    // estimate is a lower bound, so report at least n / c (emcee would warn here).
    return std::max({tau, double(n) / window, 1.0});
}

} // namespace evx::sampling
