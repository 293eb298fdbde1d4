"""Golden values for test_predictive_metrics and test_knn_entropy, computed independently of the
engine: SciPy's logsumexp and normal log-density for Eq. 34, brentq on the mixture CDF for the
interval ends, adaptive quadrature (scipy.integrate.quad, split at every mean) for the entropy of
a Gaussian mixture, and the Kozachenko–Leonenko formula with distances from a brute-force
distance matrix.
Reproduce (Debian's python3-numpy and python3-scipy):
    /usr/bin/python3 tests/reference/bnn_data/predictive_metrics_reference.py
"""
import numpy as np
from scipy import integrate, optimize, special, stats

np.set_printoptions(precision=17)

# Seven predictive draws f(s, n) at three test points, σ_ε = 0.4, and the test targets.
F = np.array([[0.3, -1.2, 2.0],
              [0.5, -0.7, 2.2],
              [0.1, -1.0, 1.1],
              [0.9, -1.6, 2.9],
              [0.4, -0.2, 2.4],
              [0.2, -1.1, 0.3],
              [0.7, -0.9, 2.6]])
y = np.array([0.35, 0.4, 2.1])
sd = 0.4

logd = special.logsumexp(stats.norm.logpdf(y[None, :], F, sd), axis=0) - np.log(F.shape[0])
print("log densities:", repr(logd))
print("log-likelihood:", repr(logd.mean()))
print("rmse:", repr(np.sqrt(np.mean((y - F.mean(axis=0)) ** 2))))


def quantile(m, p):
    cdf = lambda t: stats.norm.cdf(t, m, sd).mean() - p
    return optimize.brentq(cdf, m.min() - 10 * sd, m.max() + 10 * sd, xtol=1e-14, rtol=1e-15)


lo = np.array([quantile(F[:, n], 0.025) for n in range(3)])
hi = np.array([quantile(F[:, n], 0.975) for n in range(3)])
print("lower 2.5 %:", repr(lo))
print("upper 97.5 %:", repr(hi))
print("picp:", repr(np.mean((y >= lo) & (y <= hi))), " mpiw:", repr(np.mean(hi - lo)))


def mixture_entropy(m, s):
    m = np.asarray(m, dtype=float)
    pdf = lambda t: stats.norm.pdf(t, m, s).mean()
    integrand = lambda t: -pdf(t) * np.log(pdf(t)) if pdf(t) > 0 else 0.0
    edges = np.unique(np.concatenate([[m.min() - 12 * s], np.sort(m), [m.max() + 12 * s]]))
    total = 0.0
    for a, b in zip(edges[:-1], edges[1:]):
        v, _ = integrate.quad(integrand, a, b, epsabs=1e-14, epsrel=1e-13, limit=200)
        total += v
    return total


print("mixture entropy, column 0:", repr(mixture_entropy(F[:, 0], sd)))
print("mixture entropy, column 2:", repr(mixture_entropy(F[:, 2], sd)))
for gap in [0.5, 2.0, 5.0, 7.0, 12.0]:
    print(f"two unit components {gap} apart:", repr(mixture_entropy([0.0, gap], 1.0)))


def kl_entropy(x, k):
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    n, d = x.shape
    dist = np.sqrt(((x[:, None, :] - x[None, :, :]) ** 2).sum(-1))
    np.fill_diagonal(dist, np.inf)
    r = np.sort(dist, axis=1)[:, k - 1]
    log_ball = d / 2 * np.log(np.pi) - special.gammaln(d / 2 + 1)
    return special.digamma(n) - special.digamma(k) + log_ball + d * np.log(r).mean()


x1 = np.array([0.12, -0.8, 1.7, 0.33, 2.9, -1.4, 0.05, 0.61, -0.27, 1.15, 3.3, -2.2])
x2 = np.array([[0.1, 1.0], [1.3, -0.2], [-0.7, 0.4], [2.2, 1.9], [0.0, -1.1], [-1.5, 0.3],
               [0.6, 0.6], [1.1, 2.4], [-0.9, -1.7], [0.4, -0.5]])
print("kl entropy 1-D, k = 3:", repr(kl_entropy(x1, 3)))
print("kl entropy 1-D, k = 1:", repr(kl_entropy(x1, 1)))
print("kl entropy 2-D, k = 2:", repr(kl_entropy(x2, 2)))
