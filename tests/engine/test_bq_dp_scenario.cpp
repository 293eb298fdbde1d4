// bq-dp-mixture: the summary contract, its exact evidence against the engine's, the MMD kernel
// against the exact evidence over a few seeds, the paper's kernel's blindness to α, caching that
// leaves run() pure, and refusals of bad input.

#include "bq/structured/dp_exact.h"
#include "bq/structured/dp_gibbs.h"
#include "bq/structured/mixture_kernels.h"
#include "compare_near.h"
#include "core/errors.h"
#include "scenarios/quadrature/bq_dp_mixture_scenario.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace evx;
using namespace evx::bq::structured;
using scenarios::BqDpMixtureScenario;

namespace {

Figure runWith(const BqDpMixtureScenario& s, ParameterValues v, const std::string& path = {})
{
    return s.runChecked(RunInput{v, {}, path}, RunContext());
}

template <class F> void expectRefused(F&& f, const char* needle)
{
    try {
        f();
        QFAIL("accepted");
    } catch (const InvalidParameter& e) {
        QVERIFY2(std::string(e.what()).find(needle) != std::string::npos, e.what());
    }
}

} // namespace

class TestBqDpScenario : public QObject {
    Q_OBJECT

private slots:
    void defaultsRunWithTheSummaryContract()
    {
        const BqDpMixtureScenario s;
        QElapsedTimer timer;
        timer.start();
        const Figure f = runWith(s, {});
        qInfo("defaults: first run %lld ms", timer.elapsed());
        for (const char* key : {"exact.log_evidence", "bq.evidence.mean", "bq.evidence.sd", "bq.log_ratio",
                                "mc.log_evidence", "samples", "bq.log_evidence"})
            QVERIFY2(f.summary.contains(key), key);
        for (const auto& [key, value] : f.summary.entries())
            QVERIFY2(std::isfinite(value), key.c_str());
        QCOMPARE(int(f.plots.size()), 4);
        QCOMPARE(f.data.size(), std::size_t(1));
        QCOMPARE(f.data[0].first, std::string("x"));
        QCOMPARE(f.data[0].second, simulateDpData(10, 1));
        QCOMPARE(f.summary.value("samples"), 100.0);
        qInfo("exact %.4f bq %.4f (sd/mean %.3f) mc %.4f lower bound %.4f",
              f.summary.value("exact.log_evidence"), f.summary.value("bq.log_evidence"),
              f.summary.value("bq.evidence.sd") / f.summary.value("bq.evidence.mean"),
              f.summary.value("mc.log_evidence"), f.summary.value("lower_bound.log_evidence"));
    }

    void exactEvidenceIsTheEngines()
    {
        const BqDpMixtureScenario s;
        ParameterValues v{{"base_mean", 1.5}, {"components", 1}, {"dof", 3},
                          {"alpha", 2},       {"n", 8},          {"seed", 4}};
        const Figure f = runWith(s, v);
        DpSettings q;
        q.baseMean = 1.5;
        q.components = DpComponents::StudentT;
        q.dof = 3;
        q.alpha = 2;
        // The same function, so equal to rounding; the enumeration is the independent one.
        EVX_COMPARE_NEAR(f.summary.value("exact.log_evidence"),
                         dpEnumeratedLogEvidence(simulateDpData(8, 4), q), 1e-9);
    }

    void mmdWithinFactorTwoAtDefaults()
    {
        // Issue 39 asks, over 50 seeds at these settings, a median factor error ≤ 1.5 and ≥ 75 % within
        // ×2. Five seeds (measured: ×1.05, ×1.00, ×1.69, ×4.02, ×1.03; seed 4's Monte Carlo is off
        // ×1.7 too): at least 4 of 5 within ×2 and the median ≤ 1.5.
        const BqDpMixtureScenario s;
        int within = 0;
        std::vector<double> factors;
        for (int seed = 1; seed <= 5; ++seed) {
            const Figure f = runWith(s, {{"seed", seed}});
            const double r = f.summary.contains("bq.log_ratio") ? f.summary.value("bq.log_ratio") : INFINITY;
            const double z = f.summary.contains("bq.z_error") ? f.summary.value("bq.z_error") : NAN;
            qInfo("seed %d: log(BQ/exact) = %+.3f (×%.2f), (BQ − exact)/sd = %+.2f, log(MC/exact) = %+.3f",
                  seed, r, std::exp(std::fabs(r)), z,
                  f.summary.value("mc.log_evidence") - f.summary.value("exact.log_evidence"));
            within += std::fabs(r) <= std::log(2.0);
            factors.push_back(std::exp(std::fabs(r)));
        }
        std::sort(factors.begin(), factors.end());
        QVERIFY2(within >= 4, qPrintable(QString("%1 of 5 within ×2").arg(within)));
        QVERIFY2(factors[2] <= 1.5, qPrintable(QString("median factor %1").arg(factors[2])));
    }

    void paperKernelIsBlindToAlpha()
    {
        // The paper's kernel has closed-form z, V that do not involve α, and p(x | G) does not
        // either: one sample set gives one estimate for every α, while the exact evidence moves.
        const std::vector<double> x = simulateDpData(10, 2);
        DpSettings s;
        DpDesignSampler sampler(x, s, DpDesign::Posterior, 5);
        std::vector<MixingMeasure> g;
        for (int i = 0; i < 60; ++i)
            g.push_back(sampler.next().measure);
        std::vector<GramSet> grid;
        for (double w : defaultPaperWidths())
            grid.push_back(paperMixtureGram(g, w));
        const StructuredBq bq(grid, Transform::None);
        double estimate[2], exact[2];
        const double alphas[2] = {0.2, 5};
        for (int a = 0; a < 2; ++a) {
            DpSettings q = s;
            q.alpha = alphas[a];
            const std::vector<double> logF = dpLogLikelihoods(x, g, q);
            estimate[a] =
                bq.estimate(Eigen::Map<const Eigen::VectorXd>(logF.data(), Eigen::Index(logF.size()))).mean;
            exact[a] = dpExactLogEvidence(x, q);
        }
        qInfo("paper kernel: estimate %.6g vs %.6g; exact log Z %.3f vs %.3f", estimate[0], estimate[1],
              exact[0], exact[1]);
        QCOMPARE(estimate[0], estimate[1]);
        QVERIFY2(std::fabs(exact[0] - exact[1]) > 0.5, "the exact evidence should move with α");

        // Through the scenario, the preset that shows it: off by more than ×2 or not positive.
        const BqDpMixtureScenario scenario;
        const Figure f = runWith(scenario, scenario.presetValues("paper-kernel-fails"));
        const bool failed =
            !f.summary.contains("bq.log_ratio") || std::fabs(f.summary.value("bq.log_ratio")) > std::log(2.0);
        qInfo("paper-kernel-fails: mean %.4g, exact %.4g", f.summary.value("bq.evidence.mean"),
              std::exp(f.summary.value("exact.log_evidence")));
        QVERIFY(failed);
        QVERIFY(!f.warnings.empty());
        const Figure works = runWith(scenario, scenario.presetValues("mmd-kernel-works"));
        qInfo("mmd-kernel-works: log ratio %+.3f", works.summary.value("bq.log_ratio"));
        QVERIFY(std::fabs(works.summary.value("bq.log_ratio")) < std::log(2.0));
    }

    void queryMovesOnlyReevaluate()
    {
        // A second λ reuses the samples, and the figure does not depend on what is cached. (How
        // fast a move is, is measured by --bench-sweep and bench_bq_structured, not asserted here.)
        BqDpMixtureScenario warm;
        runWith(warm, {{"alpha", 2.0}}); // another sample set in the cache first
        runWith(warm, {{"base_mean", 0.0}});
        const Figure moved = runWith(warm, {{"base_mean", 1.0}});
        const BqDpMixtureScenario cold;
        const Figure fresh = runWith(cold, {{"base_mean", 1.0}});
        QCOMPARE(moved.summary.entries().size(), fresh.summary.entries().size());
        for (std::size_t i = 0; i < fresh.summary.entries().size(); ++i)
            QCOMPARE(moved.summary.entries()[i].second, fresh.summary.entries()[i].second);
        // Far from the sampling λ a warning says so.
        const Figure far = runWith(warm, {{"base_mean", 3.0}});
        QVERIFY(std::any_of(far.warnings.begin(), far.warnings.end(),
                            [](const std::string& w) { return w.find("sampling λ") != std::string::npos; }));
    }

    void badInputRefused()
    {
        const BqDpMixtureScenario s;
        expectRefused([&] { runWith(s, {{"n", 15}}); }, "n");
        expectRefused([&] { runWith(s, {{"samples", 1000}}); }, "number of evaluations S");
        QTemporaryDir dir;
        const std::string equal = dir.filePath("equal.csv").toStdString();
        std::ofstream(equal) << "x\n1.5\n1.5\n1.5\n1.5\n1.5\n";
        expectRefused([&] { runWith(s, {}, equal); }, "equal");
        const std::string few = dir.filePath("few.csv").toStdString();
        std::ofstream(few) << "x\n1\n2\n3\n";
        expectRefused([&] { runWith(s, {}, few); }, "4 to 14");
        const std::string good = dir.filePath("good.csv").toStdString();
        std::ofstream(good) << "x\n-2\n-1.5\n0.3\n4\n4.2\n";
        const Figure f = runWith(s, {{"samples", 30}}, good);
        QCOMPARE(f.data[0].second, (std::vector<double>{-2, -1.5, 0.3, 4, 4.2}));
    }
};

QTEST_APPLESS_MAIN(TestBqDpScenario)
#include "test_bq_dp_scenario.moc"
