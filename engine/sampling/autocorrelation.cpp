#include "sampling/autocorrelation.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <complex>
#include <vector>

namespace evx::sampling {

namespace {

// The zero padding that makes the FFT's circular correlation the linear one: the least
// 2^a 3^b 5^c ≥ 2n, lengths kissfft transforms with its own butterflies (1200 for the usual
// 600 steps, where the least power of two, 2048, made every transform 70 % longer).
Eigen::Index paddedLength(Eigen::Index n)
{
    Eigen::Index best = 1;
    while (best < 2 * n)
        best *= 2;
    for (Eigen::Index p5 = 1; p5 < best; p5 *= 5)
        for (Eigen::Index p35 = p5; p35 < best; p35 *= 3) {
            Eigen::Index m = p35;
            while (m < 2 * n)
                m *= 2;
            best = std::min(best, m);
        }
    return best;
}

} // namespace

Eigen::VectorXd autocorrelationFunction(const Eigen::VectorXd& chain)
{
    const Eigen::Index n = chain.size(), m = paddedLength(n);
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
    // Σ_w ρ_w = IFFT(Σ_w |C_w|² / v_w), v_w = Σ_t (c_w(t) − mean)² (= the lag-0 autocovariance):
    // the sum is linear in the power spectra, so one inverse transform serves every walker, and
    // two real chains share one complex forward transform (a in the real part, b in the
    // imaginary: A_k = (Z_k + conj Z_{m−k}) / 2, B_k = (Z_k − conj Z_{m−k}) / 2i). With two
    // transforms per walker (and lengths of powers of two) the diagnostics were most of the
    // sampler's own cost with 108 walkers in 26 dimensions (wvo-attainment's full run: 275 ms
    // of a run on a trivial density, 68 ms now; bench_attainment samplerOverhead).
    const Eigen::Index m = paddedLength(n);
    std::vector<Eigen::Index> moving;
    std::vector<double> inverseVariance;
    for (Eigen::Index w = 0; w < chains.cols(); ++w) {
        const double v = (chains.col(w).array() - chains.col(w).mean()).square().sum();
        if (v > 0) { // a walker that never moved carries no information on ρ
            moving.push_back(w);
            inverseVariance.push_back(1 / v);
        }
    }
    if (moving.empty())
        return double(n);
    Eigen::FFT<double> fft;
    std::vector<std::complex<double>> z(m), spectrum(m), sum(m, 0.0);
    for (std::size_t p = 0; p < moving.size(); p += 2) {
        const bool pair = p + 1 < moving.size();
        const auto a = chains.col(moving[p]);
        const double meanA = a.mean(), meanB = pair ? chains.col(moving[p + 1]).mean() : 0;
        for (Eigen::Index t = 0; t < n; ++t)
            z[t] = {a[t] - meanA, pair ? chains(t, moving[p + 1]) - meanB : 0.0};
        std::fill(z.begin() + n, z.end(), 0.0);
        fft.fwd(spectrum, z);
        // From Z_k = (x1, y1) and Z_{m−k} = (x2, y2): 4 |A_k|² = (x1 + x2)² + (y1 − y2)² and
        // 4 |B_k|² = (x1 − x2)² + (y1 + y2)². The sum is symmetric in k ↔ m − k: half of it is
        // filled, then mirrored.
        const double wa = 0.25 * inverseVariance[p], wb = pair ? 0.25 * inverseVariance[p + 1] : 0;
        for (Eigen::Index k = 0; k <= m / 2; ++k) {
            const std::complex<double> zk = spectrum[k], zr = spectrum[(m - k) % m];
            const double sx = zk.real() + zr.real(), sy = zk.imag() - zr.imag();
            const double dx = zk.real() - zr.real(), dy = zk.imag() + zr.imag();
            sum[k] += wa * (sx * sx + sy * sy) + wb * (dx * dx + dy * dy);
        }
    }
    for (Eigen::Index k = m / 2 + 1; k < m; ++k)
        sum[k] = sum[m - k];
    std::vector<std::complex<double>> summed;
    fft.inv(summed, sum);
    Eigen::VectorXd rho(n);
    for (Eigen::Index t = 0; t < n; ++t)
        rho[t] = summed[t].real() / double(moving.size());
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
