"""Side by side: our L1 logistic regression with 5-fold cross-validation (fitLogisticL1Cv)
against scikit-learn's LogisticRegressionCV on the same fold data, for speed and agreement.

The data are one fold of Algorithm 1 (81 observed against 81 simulated points; Poisson: one
feature, regression: six), written by bench_genbayes together with our decision values and
chosen C. Reproduce (Debian's python3-sklearn 1.2.1):
    EVX_DUMP_FOLD_DATA=/tmp build/tests/bench/bench_genbayes classifierFit
    /usr/bin/python3 tests/reference/logistic_cv_sklearn/compare.py /tmp/poisson.csv /tmp/regression.csv
saga leaves the intercept unpenalised, as ours does; liblinear penalises it (intercept_scaling
100 makes that penalty smaller). Both choose C by the mean log loss over stratified folds.
For each input it also writes <name>_sklearn.csv here (label, features, saga's decision value
and C), which test_genbayes_logistic checks our solver against.
"""
import os
import sys
import timeit
import warnings

import numpy as np
from sklearn.linear_model import LogisticRegressionCV

warnings.filterwarnings("ignore")
for path in sys.argv[1:]:
    data = np.loadtxt(path, delimiter=",")
    y, x, ours, our_c = data[:, 0], data[:, 1:-2], data[:, -2], data[0, -1]
    print(f"{path}: n = {len(y)}, {x.shape[1]} feature(s); ours: C = {our_c:.4g}")
    for solver, extra in (("liblinear", {"intercept_scaling": 100.0}), ("saga", {"max_iter": 1000000, "tol": 1e-12})):
        def fit():
            return LogisticRegressionCV(Cs=np.logspace(-4, 4, 10), cv=5, penalty="l1", solver=solver,
                                        scoring="neg_log_loss", **extra).fit(x, y)
        model = fit()
        seconds = min(timeit.repeat(fit, number=1, repeat=5))
        delta = model.decision_function(x)
        if solver == "saga":
            here = os.path.dirname(os.path.abspath(__file__))
            name = os.path.splitext(os.path.basename(path))[0]
            np.savetxt(os.path.join(here, f"{name}_sklearn.csv"),
                       np.c_[y, x, delta, np.full(len(y), model.C_[0])], delimiter=",", fmt="%.17g")
        print(f"  {solver:9s} C = {model.C_[0]:.4g}  {seconds * 1e3:8.2f} ms per fit  "
              f"max |δ_sklearn − δ_ours| = {np.max(np.abs(delta - ours)):.2e}")
