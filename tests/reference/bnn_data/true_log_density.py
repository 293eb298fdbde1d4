"""log p(y | x) of the Heavy-Tail truth, z ~ N(0, 0.01) integrated out by adaptive quadrature
(scipy.integrate.quad, split where the integrand lives), for test_bnn_datasets.
Reproduce (Debian's python3-numpy and python3-scipy):
    /usr/bin/python3 tests/reference/bnn_data/true_log_density.py
"""
import numpy as np
from scipy import integrate, stats

SZ, SE2 = 0.1, 0.1


def f(x, z):
    return 6 * np.tanh(0.1 * x ** 3 * (z + 1) ** 6 - 10 * x * z ** 2 + z)


def log_density(x, y):
    integrand = lambda z: stats.norm.pdf(z, 0, SZ) * stats.norm.pdf(y, f(x, z), np.sqrt(SE2))
    edges = np.linspace(-10 * SZ, 10 * SZ, 81)
    total = sum(integrate.quad(integrand, a, b, epsabs=0, epsrel=1e-13, limit=200)[0]
                for a, b in zip(edges[:-1], edges[1:]))
    return np.log(total)


for x, y in [(-3.9, -5.8), (-3.9, 4.0), (-1.2, -0.4), (0.0, 0.1), (0.7, 2.0), (2.5, 5.9), (3.95, -3.0)]:
    print(f"x = {x}, y = {y}: {log_density(x, y)!r}")
