#!/usr/bin/env python3
"""PyTorch timing of the BNN+LV epoch that tests/bench/bench_bnn.cpp times in C++.

The same network and loss as engine/bnn: input [x, z], one hidden layer of 50 LeakyReLU(0.01)
units, a linear output; mean-field q(W) and q(z_n) with log-parametrised sds, one reparameterised
draw per step, NLL with fixed sigma_eps^2 = 0.1, KL terms against empirical-Bayes prior variances
set in closed form before each step (InverseGamma(3, 0.5) mode), Adam at learning rate 0.01.
NCAI adds lambda1 N capexp(HZ/eps_T) + lambda3 N capexp(|PC_x|/eps_x + |PC_y|/eps_y) on mu_z
(the off-diagonal term is zero with one latent per datum), its gradient on mu_z rescaled to an RMS
of at most 10, as the engine does. float64, one thread, CPU.

Needs Debian's python3-torch (apt-get install python3-torch; deliberately not in
scripts/install-deps.sh: it is only for this comparison), so run it with Debian's interpreter:
    /usr/bin/python3 scripts/bench_bnn_torch.py [--epochs 300]
Debian's torch 1.13 is built against the reference BLAS (torch.__config__.show(): BLAS_INFO=generic),
so it is slower than a pip wheel with MKL; compare also with the prototype's figures in METHODS.md.
prints one line per variant: milliseconds per epoch (median of 5 repeats).
"""
import argparse
import math
import time

import numpy as np
import torch

torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


def depeweg_like(n, seed):
    rng = np.random.default_rng(seed)
    k = rng.integers(0, 3, n)
    x = np.array([-4.0, 0.0, 4.0])[k] + np.array([0.4, 0.9, 0.4])[k] * rng.standard_normal(n)
    z = rng.standard_normal(n)
    y = 7 * np.sin(x) + 3 * np.abs(np.cos(x / 2)) * z + math.sqrt(0.1) * rng.standard_normal(n)
    return torch.tensor(x).unsqueeze(1), torch.tensor(y)


def capped_exp(t, cap=10.0):
    return torch.where(t <= cap, torch.exp(torch.clamp(t, max=cap)), math.exp(cap) * (1 + t - cap))


def henze_zirkler(a):
    n = a.shape[0]
    u = (a - a.mean()) / torch.sqrt(((a - a.mean()) ** 2).mean())
    b2 = (((3.0 * n) / 4) ** (1 / 5) / math.sqrt(2)) ** 2
    pairs = torch.exp(-b2 / 2 * (u[:, None] - u[None, :]) ** 2).sum() / n
    singles = torch.exp(-b2 / (2 * (1 + b2)) * u ** 2).sum()
    return pairs - 2 / math.sqrt(1 + b2) * singles + n / math.sqrt(1 + 2 * b2)


def correlation(a, b):
    ac, bc = a - a.mean(), b - b.mean()
    return (ac * bc).mean() / torch.sqrt((ac ** 2).mean() * (bc ** 2).mean())


class Model:
    def __init__(self, x, y, ncai, seed):
        g = torch.Generator().manual_seed(seed)
        self.x, self.y, self.ncai = x, y, ncai
        n, h = x.shape[0], 50
        shapes = [(h, 2), (h,), (1, h), (1,)]
        self.means = [torch.randn(s, generator=g) * math.sqrt(2.0 / (s[-1] + s[0])) if len(s) == 2
                      else torch.zeros(s) for s in shapes]
        self.logsds = [math.log(0.01) + 0.1 * torch.randn(s, generator=g) for s in shapes]
        self.mu = 0.1 * torch.randn(n, generator=g)
        self.tau = math.log(0.1) + 0.1 * torch.randn(n, generator=g)
        self.params = self.means + self.logsds + [self.mu, self.tau]
        for p in self.params:
            p.requires_grad_(True)
        self.opt = torch.optim.Adam(self.params, lr=0.01)
        self.noise_sd = math.sqrt(0.1)

    @staticmethod
    def eb_variance(means, logsds):
        s = sum((m.detach() ** 2).sum() + torch.exp(2 * t.detach()).sum() for m, t in zip(means, logsds))
        count = sum(m.numel() for m in means)
        return (s + 2 * 0.5) / (count + 2 * 3 + 2)

    @staticmethod
    def kl(means, logsds, v):
        return sum((0.5 * math.log(v) - t + (torch.exp(2 * t) + m ** 2) / (2 * v) - 0.5).sum()
                   for m, t in zip(means, logsds))

    def step(self):
        vw = float(self.eb_variance(self.means, self.logsds))
        vz = float(self.eb_variance([self.mu], [self.tau]))
        w = [m + torch.exp(t) * torch.randn_like(m) for m, t in zip(self.means, self.logsds)]
        z = self.mu + torch.exp(self.tau) * torch.randn_like(self.mu)
        inp = torch.cat([self.x, z[:, None]], dim=1)
        hidden = torch.nn.functional.leaky_relu(inp @ w[0].T + w[1], 0.01)
        f = (hidden @ w[2].T + w[3]).squeeze(1)
        n = self.y.shape[0]
        nll = n * (0.5 * math.log(2 * math.pi) + math.log(self.noise_sd)) + ((self.y - f) ** 2).sum() / (
            2 * self.noise_sd ** 2)
        loss = nll + self.kl(self.means, self.logsds, vw) + self.kl([self.mu], [self.tau], vz)
        self.opt.zero_grad()
        loss.backward()
        if self.ncai:
            hz = henze_zirkler(self.mu)
            pc = torch.abs(correlation(self.x[:, 0], self.mu)) / 0.5 + torch.abs(correlation(self.y, self.mu)) / 1.0
            penalty = n * capped_exp(hz / 0.01) + n * capped_exp(pc)
            (grad,) = torch.autograd.grad(penalty, self.mu)
            rms = grad.norm() / math.sqrt(n)
            if rms > 10:
                grad = grad * (10 / rms)
            self.mu.grad += grad
        self.opt.step()


def time_variant(ncai, epochs, repeats=5):
    x, y = depeweg_like(750, 1)
    times = []
    for r in range(repeats):
        m = Model(x, y, ncai, seed=r)
        for _ in range(20):  # past mu's first steps and the allocator's warm-up
            m.step()
        start = time.perf_counter()
        for _ in range(epochs):
            m.step()
        times.append((time.perf_counter() - start) / epochs * 1000)
    return float(np.median(times))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=300)
    args = parser.parse_args()
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, float64")
    for name, ncai in (("mfvi", False), ("ncai", True)):
        print(f"{name}: {time_variant(ncai, args.epochs):.3f} ms per epoch (N = 750, 50 hidden units)")


if __name__ == "__main__":
    main()
