#include "bnn/synthetic_datasets.h"

#include "core/errors.h"
#include "stats/densities.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace evx::bnn {
namespace {

constexpr double kPi = std::numbers::pi;

enum class Generator { HeavyTail, Depeweg, Bimodal, Goldberg, Yuan, Williams };

Generator generatorOf(std::string_view id)
{
    if (id == "heavy-tail")
        return Generator::HeavyTail;
    if (id == "depeweg")
        return Generator::Depeweg;
    if (id == "bimodal")
        return Generator::Bimodal;
    if (id == "goldberg")
        return Generator::Goldberg;
    if (id == "yuan")
        return Generator::Yuan;
    if (id == "williams")
        return Generator::Williams;
    datasetInfo(id); // throws for an unknown id
    std::string message(id);
    message += " is a real data set, not a synthetic one";
    throw InvalidParameter(message);
}

double drawX(Generator g, std::mt19937_64& rng)
{
    switch (g) {
    case Generator::HeavyTail:
        return std::uniform_real_distribution<double>(-4, 4)(rng);
    case Generator::Depeweg: {
        static constexpr double means[3] = {-4, 0, 4}, sds[3] = {0.4, 0.9, 0.4};
        const int c = std::uniform_int_distribution<int>(0, 2)(rng);
        return means[c] + sds[c] * std::normal_distribution<double>()(rng);
    }
    case Generator::Bimodal:
        // Clipped, not truncated: the mass e⁻⁵ beyond 2 piles up at 2, as np.clip would.
        return std::min(std::exponential_distribution<double>(2)(rng) - 0.5, 2.0);
    case Generator::Goldberg:
    case Generator::Yuan:
    case Generator::Williams:
        return std::uniform_real_distribution<double>(0, 1)(rng);
    }
    return 0;
}

DataSplit sampleAt(std::string_view id, const Eigen::VectorXd& x, std::mt19937_64& rng)
{
    const DatasetInfo& info = datasetInfo(id);
    const Eigen::Index n = x.size();
    DataSplit s;
    s.x = x;
    s.f.resize(n);
    s.noiseVariance.resize(n);
    s.y.resize(n);
    if (info.latent)
        s.z.resize(n);
    std::normal_distribution<double> normal;
    for (Eigen::Index i = 0; i < n; ++i) {
        const double z = info.latent ? std::sqrt(info.sigmaZ2) * normal(rng) : 0.0;
        if (info.latent)
            s.z(i) = z;
        s.f(i) = syntheticF(id, x(i), z);
        s.noiseVariance(i) = syntheticNoiseVariance(id, x(i));
        s.y(i) = s.f(i) + std::sqrt(s.noiseVariance(i)) * normal(rng);
    }
    return s;
}

double fOf(Generator g, double x, double z)
{
    switch (g) {
    case Generator::HeavyTail:
        return 6 * std::tanh(0.1 * x * x * x * std::pow(z + 1, 6) - 10 * x * z * z + z);
    case Generator::Depeweg:
        return 7 * std::sin(x) + 3 * std::fabs(std::cos(x / 2)) * z;
    case Generator::Bimodal:
        return z > 0 ? 10 * std::sin(x) : 10 * std::cos(x);
    case Generator::Goldberg:
        return 2 * std::sin(2 * kPi * x);
    case Generator::Yuan:
        return 2 * std::exp(-30 * (x - 0.25) * (x - 0.25) + std::sin(kPi * x * x)) - 2;
    case Generator::Williams:
        return std::sin(2.5 * x) * std::sin(1.5 * x);
    }
    return 0;
}

} // namespace

double syntheticF(std::string_view id, double x, double z)
{
    return fOf(generatorOf(id), x, z);
}

double syntheticNoiseVariance(std::string_view id, double x)
{
    switch (generatorOf(id)) {
    case Generator::HeavyTail:
    case Generator::Depeweg:
    case Generator::Bimodal:
        return datasetInfo(id).sigmaEps2;
    case Generator::Goldberg:
        return x + 0.5;
    case Generator::Yuan:
        return std::exp(std::sin(2 * kPi * x));
    case Generator::Williams: {
        const double a = 1 - std::sin(2.5 * x);
        return 0.01 + 0.25 * a * a;
    }
    }
    return 0;
}

double syntheticLogDensity(std::string_view id, double x, double y)
{
    const Generator g = generatorOf(id);
    const DatasetInfo& info = datasetInfo(id);
    switch (g) {
    case Generator::Goldberg:
    case Generator::Yuan:
    case Generator::Williams:
        return stats::normalLogPdfVar(y, syntheticF(id, x, 0), syntheticNoiseVariance(id, x));
    case Generator::Depeweg: {
        const double c = 3 * std::cos(x / 2);
        return stats::normalLogPdfVar(y, 7 * std::sin(x), c * c * info.sigmaZ2 + info.sigmaEps2);
    }
    case Generator::Bimodal: {
        const double a = stats::normalLogPdfVar(y, 10 * std::sin(x), info.sigmaEps2);
        const double b = stats::normalLogPdfVar(y, 10 * std::cos(x), info.sigmaEps2);
        return stats::logSumExp(std::array{a, b}) - std::numbers::ln2;
    }
    case Generator::HeavyTail: {
        const int steps = 1000;
        const double sz = std::sqrt(info.sigmaZ2), h = 20 * sz / steps;
        std::vector<double> terms(steps + 1);
        for (int i = 0; i <= steps; ++i) {
            const double z = -10 * sz + i * h;
            terms[i] = stats::normalLogPdfVar(z, 0, info.sigmaZ2) +
                       stats::normalLogPdfVar(y, fOf(g, x, z), info.sigmaEps2);
        }
        // The ends carry e^{−50} of the weight: the plain sum is the trapezoid.
        return stats::logSumExp(terms) + std::log(h);
    }
    }
    return 0;
}

double syntheticLogLikelihood(const Dataset& data, const DataSplit& rawSplit)
{
    if (!data.info.synthetic)
        throw InvalidParameter("the true predictive is known only for the synthetic data sets");
    double sum = 0;
    for (Eigen::Index i = 0; i < rawSplit.size(); ++i)
        sum += syntheticLogDensity(data.info.id, rawSplit.x(i, 0), rawSplit.y(i));
    const double mean = sum / double(rawSplit.size());
    return data.info.reportScale == YScale::Raw ? mean : mean + std::log(data.scaling.ySd);
}

DataSplit sampleSynthetic(std::string_view id, int n, std::mt19937_64& rng)
{
    const Generator g = generatorOf(id);
    if (n < 0)
        throw InvalidParameter("a sample size cannot be negative");
    Eigen::VectorXd x(n);
    for (int i = 0; i < n; ++i)
        x(i) = drawX(g, rng);
    return sampleAt(id, x, rng);
}

DataSplit sampleSyntheticAt(std::string_view id, const Eigen::VectorXd& x, std::mt19937_64& rng)
{
    generatorOf(id);
    if (!x.allFinite())
        throw InvalidParameter("the inputs of a synthetic data set must be finite");
    return sampleAt(id, x, rng);
}

} // namespace evx::bnn
