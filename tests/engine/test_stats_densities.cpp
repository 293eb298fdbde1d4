// The shared densities of engine/stats/densities.*: each against Boost.Math's distributions and
// special functions, quadrature, or a closed form.
#include "compare_near.h"
#include "stats/densities.h"

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/binomial.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include <QtTest>

#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

using namespace evx::stats;

namespace {

// Both sides round a sum of terms of size up to |value| a few times: a few ulps of that size.
double logTolerance(double value)
{
    return 1e-14 * std::max(1.0, std::abs(value));
}

} // namespace

class TestStatsDensities : public QObject {
    Q_OBJECT

private slots:
    void halfLogTwoPi()
    {
        // The constant must be the value every former copy computed inline, and ½ ln 2π to an ulp.
        const volatile double twoPi = 2 * std::numbers::pi;
        EVX_COMPARE_NEAR(kHalfLog2Pi, 0.5 * std::log(double(twoPi)), 0.0);
        EVX_COMPARE_NEAR(kHalfLog2Pi, 0.918938533204672741780329736406L, 2.3e-16);
        EVX_COMPARE_NEAR(kSqrt2Pi, std::sqrt(double(twoPi)), 0.0);
        EVX_COMPARE_NEAR(kSqrt2Pi, 2.50662827463100050241576528481L, 4.5e-16);
    }

    void normal_data()
    {
        QTest::addColumn<double>("y");
        QTest::addColumn<double>("mean");
        QTest::addColumn<double>("sd");
        QTest::newRow("standard at 0") << 0.0 << 0.0 << 1.0;
        QTest::newRow("one sd") << 1.0 << 0.0 << 1.0;
        QTest::newRow("narrow, off centre") << 3.2 << 3.1 << 0.01;
        QTest::newRow("wide") << -250.0 << 40.0 << 300.0;
        QTest::newRow("30 sd tail") << 31.0 << 1.0 << 1.0;
        QTest::newRow("tiny sd") << 1e-9 << 0.0 << 1e-8;
    }
    void normal()
    {
        QFETCH(double, y);
        QFETCH(double, mean);
        QFETCH(double, sd);
        const boost::math::normal_distribution<double> n(mean, sd);
        const double expected = std::log(boost::math::pdf(n, y));
        EVX_COMPARE_NEAR(normalLogPdf(y, mean, sd), expected, logTolerance(expected));
        EVX_COMPARE_NEAR(normalLogPdfVar(y, mean, sd * sd), expected, logTolerance(expected));
        // exp of a log-density: relative error about |ln p| ulps.
        EVX_COMPARE_NEAR(normalPdf(y, mean, sd), boost::math::pdf(n, y),
                         logTolerance(expected) * boost::math::pdf(n, y));
        EVX_COMPARE_NEAR(normalPdfVar(y, mean, sd * sd), boost::math::pdf(n, y),
                         logTolerance(expected) * boost::math::pdf(n, y));
    }

    void logBetaFunction_data()
    {
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        QTest::newRow("uniform") << 1.0 << 1.0;
        QTest::newRow("small") << 0.05 << 0.3;
        QTest::newRow("skewed") << 2.5 << 40.0;
        QTest::newRow("large") << 150.0 << 90.0;
    }
    void logBetaFunction()
    {
        QFETCH(double, a);
        QFETCH(double, b);
        const double expected = std::log(boost::math::beta(a, b));
        // ln Γ(240) is about 1e3: the difference of the ln Γ terms loses a few ulps of that.
        EVX_COMPARE_NEAR(logBeta(a, b), expected, 1e-14 * (std::abs(std::lgamma(a + b)) + 1));
    }

    void logBetaBeyondTheRangeOfBeta()
    {
        // B(1500, 900) underflows a double; Boost's own ln Γ (a separate implementation from the C
        // library's std::lgamma) gives the reference.
        const double a = 1500, b = 900;
        using boost::math::lgamma;
        const double expected = lgamma(a) + lgamma(b) - lgamma(a + b);
        EVX_COMPARE_NEAR(logBeta(a, b), expected, 1e-14 * lgamma(a + b));
    }

    void betaBinomial()
    {
        // P(y) = C(n, y) B(α + y, β + n − y) / B(α, β), from Boost's binomial coefficient and beta;
        // the probabilities sum to one.
        const int n = 20;
        const double alpha = 1.7, beta = 9.3;
        double total = 0;
        for (int y = 0; y <= n; ++y) {
            const double expected = boost::math::binomial_coefficient<double>(unsigned(n), unsigned(y)) *
                                    boost::math::beta(alpha + y, beta + n - y) /
                                    boost::math::beta(alpha, beta);
            const double p = std::exp(betaBinomialLogPmf(y, n, alpha, beta));
            EVX_COMPARE_NEAR(p, expected, 1e-13 * expected);
            total += p;
        }
        EVX_COMPARE_NEAR(total, 1.0, 1e-14);
        // One trial is a Bernoulli with mean α/(α + β).
        EVX_COMPARE_NEAR(std::exp(betaBinomialLogPmf(1, 1, alpha, beta)), alpha / (alpha + beta), 1e-15);
    }

    void klBetas_data()
    {
        QTest::addColumn<double>("a1");
        QTest::addColumn<double>("b1");
        QTest::addColumn<double>("a2");
        QTest::addColumn<double>("b2");
        QTest::newRow("close") << 2.0 << 3.0 << 2.5 << 3.5;
        QTest::newRow("far") << 30.0 << 5.0 << 3.0 << 12.0;
        QTest::newRow("from uniform") << 1.0 << 1.0 << 4.0 << 4.0;
        QTest::newRow("posterior against prior") << 12.0 << 40.0 << 1.0 << 1.0;
    }
    void klBetas()
    {
        QFETCH(double, a1);
        QFETCH(double, b1);
        QFETCH(double, a2);
        QFETCH(double, b2);
        // ∫ p ln(p/q) by tanh-sinh quadrature, p from Boost's Beta density and ln(p/q) from
        // Boost's beta function; tanh-sinh copes with the logarithmic singularities of ln(p/q) at
        // the ends, and reaches about 1e-12 here.
        const boost::math::beta_distribution<double> p(a1, b1);
        const double logRatioOfNormalisers = std::log(boost::math::beta(a2, b2) / boost::math::beta(a1, b1));
        auto integrand = [&](double x) {
            if (!(x > 0 && x < 1))
                return 0.0;
            return boost::math::pdf(p, x) *
                   ((a1 - a2) * std::log(x) + (b1 - b2) * std::log1p(-x) + logRatioOfNormalisers);
        };
        boost::math::quadrature::tanh_sinh<double> quadrature;
        const double expected = quadrature.integrate(integrand, 0.0, 1.0, 1e-13);
        EVX_COMPARE_NEAR(klBeta(a1, b1, a2, b2), expected, 1e-10);
    }

    void klOfNearlyEqualBetasIsNotNegative()
    {
        EVX_COMPARE_NEAR(klBeta(3.7, 0.4, 3.7, 0.4), 0.0, 0.0);
        // Here the closed form rounds to about −3e-15; a KL is never negative.
        const double a = 0.3, b = 8.7587117694897429;
        EVX_COMPARE_NEAR(klBeta(a, b, a * (1 + 1e-9), b), 0.0, 0.0);
    }

    void logSumExpValues()
    {
        const std::vector<double> v = {-1.5, 0.25, 2.0, -30.0};
        double direct = 0;
        for (double x : v)
            direct += std::exp(x);
        EVX_COMPARE_NEAR(logSumExp(v), std::log(direct), 1e-15);
        Eigen::ArrayXd a(4);
        a << -1.5, 0.25, 2.0, -30.0;
        EVX_COMPARE_NEAR(logSumExp(a), std::log(direct), 1e-15);
        // Far beyond exp's range: ln(2 e^{1000}) = 1000 + ln 2.
        const std::vector<double> big = {1000.0, 1000.0};
        EVX_COMPARE_NEAR(logSumExp(big), 1000 + std::log(2.0), 1e-12);
        const std::vector<double> small = {-1000.0, -1000.0 + std::log(3.0)};
        EVX_COMPARE_NEAR(logSumExp(small), -1000 + std::log(4.0), 1e-12);
    }

    void logSumExpOfNothing()
    {
        const double inf = std::numeric_limits<double>::infinity();
        QCOMPARE(logSumExp(std::vector<double>{}), -inf);
        QCOMPARE(logSumExp(std::vector<double>{-inf, -inf}), -inf);
        QCOMPARE(logSumExp(std::vector<double>{-inf, 1.0}), 1.0);
    }
};

QTEST_APPLESS_MAIN(TestStatsDensities)
#include "test_stats_densities.moc"
