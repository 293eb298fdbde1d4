"""Reference log marginal likelihoods of scikit-learn's GP for test_gp_sklearn.

Eight noisy data sets y = sin(3x) + 2 + N(0, s^2), x ~ U(0, 3), n in {30, 60, 120, 200},
s in {0.05, 0.2, 0.5, 1.0}; the model h*Matern-3/2 + c + white noise with zero mean, fitted
with 10 optimiser restarts. Writes data<seed>.csv and reference.txt (seed, n, log ML, h, w,
noise variance, c). Reproduce (Debian's python3-sklearn 1.2.1):
    cd tests/reference/gp_sklearn && /usr/bin/python3 make_reference.py > reference.txt
"""
import warnings

import numpy as np
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel as C, Matern, WhiteKernel

warnings.filterwarnings("ignore")
for seed in range(8):
    rng = np.random.RandomState(seed)
    n = [30, 60, 120, 200][seed % 4]
    x = rng.uniform(0, 3, n)
    y = np.sin(3 * x) + 2 + rng.normal(0, [0.05, 0.2, 0.5, 1.0][seed // 2], n)
    np.savetxt(f"data{seed}.csv", np.c_[x, y], delimiter=",")
    kernel = C(1.0, (1e-5, 1e5)) * Matern(1.0, (1e-3, 1e3), nu=1.5) + C(1.0, (1e-5, 1e5)) + WhiteKernel(0.1, (1e-10, 1e2))
    gp = GaussianProcessRegressor(kernel, normalize_y=False, n_restarts_optimizer=10, random_state=0).fit(x[:, None], y)
    k = gp.kernel_
    print(seed, n, "%.6f" % gp.log_marginal_likelihood_value_, k.k1.k1.k1.constant_value,
          k.k1.k1.k2.length_scale, k.k2.noise_level, k.k1.k2.constant_value)
