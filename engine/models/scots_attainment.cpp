#include "models/scots_attainment.h"

#include "core/errors.h"
#include "core/input_limits.h"
#include "models/csv_table.h"
#include "stats/densities.h"

#include <cmath>
#include <limits>

namespace evx::models {

AttainmentData readAttainment(const std::string& path)
{
    const CsvTable t = readCsv(path, {"verbal", "attain", "sex", "social", "second"});
    // Scores and class codes are small numbers; 1e4 leaves room for any rescaling a user
    // might apply while refusing values that would swamp the standardisation.
    constexpr double kMaxScore = 1e4;
    const std::vector<double> verbal = numericColumn(t, "verbal", path, kMaxScore);
    const std::vector<double> attain = numericColumn(t, "attain", path, kMaxScore);
    const std::vector<double> social = numericColumn(t, "social", path, kMaxScore);
    const std::vector<double> second = numericColumn(t, "second", path, kMaxScore);
    const int sexCol = t.column("sex");
    const std::size_t n = t.rows.size();

    auto standardise = [](const std::vector<double>& x) {
        double m = 0, s = 0;
        for (double v : x)
            m += v / x.size();
        for (double v : x)
            s += (v - m) * (v - m) / (x.size() - 1);
        s = std::sqrt(s);
        std::vector<double> z(x.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            z[i] = s > 0 ? (x[i] - m) / s : 0.0;
        return z;
    };
    const std::vector<double> zv = standardise(verbal), zc = standardise(social);

    AttainmentData d;
    int maxCode = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double code = second[i];
        // Codes run 1..S with every school present, so S cannot exceed the pupils; checking
        // that first keeps the cast below in range and the school table small.
        if (code < 1 || code != std::floor(code) || code > double(n))
            throw InvalidParameter(path + ", data row " + std::to_string(i + 1) +
                                   ": 'second' must be a school code from 1 to the number of pupils (" +
                                   std::to_string(n) + "); it is " +
                                   quoteForMessage(t.rows[i][t.column("second")]));
        maxCode = std::max(maxCode, static_cast<int>(code));
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::string& sex = t.rows[i][sexCol];
        if (sex != "M" && sex != "F")
            throw InvalidParameter(path + ", data row " + std::to_string(i + 1) +
                                   ": sex must be M or F, not " + quoteForMessage(sex));
    }
    if (n < 20)
        throw InvalidParameter(path + " has only " + std::to_string(n) +
                               " pupils; the model needs at least 20");
    if (maxCode < 2)
        throw InvalidParameter(path + " has a single secondary school; the case study needs several");
    d.schools.resize(maxCode);
    for (std::size_t i = 0; i < n; ++i) {
        const std::string& sex = t.rows[i][sexCol];
        if (sex != "M" && sex != "F")
            throw InvalidParameter(path + ", data row " + std::to_string(i + 1) +
                                   ": sex must be M or F, not " + quoteForMessage(sex));
        Pupils& s = d.schools[static_cast<int>(second[i]) - 1];
        s.attain.push_back(attain[i]);
        s.verbal.push_back(zv[i]);
        s.female.push_back(sex == "F" ? 1.0 : 0.0);
        s.social.push_back(zc[i]);
    }
    for (std::size_t s = 0; s < d.schools.size(); ++s)
        if (d.schools[s].attain.empty())
            throw InvalidParameter(path + ": no pupil has secondary school code " + std::to_string(s + 1) +
                                   " (codes must run 1.." + std::to_string(maxCode) + ")");
    d.pupils = static_cast<int>(n);
    return d;
}

double attainmentLogPrior(const Eigen::VectorXd& t)
{
    // α_0 ~ N(5, 5²) (attain is 1–10); log s_a ~ N(−1, 1); β ~ N(0, 2²); γ_0 ~ N(0.5, 1); γ_v ~ N(0, 1).
    auto ln = [](double x, double m, double s) { return -0.5 * (x - m) * (x - m) / (s * s); };
    return ln(t(0), 5, 5) + ln(t(1), -1, 1) + ln(t(2), 0, 2) + ln(t(3), 0, 2) + ln(t(4), 0, 2) +
           ln(t(5), 0.5, 1) + ln(t(6), 0, 1);
}

double attainmentSchoolLogLik(const Pupils& s, const Eigen::VectorXd& t)
{
    double sumLogSd = 0, quad = 0, p = 0, r = 0;
    for (std::size_t i = 0; i < s.attain.size(); ++i) {
        const double logSd = t(5) + t(6) * s.verbal[i];
        const double prec = std::exp(-2 * logSd);
        const double res = s.attain[i] - (t(2) * s.verbal[i] + t(3) * s.female[i] + t(4) * s.social[i]);
        sumLogSd += logSd;
        quad += res * res * prec;
        p += prec;
        r += res * prec;
    }
    return attainmentSchoolMarginal(static_cast<double>(s.attain.size()), sumLogSd, quad, p, r,
                                    s.withinWeight, t(0), std::exp(2 * t(1)));
}

double attainmentSchoolMarginal(double n, double sumLogSd, double quad, double p, double r, double omega,
                                double a0, double sa2)
{
    quad *= omega;
    p *= omega;
    r *= omega;
    const double b = r + a0 / sa2, c = p + 1 / sa2;
    // log, not log1p: sa2·p is O(1) or more, where log(1 + x) is as exact and about twice as fast
    // (an incremental run evaluates this for every virtual school at every step).
    return -omega * (n * stats::kHalfLog2Pi + sumLogSd) - 0.5 * quad - 0.5 * std::log(1 + sa2 * p) +
           0.5 * b * b / c - 0.5 * a0 * a0 / sa2;
}

SharedDesignSchools::SharedDesignSchools(Pupils design, const std::vector<std::vector<double>>& attain,
                                         const std::vector<double>& weights)
    : m_design(std::move(design))
{
    const auto n = static_cast<Eigen::Index>(m_design.verbal.size());
    m_s1 = Eigen::VectorXd::Zero(n);
    m_s2 = Eigen::VectorXd::Zero(n);
    m_m = Eigen::MatrixXd::Zero(n, n);
    for (std::size_t k = 0; k < attain.size(); ++k) {
        if (static_cast<Eigen::Index>(attain[k].size()) != n)
            throw InvalidParameter("a virtual school's attainments do not match its design");
        const Eigen::Map<const Eigen::VectorXd> y(attain[k].data(), n);
        m_s0 += weights[k];
        m_s1 += weights[k] * y;
        m_s2 += weights[k] * y.cwiseAbs2();
        m_m.selfadjointView<Eigen::Lower>().rankUpdate(y, weights[k]);
    }
    m_m = m_m.selfadjointView<Eigen::Lower>();
}

double SharedDesignSchools::logLik(const Eigen::VectorXd& t) const
{
    const auto n = static_cast<Eigen::Index>(m_design.verbal.size());
    const double a0 = t(0), sa2 = std::exp(2 * t(1)), w = m_design.withinWeight;
    Eigen::VectorXd prec(n), mu(n);
    double sumLogSd = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const double logSd = t(5) + t(6) * m_design.verbal[i];
        sumLogSd += logSd;
        prec[i] = std::exp(-2 * logSd);
        mu[i] = t(2) * m_design.verbal[i] + t(3) * m_design.female[i] + t(4) * m_design.social[i];
    }
    const double p = w * prec.sum(), c = p + 1 / sa2;
    const double quad =
        w *
        (prec.array() * (m_s2.array() - 2 * mu.array() * m_s1.array() + mu.array().square() * m_s0)).sum();
    const double d = a0 / sa2 - w * prec.dot(mu);
    const double bb = w * w * prec.dot(m_m * prec) + 2 * w * d * prec.dot(m_s1) + d * d * m_s0;
    const double perSchool = -(w * static_cast<double>(n) * stats::kHalfLog2Pi + w * sumLogSd) -
                             0.5 * std::log1p(sa2 * p) - 0.5 * a0 * a0 / sa2;
    return m_s0 * perSchool - 0.5 * quad + 0.5 * bb / c;
}

namespace {

Eigen::Matrix<double, 5, 5> designMoments(const Pupils& p)
{
    Eigen::Matrix<double, 5, 5> m = Eigen::Matrix<double, 5, 5>::Zero();
    for (std::size_t i = 0; i < p.verbal.size(); ++i) {
        Eigen::Matrix<double, 5, 1> u;
        u << 1, p.verbal[i], p.female[i], p.social[i], p.verbal[i] * p.verbal[i];
        m += u * u.transpose();
    }
    return m / static_cast<double>(p.verbal.size());
}

} // namespace

Pupils momentMatchedDesign(const std::vector<const Pupils*>& pool, int n, int candidates,
                           std::mt19937_64& rng)
{
    if (pool.empty() || n < 1 || candidates < 1)
        throw InvalidParameter("a shared design needs pupils to draw from, n ≥ 1 and a candidate");
    Pupils all;
    for (const Pupils* s : pool) {
        all.verbal.insert(all.verbal.end(), s->verbal.begin(), s->verbal.end());
        all.female.insert(all.female.end(), s->female.begin(), s->female.end());
        all.social.insert(all.social.end(), s->social.begin(), s->social.end());
    }
    const Eigen::Matrix<double, 5, 5> target = designMoments(all);
    Pupils best, design;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (int c = 0; c < candidates; ++c) {
        design.verbal.clear();
        design.female.clear();
        design.social.clear();
        for (int i = 0; i < n; ++i) {
            const Pupils* src = pool[std::uniform_int_distribution<std::size_t>(0, pool.size() - 1)(rng)];
            const std::size_t j = std::uniform_int_distribution<std::size_t>(0, src->verbal.size() - 1)(rng);
            design.verbal.push_back(src->verbal[j]);
            design.female.push_back(src->female[j]);
            design.social.push_back(src->social[j]);
        }
        const double d = (designMoments(design) - target).norm();
        if (d < bestDistance) {
            bestDistance = d;
            best = design;
        }
    }
    return best;
}

} // namespace evx::models
