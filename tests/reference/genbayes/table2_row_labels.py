"""Exploration (no test reads it): which data the two rows of the paper's Table 2 Gen-grid
column were computed on. Gen grid for the Poisson model as METHODS.md section 4 defines it: a
Gaussian KDE (bandwidth 1.0) of the 90 observed counts for g, log-ratios clipped to [-5, 3]
(TVD [-5, 0]), lambda on linspace(0, 10, 1001), uniform prior, Jensen-Shannon distance
(natural log) to the update with the true g. Data: numpy RandomState(seed), Pois(3) or
NB(10, 0.8) (number of failures, mean 2.5), the protocol that reproduces Table 3's Gen-grid
column. Table 2's own seeds do not reproduce it, so instead of matching seeds 0-49 this asks
whether each printed row is a plausible 50-seed mean: z = (paper - E[JSD]) / (sd / sqrt(50)),
with E[JSD] and sd over many seeds; and which window of 50 consecutive seeds comes closest.
The eight cells of a row share their data, so their z's move together.
Command: /usr/bin/python3 table2_row_labels.py 400 > table2_row_labels.txt
"""
import sys

import numpy as np
from scipy.stats import nbinom, norm, poisson

from gen_grid_common import DIVS, jsd, posterior

PAPER_GEN_GRID = {
    "Pois(3) row": [0.2788, 0.1781, 0.3260, 0.2329, 0.1589, 0.09887, 0.04729, 0.002426],
    "NB(10, 0.8) row": [0.3353, 0.1182, 0.2162, 0.1524, 0.1019, 0.06126, 0.02791, 0.00005307],
}
LAMBDA = np.linspace(0, 10, 1001)


def per_seed_jsd(truth, seed):
    rng = np.random.RandomState(seed)
    x = rng.poisson(3, 90) if truth == "poisson" else rng.negative_binomial(10, 0.8, 90)
    true_logg = poisson.logpmf(x, 3) if truth == "poisson" else nbinom.logpmf(x, 10, 0.8)
    kde_logg = np.log(np.mean(norm.pdf(x[:, None] - x[None, :].astype(float)), axis=1))
    with np.errstate(divide="ignore"):
        logp = poisson.logpmf(x[None, :], LAMBDA[:, None])
    return [jsd(posterior(logp, true_logg, d), posterior(logp, kde_logg, d)) for d in DIVS]


def row(label, values, fmt):
    return "%-32s" % label + " ".join(fmt % v for v in values)


seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 400
print(row("cell", DIVS, "%9s"))
for truth in ["poisson", "negbin"]:
    per = np.array([per_seed_jsd(truth, s) for s in range(seeds)])
    mean, se50 = per.mean(axis=0), per.std(axis=0, ddof=1) / np.sqrt(50)
    print()
    print(row("%s data, E[JSD] (%d seeds)" % (truth, seeds), mean, "%9.4f"))
    print(row("  sd of a 50-seed mean", se50, "%9.4f"))
    print(row("  seeds 0-49", per[:50].mean(axis=0), "%9.4f"))
    for label, paper in PAPER_GEN_GRID.items():
        paper = np.array(paper)
        print(row("  z of the paper's " + label, (paper - mean) / se50, "%+9.1f"))
        start = min(range(seeds - 49), key=lambda a: np.max(np.abs(per[a:a + 50].mean(axis=0) - paper)))
        gap = np.max(np.abs(per[start:start + 50].mean(axis=0) - paper))
        print("    closest window of 50 seeds: %d-%d, largest gap %.3f" % (start, start + 49, gap))
