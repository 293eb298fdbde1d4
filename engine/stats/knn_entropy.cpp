#include "stats/knn_entropy.h"

#include "core/errors.h"

#include <boost/math/special_functions/digamma.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace evx::stats {
namespace {

void checkSize(long n, int k)
{
    if (k < 1 || n <= k)
        throw InvalidParameter("the nearest-neighbour entropy needs 1 ≤ k < N (k = " + std::to_string(k) +
                               ", N = " + std::to_string(n) + ")");
}

double fromLogDistances(double sumLogR, long n, int k, int d)
{
    using boost::math::digamma;
    const double logBall = 0.5 * d * std::log(std::numbers::pi) - std::lgamma(0.5 * d + 1);
    return digamma(double(n)) - digamma(double(k)) + logBall + d * sumLogR / double(n);
}

[[noreturn]] void refuseTies(int k)
{
    throw NumericalError("the sample has more than " + std::to_string(k) +
                         " equal points, so a nearest-neighbour distance is zero and the entropy estimate "
                         "is −∞ (a distribution with atoms)");
}

} // namespace

double knnEntropy(std::vector<double> sample, int k)
{
    const long n = static_cast<long>(sample.size());
    checkSize(n, k);
    for (double v : sample)
        if (!std::isfinite(v))
            throw InvalidParameter("the entropy sample holds a value that is not finite");
    std::sort(sample.begin(), sample.end());
    double sumLogR = 0;
    for (long i = 0; i < n; ++i) {
        // The k nearest neighbours of a point in sorted order are a contiguous run around it:
        // grow it one step at a time towards the closer side.
        long left = i - 1, right = i + 1;
        double r = 0;
        for (int step = 0; step < k; ++step) {
            const double dl = left >= 0 ? sample[i] - sample[left] : INFINITY;
            const double dr = right < n ? sample[right] - sample[i] : INFINITY;
            if (dl <= dr) {
                r = dl;
                --left;
            } else {
                r = dr;
                ++right;
            }
        }
        if (!(r > 0))
            refuseTies(k);
        sumLogR += std::log(r);
    }
    return fromLogDistances(sumLogR, n, k, 1);
}

double knnEntropy(const Eigen::MatrixXd& x, int k)
{
    const long n = static_cast<long>(x.rows());
    checkSize(n, k);
    if (x.cols() < 1)
        throw InvalidParameter("the entropy sample has no coordinates");
    if (!x.allFinite())
        throw InvalidParameter("the entropy sample holds a value that is not finite");
    if (x.cols() == 1)
        return knnEntropy(std::vector<double>(x.data(), x.data() + n), k);
    std::vector<double> d2(static_cast<std::size_t>(n - 1));
    double sumLogR = 0;
    for (long i = 0; i < n; ++i) {
        std::size_t m = 0;
        for (long j = 0; j < n; ++j)
            if (j != i)
                d2[m++] = (x.row(i) - x.row(j)).squaredNorm();
        std::nth_element(d2.begin(), d2.begin() + (k - 1), d2.end());
        if (!(d2[k - 1] > 0))
            refuseTies(k);
        sumLogR += 0.5 * std::log(d2[k - 1]);
    }
    return fromLogDistances(sumLogR, n, k, static_cast<int>(x.cols()));
}

} // namespace evx::stats
