"""Golden values for test_stats_metrics: Henze–Zirkler written directly from its definition
(explicit inverse covariance, all pairwise Mahalanobis distances; biased covariance and the
standard β, as R's MVN and pingouin) and scipy's Kolmogorov–Smirnov statistic.
Reproduce (Debian's python3-numpy and python3-scipy):
    /usr/bin/python3 tests/reference/bnn_metrics/make_reference.py
"""
import numpy as np
from scipy import stats


def hz(X):
    X = np.atleast_2d(X)
    n, d = X.shape
    S = np.cov(X, rowvar=False, bias=True).reshape(d, d)
    Si = np.linalg.inv(S)
    diff = X[:, None, :] - X[None, :, :]
    Dij = np.einsum("ijk,kl,ijl->ij", diff, Si, diff)
    c = X - X.mean(0)
    Di = np.einsum("ik,kl,il->i", c, Si, c)
    b2 = (((2 * d + 1) * n / 4) ** (1 / (d + 4)) / np.sqrt(2)) ** 2
    return (np.exp(-b2 / 2 * Dij).sum() / n - 2 * (1 + b2) ** (-d / 2) * np.exp(-b2 / (2 * (1 + b2)) * Di).sum()
            + n * (1 + 2 * b2) ** (-d / 2))


x = np.array([-1.2, 0.3, 0.4, 2.0, -0.5])
X2 = np.array([[0.1, 1.0], [1.3, -0.2], [-0.7, 0.4], [2.2, 1.9], [0.0, -1.1], [-1.5, 0.3]])
print("ks, N(0, 1.5^2):", repr(stats.kstest(x, stats.norm(0, 1.5).cdf).statistic))
print("hz, 1-D:", repr(hz(x[:, None])))
print("hz, 2-D:", repr(hz(X2)))
