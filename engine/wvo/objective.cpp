#include "wvo/objective.h"

#include "core/errors.h"

#include <cmath>
#include <string>

namespace evx::wvo {

void checkProblem(const WvoProblem& p)
{
    const auto m = p.logLikVirtual.rows();
    if (m < 2 || p.logLikVirtual.cols() < 1)
        throw InvalidParameter("WVO needs at least 2 posterior draws and 1 virtual observation");
    if (p.logLikOriginal.size() != m)
        throw InvalidParameter("WVO: " + std::to_string(p.logLikOriginal.size()) +
                               " original log-likelihoods for " + std::to_string(m) + " posterior draws");
    if (!p.logLikVirtual.allFinite() || !p.logLikOriginal.allFinite())
        throw NumericalError("WVO: a log-likelihood at a posterior draw is not finite");
    if (!(p.totalWeight > 0))
        throw InvalidParameter("WVO: the total weight N must be positive");
}

double objective(const WvoProblem& p, const Eigen::VectorXd& w, Eigen::VectorXd* gradient)
{
    const Eigen::MatrixXd& a = p.logLikVirtual;
    const double m = static_cast<double>(a.rows());
    const Eigen::VectorXd aw = a * w;                // Σ_i w_i a_mi, per draw
    const Eigen::VectorXd e = aw - p.logLikOriginal; // exponent of the second term
    const double shift = e.maxCoeff();
    const Eigen::ArrayXd ex = (e.array() - shift).exp();
    const double sum = ex.sum();
    const double value = aw.mean() - (shift + std::log(sum / m));
    if (gradient) {
        const Eigen::VectorXd s = (ex / sum).matrix();
        *gradient = a.colwise().mean().transpose() - a.transpose() * s;
    }
    return value;
}

} // namespace evx::wvo
