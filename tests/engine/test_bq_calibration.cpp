// Calibrated BQ (issue 13): the lengthscale mixture against a refit per lengthscale and the
// Student-t variance against a numerical integral over h; the band warnings; the study's
// configurations and coverage. The coverage of the scenario itself is test_bq_calibration_coverage.

#include "bq/band_diagnostics.h"
#include "bq/lengthscale_mixture_bq.h"
#include "bq/log_gp_mixture.h"
#include "bq_test_support.h"
#include "core/errors.h"
#include "scenarios/quadrature/bq_calibration.h"
#include "scenarios/quadrature/bq_calibration_study.h"

#include <numeric>
#include <set>

Q_DECLARE_METATYPE(std::vector<double>)

using namespace evx;
using namespace evx::bq;
using namespace evx::bq_test;
using namespace evx::scenarios::quadrature;

namespace {

// Relative closeness with the numbers in the message.
#define EVX_CLOSE(a, b, rel)                                                                                 \
    QVERIFY2(std::fabs((a) - (b)) <= (rel)*std::fabs(b),                                                     \
             qPrintable(QString("%1 = %2, %3 = %4, relative tolerance %5")                                   \
                            .arg(#a)                                                                         \
                            .arg(a, 0, 'g', 12)                                                              \
                            .arg(#b)                                                                         \
                            .arg(b, 0, 'g', 12)                                                              \
                            .arg(rel)))

} // namespace

class TestBqCalibration : public QObject {
    Q_OBJECT

private slots:
    void mixtureMatchesRefitsPerLengthscale()
    {
        // 9 quasi-random samples of the peaked integrand under N(0.2, 1). Reference, written
        // independently of IncrementalBq: for each grid lengthscale a GpRegression fitted in one
        // go at h = 1, S = yᵀK₁⁻¹y, log p(y | w) = −½ log|K₁| − n/2 log S (Jeffreys prior on h),
        // E_w and V_w = S/(n−2)·(V₁ − zᵀK₁⁻¹z) from bqEstimate, then the mixture's moments.
        const GaussianMeasure p = GaussianMeasure::oneDimensional(0.2, 1.0);
        const Eigen::MatrixXd x = quasiRandomDesign(p, 9, 5);
        Eigen::VectorXd y(9);
        for (int i = 0; i < 9; ++i)
            y[i] = std::exp(peakedLog(x(i, 0)));
        LengthscaleMixtureBq mix(p, 0.05, 5.0, 11);
        for (int i = 0; i < 9; ++i)
            mix.add(x.row(i).transpose(), y[i]);
        std::vector<double> logW, means, vars;
        for (double w : mix.lengthscales()) {
            gp::GpRegression g(gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, w)));
            g.setData(x, y);
            const double s = y.dot(g.alpha());
            logW.push_back(-0.5 * g.factor().logDeterminant() - 4.5 * std::log(s));
            const ZEstimate e = bqEstimate(g, p);
            means.push_back(e.mean);
            vars.push_back(s / 7 * e.variance);
        }
        const double top = *std::max_element(logW.begin(), logW.end());
        double sum = 0, m1 = 0, m2 = 0;
        for (size_t j = 0; j < logW.size(); ++j) {
            const double wj = std::exp(logW[j] - top);
            sum += wj;
            m1 += wj * means[j];
            m2 += wj * (vars[j] + means[j] * means[j]);
        }
        m1 /= sum;
        m2 /= sum;
        const ZEstimate e = mix.estimate();
        // Same arithmetic by two routes (row appends against one factorisation): 1e-9.
        EVX_CLOSE(e.mean, m1, 1e-9);
        EVX_CLOSE(e.variance, m2 - m1 * m1, 1e-7);
        const std::vector<double> w = mix.weights();
        EVX_CLOSE(std::accumulate(w.begin(), w.end(), 0.0), 1.0, 1e-12);
        // The mixture is wider than its most likely component: the other lengthscales add.
        const size_t best = size_t(std::max_element(w.begin(), w.end()) - w.begin());
        QVERIFY2(e.variance > vars[best], qPrintable(QString("%1 vs %2").arg(e.variance).arg(vars[best])));
    }

    void studentVarianceMatchesIntegralOverH()
    {
        // One lengthscale: V[Z | y] = ∫ h·v₁ p(h | y) dh with p(h | y) ∝ h^{−n/2−1} e^{−S/2h}
        // (prior 1/h), by quadrature over h, against the closed form S/(n−2)·v₁.
        const GaussianMeasure p = GaussianMeasure::oneDimensional(0.0, 1.0);
        const Eigen::MatrixXd x = quasiRandomDesign(p, 6, 2);
        Eigen::VectorXd y(6);
        for (int i = 0; i < 6; ++i)
            y[i] = std::exp(peakedLog(x(i, 0)));
        const double w = 0.4;
        LengthscaleMixtureBq one(p, w, w, 1);
        for (int i = 0; i < 6; ++i)
            one.add(x.row(i).transpose(), y[i]);
        gp::GpRegression g(gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, w)));
        g.setData(x, y);
        const double s = y.dot(g.alpha()), v1 = bqEstimate(g, p).variance;
        const int n = 6;
        // In t = log h (dh = h dt) by adaptive Gauss–Kronrod (bq_test_support.h) over ±40 around
        // the mode, beyond which the integrand is below e⁻¹⁰⁰ of its peak.
        auto logPost = [&](double t) { return -(n / 2.0) * t - s / (2 * std::exp(t)); };
        const double mode = std::log(s / n);
        const double norm =
            integrate([&](double t) { return std::exp(logPost(t) - logPost(mode)); }, mode - 40, mode + 40);
        const double meanH = integrate([&](double t) { return std::exp(t + logPost(t) - logPost(mode)); },
                                       mode - 40, mode + 40) /
                             norm;
        EVX_CLOSE(one.estimate().variance, meanH * v1, 1e-8);
        // ĥ·v₁ (the plug-in) is n/(n − 2) = 1.5 times smaller.
        EVX_CLOSE(one.estimate().variance, 1.5 * s / n * v1, 1e-10);
    }

    void mixtureNeedsThreeSamples()
    {
        LengthscaleMixtureBq mix(GaussianMeasure::oneDimensional(0, 1), 0.1, 1, 3);
        mix.add(Eigen::VectorXd::Constant(1, 0.1), 1.0);
        mix.add(Eigen::VectorXd::Constant(1, 0.5), 0.5);
        QVERIFY_THROWS_EXCEPTION(NumericalError, mix.estimate());
        QVERIFY_THROWS_EXCEPTION(InvalidParameter,
                                 LengthscaleMixtureBq(GaussianMeasure::oneDimensional(0, 1), 1, 0.5, 3));
    }

    void logGpMixtureMatchesItsNodes()
    {
        // The two-mode integrand under N(0.3, 1) at 12 quasi-random points. Reference: the
        // posterior over the same 25 log-spaced lengthscales from one GpRegression fitted per
        // value to the residuals log ℓ − q (h = 1, Jeffreys prior on h), its 1/6 and 5/6
        // quantiles (mass spread over the cell below each value), a LogGpBq per node with
        // h = S/(n − 2), and the mean squared error about the central node's Z.
        const GaussianMeasure p = GaussianMeasure::oneDimensional(0.3, 1.0);
        const int n = 12;
        const Eigen::MatrixXd x = quasiRandomDesign(p, n, 3);
        Eigen::VectorXd logL(n);
        for (int i = 0; i < n; ++i)
            logL[i] = scenarios::quadrature::logIntegrand(scenarios::quadrature::Integrand::TwoMode, x(i, 0));
        LogGpMixtureOptions o;
        o.minLengthscale = 0.1;
        o.maxLengthscale = 20;
        o.centralLengthscale = 0.5;
        const LogGpMixture mix(x, logL, p, o);

        const LogMean q = LogMean::fit(x.col(0), logL);
        Eigen::VectorXd r(n);
        for (int i = 0; i < n; ++i)
            r[i] = logL[i] - q(x(i, 0));
        std::vector<double> logW, mass;
        for (int j = 0; j < o.gridPoints; ++j) {
            logW.push_back(std::log(0.1) + std::log(200.0) * j / (o.gridPoints - 1));
            gp::GpRegression g(gp::Kernel(gp::KernelKind::Gaussian, 1.0,
                                          Eigen::VectorXd::Constant(1, std::exp(logW.back()))));
            g.setData(x, r);
            mass.push_back(-0.5 * g.factor().logDeterminant() - 0.5 * n * std::log(r.dot(g.alpha())));
        }
        const double top = *std::max_element(mass.begin(), mass.end());
        double sum = 0;
        for (double& m : mass)
            sum += m = std::exp(m - top);
        auto quantile = [&](double tau) {
            double below = 0;
            for (size_t j = 0; j < mass.size(); ++j) {
                if (below + mass[j] / sum >= tau)
                    return j == 0 ? logW[0]
                                  : logW[j - 1] + (tau - below) / (mass[j] / sum) * (logW[j] - logW[j - 1]);
                below += mass[j] / sum;
            }
            return logW.back();
        };
        const std::vector<double> nodes = {std::exp(quantile(1.0 / 6)), 0.5, std::exp(quantile(5.0 / 6))};
        QCOMPARE(mix.nodeLengthscales().size(), size_t(3));
        for (int k = 0; k < 3; ++k)
            EVX_CLOSE(mix.nodeLengthscales()[size_t(k)], nodes[size_t(k)], 1e-9);
        std::vector<ZEstimate> e;
        for (double w : nodes) {
            gp::GpRegression g(gp::Kernel(gp::KernelKind::Gaussian, 1.0, Eigen::VectorXd::Constant(1, w)));
            g.setData(x, r);
            const double h = r.dot(g.alpha()) / (n - 2);
            e.push_back(
                LogGpBq(x, logL, p, gp::Kernel(gp::KernelKind::Gaussian, h, Eigen::VectorXd::Constant(1, w)))
                    .estimate());
        }
        double v = 0;
        for (const auto& ek : e)
            v += (ek.variance + std::pow(ek.mean - e[1].mean, 2)) / 3;
        // The same LogGpBq arithmetic on both sides, the grid posterior by two routes (appends
        // against one factorisation): 1e-9 on Z, 1e-7 on V (a sum of three).
        EVX_CLOSE(mix.estimate().mean, e[1].mean, 1e-9);
        EVX_CLOSE(mix.estimate().variance, v, 1e-7);
    }

    void massBeyondSamplesWarning_data()
    {
        QTest::addColumn<std::vector<double>>("x");
        QTest::addColumn<bool>("warned");
        // The peak of ℓ at 0.6 (sd 0.15) under p = N(−1, 0.5²): draws up to 0 see ℓ·p rising to
        // the right; draws across the peak see it inside.
        QTest::newRow("short of the peak") << std::vector<double>{-1.4, -1.0, -0.7, -0.3, 0.0} << true;
        QTest::newRow("across the peak") << std::vector<double>{-1.4, -0.3, 0.4, 0.6, 0.9} << false;
    }

    void massBeyondSamplesWarning()
    {
        QFETCH(std::vector<double>, x);
        QFETCH(bool, warned);
        std::vector<double> logL;
        for (double v : x)
            logL.push_back(peakedLog(v));
        const auto m = bq::massBeyondSamplesWarning(x, logL, GaussianMeasure::oneDimensional(-1, 0.5));
        QCOMPARE(m.has_value(), warned);
    }

    void lengthscaleAndLinearisationWarnings()
    {
        QVERIFY(!lengthscaleBoundWarning(kBoundShareLimit, 0.0, 0.1));
        QVERIFY(lengthscaleBoundWarning(2 * kBoundShareLimit, 0.0, 0.1)->find("lower bound") !=
                std::string::npos);
        QVERIFY(lengthscaleBoundWarning(0.0, 1.0, 20)->find("upper bound") != std::string::npos);
        QVERIFY(!linearisationWarning(kLinearisationRatioLimit * 1e-3, 1e-3));
        QVERIFY(!linearisationWarning(1e-3 / kLinearisationRatioLimit, 1e-3));
        QVERIFY(linearisationWarning(1.01 * kLinearisationRatioLimit * 1e-3, 1e-3));
        QVERIFY(linearisationWarning(0.99e-3 / kLinearisationRatioLimit, 1e-3));
        QVERIFY(!linearisationWarning(0.0, 1e-3)); // exact moments not resolved
    }

    void configurationsSpanTheGrid()
    {
        const auto s = ScenarioRegistry::instance().find("bq-1d");
        QVERIFY(s);
        const auto cells = calibrationCells();
        QCOMPARE(cells.size(), size_t(12));
        for (const auto& cell : cells) {
            const auto cfg = calibrationConfigurations(cell, 25);
            QCOMPARE(cfg.size(), size_t(100));
            std::set<double> seeds, means, sds;
            for (const auto& v : cfg) {
                s->schema().complete(v); // every value within bq-1d's ranges (throws otherwise)
                seeds.insert(v.at("seed"));
                means.insert(v.at("prior_mean"));
                sds.insert(v.at("prior_sd"));
                QCOMPARE(v.at("n_samples"), double(cell.samples));
            }
            QCOMPARE(seeds.size(), size_t(100));
            // 5 prior means per integrand, of which the first two integrands share theirs and the
            // wide bump shares three; 5 sds each, partly shared.
            QVERIFY2(means.size() >= 12 && sds.size() >= 10,
                     qPrintable(QString("%1 means, %2 sds").arg(means.size()).arg(sds.size())));
        }
        // A subset spreads over the prior grid too: 3 per integrand, 3 different sds each.
        const auto few = calibrationConfigurations(cells.front(), 3);
        QCOMPARE(few.size(), size_t(12));
        QVERIFY(few[0].at("prior_sd") != few[1].at("prior_sd") &&
                few[1].at("prior_sd") != few[2].at("prior_sd"));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, calibrationConfigurations(cells.front(), 26));
        // The study's runs beyond the first 100 repeat the configurations with new seeds: all
        // 400 valid, 400 different seeds, the same priors as their first round.
        const Study study = evx::scenarios::bqCalibrationStudy();
        QCOMPARE(study.maxReplicates, 400);
        std::set<double> studySeeds;
        for (int r = 0; r < study.maxReplicates; ++r) {
            ParameterValues v = study.replicateValues(r, 0);
            const ParameterValues first = study.replicateValues(r % 100, 0);
            QCOMPARE(v.at("prior_mean"), first.at("prior_mean"));
            QCOMPARE(v.at("prior_sd"), first.at("prior_sd"));
            QCOMPARE(v.at("integrand"), first.at("integrand"));
            studySeeds.insert(v.at("seed"));
            for (const auto& [key, value] : study.cells.front().values)
                v[key] = value;
            s->schema().complete(v);
        }
        QCOMPARE(studySeeds.size(), size_t(400));
    }

    void coverageCountsTwoSd()
    {
        // |error|/sd = 2 exactly (covered), 3, 1, and 0 with sd 0 (an exact estimate, covered).
        std::vector<CalibrationOutcome> runs(4);
        runs[0] = {1.0, 1.5, 0.25};
        runs[1] = {1.0, 1.3, 0.1};
        runs[2] = {1.0, 0.99, 0.01};
        runs[3] = {1.0, 1.0, 0.0};
        const CoverageSummary c = coverage(runs);
        QCOMPARE(c.runs, 4);
        QCOMPARE(c.covered, 3);
        QCOMPARE(c.coverage, 0.75);
        EVX_CLOSE(c.medianStandardisedError, 1.5, 1e-12);
        EVX_CLOSE(c.maxStandardisedError, 3.0, 1e-12);
        const CalibrationOutcome missedWithSdZero{1.0, 1.1, 0.0};
        QVERIFY(std::isinf(missedWithSdZero.standardisedError()));
    }
};

QTEST_APPLESS_MAIN(TestBqCalibration)
#include "test_bq_calibration.moc"
