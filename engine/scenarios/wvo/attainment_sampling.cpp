#include "scenarios/wvo/attainment_sampling.h"

#include "core/errors.h"

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <random>

namespace evx::scenarios::attainment_sampling {

void WeightedSchools::finish()
{
    if (sampled.empty())
        set.emplace(schools, weights);
    else
        pupilByPupil.emplace(sampled, schools, weights);
}

double WeightedSchools::operator()(const Eigen::VectorXd& t) const
{
    double s = models::attainmentLogPrior(t);
    if (shared)
        s += shared->logLik(t);
    s += pupilByPupil ? pupilByPupil->logLik(t) : set->logLik(t);
    return std::isfinite(s) ? s : -std::numeric_limits<double>::infinity();
}

std::size_t WeightedSchools::observations() const
{
    std::size_t n = 0;
    for (const auto* s : schools)
        n += s->attain.size();
    return n;
}

Eigen::VectorXd startingPoint(const models::AttainmentData& d)
{
    Eigen::MatrixXd x(d.pupils, 4);
    Eigen::VectorXd y(d.pupils);
    int i = 0;
    for (const auto& s : d.schools)
        for (std::size_t j = 0; j < s.attain.size(); ++j, ++i) {
            x.row(i) << 1, s.verbal[j], s.female[j], s.social[j];
            y(i) = s.attain[j];
        }
    const Eigen::VectorXd b = x.colPivHouseholderQr().solve(y);
    const Eigen::VectorXd residual = y - x * b;
    const double resSd = std::sqrt(residual.squaredNorm() / (d.pupils - 4));
    // s_a from the spread of the schools' mean residuals: with the intercepts sampled, a start far
    // from it (it was 0.3, the posterior's is about 0.17) cost the 26-dimensional run 3000 burn-in
    // steps before its s_a agreed with the integrated model's.
    Eigen::VectorXd schoolMeans(static_cast<Eigen::Index>(d.schools.size()));
    i = 0;
    for (std::size_t s = 0; s < d.schools.size(); ++s) {
        const auto n = static_cast<Eigen::Index>(d.schools[s].attain.size());
        schoolMeans(static_cast<Eigen::Index>(s)) = residual.segment(i, n).mean();
        i += static_cast<int>(n);
    }
    const double spread = schoolMeans.size() > 1
                              ? std::sqrt((schoolMeans.array() - schoolMeans.mean()).square().sum() /
                                          static_cast<double>(schoolMeans.size() - 1))
                              : 0.3;
    Eigen::VectorXd t(models::kAttainmentDim);
    t << b(0), std::log(std::max(spread, 1e-3)), b(1), b(2), b(3), std::log(resSd), 0;
    return t;
}

sampling::EnsembleResult sample(const WeightedSchools& target, const Eigen::VectorXd& start,
                                sampling::EnsembleOptions opt, const RunContext& context,
                                const sampling::EnsembleProgress& onProgress)
{
    Eigen::VectorXd centre(target.dimension());
    centre.head(models::kAttainmentDim) = start;
    for (std::size_t s = 0; s < target.sampled.size(); ++s) {
        const models::Pupils& p = *target.sampled[s];
        double sum = 0;
        for (std::size_t i = 0; i < p.attain.size(); ++i)
            sum += p.attain[i] - start(2) * p.verbal[i] - start(3) * p.female[i] - start(4) * p.social[i];
        centre(models::kAttainmentDim + static_cast<Eigen::Index>(s)) =
            sum / static_cast<double>(p.attain.size());
    }
    opt.walkers = walkersFor(target.dimension());
    std::mt19937_64 rng(opt.seed + 1000);
    std::normal_distribution<double> z;
    Eigen::MatrixXd init(opt.walkers, centre.size());
    for (int w = 0; w < opt.walkers; ++w)
        for (Eigen::Index k = 0; k < centre.size(); ++k)
            init(w, k) = centre(k) + 0.01 * z(rng);
    return sampling::runEnsemble([&](const Eigen::VectorXd& t) { return target(t); }, init, opt, context,
                                 onProgress);
}

double gaussianKl(const Eigen::MatrixXd& p, const Eigen::MatrixXd& q)
{
    const Eigen::VectorXd mp = p.colwise().mean(), mq = q.colwise().mean();
    const Eigen::MatrixXd cp =
        (p.rowwise() - mp.transpose()).transpose() * (p.rowwise() - mp.transpose()) / (p.rows() - 1);
    const Eigen::MatrixXd cq =
        (q.rowwise() - mq.transpose()).transpose() * (q.rowwise() - mq.transpose()) / (q.rows() - 1);
    const Eigen::LLT<Eigen::MatrixXd> lq(cq), lp(cp);
    if (lq.info() != Eigen::Success || lp.info() != Eigen::Success)
        throw NumericalError("attainment: a posterior sample covariance is not positive definite");
    const auto d = static_cast<double>(p.cols());
    const Eigen::VectorXd diff = mq - mp;
    const double logDetQ = 2 * Eigen::MatrixXd(lq.matrixL()).diagonal().array().log().sum();
    const double logDetP = 2 * Eigen::MatrixXd(lp.matrixL()).diagonal().array().log().sum();
    return 0.5 * (lq.solve(cp).trace() + diff.dot(lq.solve(diff)) - d + logDetQ - logDetP);
}

} // namespace evx::scenarios::attainment_sampling
