"""The paper's g(y|x) for the regression (Sec. 3.3: "Gaussian Process regression with a Matern32
kernel and constant kernel") taken literally, for test_genbayes_generative_g:
scikit-learn's GaussianProcessRegressor(ConstantKernel() * Matern(nu=1.5)) with its defaults
(alpha = 1e-10 jitter, no noise term, zero mean, n_restarts_optimizer = 0), fitted to one data set
of the paper's design: x ~ N(0, 1), y = -x + 0.5 e, e ~ N(0, 1), n = 90, numpy RandomState(0).

Writes paper_gp_data.csv (x, y) and prints, to paper_gp_reference.txt:
  lines "fit h l logml": the ML optimum; "at h l logml" then "logg i value" for two fixed
  (h, l): the optimum and (1, 0.3); log g(y_i|x_i) = norm.logpdf(y_i, mu_i, sd_i) with
  (mu, sd) = predict(X, return_std=True) at the training points.
Command (Debian python3-sklearn 1.2.1, python3-numpy 1.24.2, python3-scipy):
  /usr/bin/python3 paper_gp_reference.py > paper_gp_reference.txt
"""
import warnings

import numpy as np
from scipy.stats import norm
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel, Matern

rng = np.random.RandomState(0)
n = 90
x = rng.standard_normal(n)
y = -x + 0.5 * rng.standard_normal(n)
np.savetxt("paper_gp_data.csv", np.column_stack([x, y]), delimiter=",", fmt="%.17g")
X = x[:, None]

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the optimum's length scale sits on its lower bound
    gp = GaussianProcessRegressor(ConstantKernel() * Matern(nu=1.5)).fit(X, y)
h, ell = gp.kernel_.k1.constant_value, gp.kernel_.k2.length_scale
print("fit %.17g %.17g %.10f" % (h, ell, gp.log_marginal_likelihood_value_))

for hh, ll in [(h, ell), (1.0, 0.3)]:
    fixed = GaussianProcessRegressor(ConstantKernel(hh, "fixed") * Matern(ll, "fixed", nu=1.5), optimizer=None)
    fixed.fit(X, y)
    mu, sd = fixed.predict(X, return_std=True)
    logg = norm.logpdf(y, mu, sd)
    print("at %.17g %.17g %.10f" % (hh, ll, fixed.log_marginal_likelihood_value_))
    for i in range(n):
        print("logg %d %.12f" % (i, logg[i]))
    # How far the paper's update is from any information: log r at the truth's theta.
    logr = norm.logpdf(y, -x, 0.5) - logg
    print("# max log r at the truth %.4f, min log g %.6f" % (logr.max(), logg.min()))
