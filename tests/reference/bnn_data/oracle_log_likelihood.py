"""Expected test log-likelihood of the true predictive p(y|x) of each synthetic BNN+LV set, on raw
and on standardised y (they differ by log sd_y), and of the best homoscedastic Gaussian (mean
E[y|x], variance E_x Var[y|x]) on raw y. A model cannot beat the truth in expectation, so the
paper's Table 4 tells on which scale it reports each set (engine/bnn/datasets.h, YScale).
Reproduce (Debian's python3-numpy):
    /usr/bin/python3 tests/reference/bnn_data/oracle_log_likelihood.py
Output (numpy 1.24.2):
    goldberg    truth raw -1.396  truth std -0.846  sd_y 1.733  homoscedastic raw -1.419
    yuan        truth raw -1.418  truth std -1.056  sd_y 1.436  homoscedastic raw -1.536
    williams    truth raw  0.388  truth std -0.594  sd_y 0.375  homoscedastic raw  0.091
    depeweg     truth raw -1.856  truth std -0.182  sd_y 5.329  homoscedastic raw -2.085
    heavy-tail  truth raw -1.246  truth std  0.136  sd_y 3.980  homoscedastic raw -1.919
    bimodal     truth raw -2.077  truth std -0.342  sd_y 5.666  homoscedastic raw -3.115
Paper, Table 4 (best row; BNN row): Heavy-Tail -1.426; -2.47. Goldberg -0.962; -1.055.
Williams -0.414; -1.591. Yuan -1.211; -2.846. Depeweg -1.973; -2.306.
"""
import numpy as np

rng = np.random.default_rng(0)
M = 200000
ZQ = rng.standard_normal(4000)  # common z draws for the mixtures over z


def gaussian_entropy(v):
    return 0.5 * np.log(2 * np.pi * np.e * v)


def report(name, ll_raw, y, v_mean):
    sd = y.std()
    homo = -gaussian_entropy(v_mean)
    print(f"{name:<11} truth raw {ll_raw:6.3f}  truth std {ll_raw + np.log(sd):6.3f}  sd_y {sd:.3f}"
          f"  homoscedastic raw {homo:6.3f}")


def heteroscedastic(name, f, v):
    x = rng.uniform(0, 1, M)
    y = f(x) + np.sqrt(v(x)) * rng.standard_normal(M)
    report(name, -gaussian_entropy(v(x)).mean(), y, v(x).mean())


heteroscedastic("goldberg", lambda x: 2 * np.sin(2 * np.pi * x), lambda x: x + 0.5)
heteroscedastic("yuan", lambda x: 2 * np.exp(-30 * (x - 0.25) ** 2 + np.sin(np.pi * x ** 2)) - 2,
                lambda x: np.exp(np.sin(2 * np.pi * x)))
heteroscedastic("williams", lambda x: np.sin(2.5 * x) * np.sin(1.5 * x),
                lambda x: 0.01 + 0.25 * (1 - np.sin(2.5 * x)) ** 2)

# Depeweg: y | x ~ N(7 sin x, 9 cos²(x/2) + 0.1) exactly.
c = rng.integers(0, 3, M)
x = np.array([-4.0, 0.0, 4.0])[c] + np.array([0.4, 0.9, 0.4])[c] * rng.standard_normal(M)
v = 9 * np.cos(x / 2) ** 2 + 0.1
y = 7 * np.sin(x) + np.sqrt(v) * rng.standard_normal(M)
report("depeweg", -gaussian_entropy(v).mean(), y, v.mean())


def latent_set(name, f, draw_x, sz, se2, n=4000):
    """p(y|x) = E_z N(y; f(x, z), σ_ε²) by Monte Carlo over ZQ; Var[y|x] likewise."""
    x = draw_x(n)
    y = f(x, sz * rng.standard_normal(n)) + np.sqrt(se2) * rng.standard_normal(n)
    means = f(x[:, None], sz * ZQ[None, :])
    d = -0.5 * (y[:, None] - means) ** 2 / se2
    top = d.max(axis=1)
    ll = top + np.log(np.exp(d - top[:, None]).mean(axis=1)) - 0.5 * np.log(2 * np.pi * se2)
    report(name, ll.mean(), y, (means.var(axis=1) + se2).mean())


latent_set("heavy-tail", lambda x, z: 6 * np.tanh(0.1 * x ** 3 * (z + 1) ** 6 - 10 * x * z ** 2 + z),
           lambda n: rng.uniform(-4, 4, n), 0.1, 0.1)
latent_set("bimodal", lambda x, z: np.where(z > 0, 10 * np.sin(x), 10 * np.cos(x)),
           lambda n: np.minimum(rng.exponential(0.5, n) - 0.5, 2.0), np.sqrt(0.1), 1.0)
