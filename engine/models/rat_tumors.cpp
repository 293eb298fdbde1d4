#include "models/rat_tumors.h"

#include <cmath>

namespace evx::models {

double betaBinomialLogPmf(int y, int n, double alpha, double beta)
{
    const double logChoose = std::lgamma(n + 1.0) - std::lgamma(y + 1.0) - std::lgamma(n - y + 1.0);
    return logChoose + std::lgamma(alpha + y) + std::lgamma(beta + n - y) - std::lgamma(alpha + beta + n) -
           (std::lgamma(alpha) + std::lgamma(beta) - std::lgamma(alpha + beta));
}

double ratsLogPrior(double u, double v)
{
    const double a = ratsAlpha(u, v), b = ratsBeta(u, v);
    return -2.5 * v + std::log(a) + std::log(b);
}

} // namespace evx::models
