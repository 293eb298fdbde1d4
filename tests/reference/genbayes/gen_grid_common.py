"""What the Gen-grid exploration scripts beside this file share: the eight divergences with
METHODS.md section 4's clipping, the grid posterior exp(-n D) for n = 90, the
Jensen-Shannon distance (natural log) as the app computes them, and the regression's data
and grid (Table 4)."""
import numpy as np
from scipy.stats import norm, t as student_t

DIVS = ["tvd", "hellinger", "alpha-0.5", "alpha-0.6", "alpha-0.7", "alpha-0.8", "alpha-0.9", "kl"]


def f_of(d, logr, clip=True):
    if clip:
        logr = np.clip(logr, -5, 0 if d == "tvd" else 3)
    if d == "kl":
        return -logr
    if d == "hellinger":
        return 1 - np.exp(0.5 * logr)
    if d == "tvd":
        return 0.5 * np.abs(np.expm1(logr))
    a = float(d.split("-")[1])
    return (1 - np.exp((1 - a) * logr)) / (a * (1 - a))


def posterior(logp, logg, d, clip=True):
    """Grid weights from log p (grid points x observations) and log g (observations)."""
    dhat = np.mean(f_of(d, logp - logg[None, :], clip), axis=1)
    lp = -90 * dhat
    w = np.exp(lp - lp.max())
    return w / w.sum()


def jsd(p, q):
    m = 0.5 * (p + q)
    kl = lambda a: np.sum(a[a > 0] * np.log(a[a > 0] / m[a > 0]))
    return np.sqrt(max(0.5 * kl(p) + 0.5 * kl(q), 0))


def regression_grid():
    """The paper's 51^3 grid over beta0 in [-1, 1], beta1 in [-2, 0], log sigma^2 in [-3, 1], as
    columns (beta0, beta1, sigma) of one row per grid point."""
    b0, b1, ls = np.meshgrid(np.linspace(-1, 1, 51), np.linspace(-2, 0, 51), np.linspace(-3, 1, 51),
                             indexing="ij")
    return b0.ravel()[:, None], b1.ravel()[:, None], np.exp(0.5 * ls.ravel())[:, None]


def regression_data(seed, truth):
    """x ~ N(0, 1), y = -x + 0.5 e with e normal or t_3, n = 90, numpy RandomState(seed) with x
    drawn first; returns x, y and the true log g(y | x)."""
    rng = np.random.RandomState(seed)
    x = rng.standard_normal(90)
    e = rng.standard_normal(90) if truth == "normal" else rng.standard_t(3, 90)
    y = -x + 0.5 * e
    true_logg = norm.logpdf(y, -x, 0.5) if truth == "normal" else student_t.logpdf(y, 3, -x, 0.5)
    return x, y, true_logg
