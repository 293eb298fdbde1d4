"""Exploration (no test reads it): what the paper's Gen-grid column of Table 4 would be with its
literal g(y|x) (scikit-learn GP, ConstantKernel() * Matern(nu=1.5), alpha = 1e-10, fitted to the
90 points), with the log-ratios clipped to [-5, 3] (TVD [-5, 0]) as METHODS.md section 4 says,
and without any clipping of the Gen-grid log-ratios (the reference, with the true g, clipped in
both). Data: x ~ N(0, 1), y = -x + 0.5 e (normal) or 0.5 t_3 (Student-t), n = 90, numpy
RandomState(seed), x drawn first; the paper's 51^3 grid over beta0 in [-1, 1], beta1 in [-2, 0],
log sigma^2 in [-3, 1], uniform prior; Jensen-Shannon distance (natural log) as in the app.
Command: /usr/bin/python3 paper_gen_grid_check.py 5 > paper_gen_grid_check.txt
"""
import sys
import warnings

import numpy as np
from scipy.stats import norm
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel, Matern

from gen_grid_common import DIVS, jsd, posterior, regression_data, regression_grid

seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
b0, b1, s = regression_grid()
for truth in ["normal", "student-t"]:
    res = {d: ([], []) for d in DIVS}
    for seed in range(seeds):
        x, y, true_logg = regression_data(seed, truth)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gp = GaussianProcessRegressor(ConstantKernel() * Matern(nu=1.5)).fit(x[:, None], y)
            mu, sd = gp.predict(x[:, None], return_std=True)
        logg = norm.logpdf(y, mu, sd)
        logp = norm.logpdf(y[None, :], b0 + b1 * x[None, :], s)
        for d in DIVS:
            ref = posterior(logp, true_logg, d, True)
            res[d][0].append(jsd(ref, posterior(logp, logg, d, True)))
            res[d][1].append(jsd(ref, posterior(logp, logg, d, False)))
    for d in DIVS:
        print("%s %s clipped %.4f unclipped %.4f" % (truth, d, np.mean(res[d][0]), np.mean(res[d][1])))
