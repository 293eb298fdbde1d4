"""What the Gen-grid exploration scripts beside this file share: the eight divergences with
METHODS.md section 4's clipping, the grid posterior exp(-n D) for n = 90, and the
Jensen-Shannon distance (natural log) as the app computes them."""
import numpy as np

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
