// bnn-uncertainty: the truth's entropy against closed forms, the decomposition's bookkeeping, and
// the paper's claim (Sec. 7.3) on Depeweg's data with the default settings: NCAI's aleatoric
// curve follows the truth's far better than mean-field VI's (measured: rms 0.61 against 1.25 nats);
// and the same run's partial figures, one at the start of every phase.
#include "compare_near.h"
#include "scenarios/bnn/uncertainty_scenario.h"
#include "scenarios/registry.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>

using namespace evx;

class TestBnnUncertainty : public QObject {
    Q_OBJECT

private slots:
    void truthsEntropyMatchesClosedForms()
    {
        const double e = 2 * std::numbers::pi * std::exp(1.0);
        for (double x : {-4.0, -std::numbers::pi, -1.0, 0.0, 2.5}) {
            // Depeweg: y | x ~ N(7 sin x, 9 cos²(x/2) σ_z² + σ_ε²), σ_z² = 1, σ_ε² = 0.1.
            const double c = 3 * std::cos(x / 2);
            EVX_COMPARE_NEAR(scenarios::trueAleatoricEntropy("depeweg", x), 0.5 * std::log(e * (c * c + 0.1)),
                             1e-8);
        }
        // Bimodal where its two modes (10 sin x, 10 cos x) are 14 noise sds apart: two disjoint
        // halves of N(·, 1), so the entropy is a Gaussian's plus log 2.
        const double x = -0.75; // 10 sin x = −6.8, 10 cos x = 7.3
        EVX_COMPARE_NEAR(scenarios::trueAleatoricEntropy("bimodal", x),
                         0.5 * std::log(e * 1.0) + std::log(2.0), 1e-8);
    }

    void ncaiFollowsTheTruthsNoiseBetterThanMeanFieldVi()
    {
        std::vector<std::string> statuses;
        std::vector<double> fractions;
        bool firstHasTruth = true;
        const std::atomic<bool> cancel{false};
        const RunContext context(&cancel, [&](const Figure& partial, double fraction) {
            if (statuses.empty())
                firstHasTruth = partial.plots[1].series.size() != 0 &&
                                partial.plots[1].series.back().name.rfind("truth", 0) == 0;
            statuses.push_back(partial.warnings.back());
            fractions.push_back(fraction);
        });
        const Figure f = ScenarioRegistry::instance().find("bnn-uncertainty")->run({}, context);
        QVERIFY(!firstHasTruth); // shown before the truth's curve is computed
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        std::size_t next = 0;
        for (const char* phase : {"the true aleatoric entropy", "mean-field VI", "NCAI", "HMC",
                                  "HMC's predictive draws", "HMC's decomposition"}) {
            const std::string expected = std::string("Still computing: ") + phase + ".";
            while (next < statuses.size() && statuses[next] != expected)
                ++next;
            QVERIFY2(next < statuses.size(), phase);
        }
        QVERIFY(f.warnings.empty() || f.warnings.back().rfind("Still computing", 0) != 0);
        QVERIFY(f.plots[1].series.back().name.rfind("truth", 0) == 0);
        const Summary& s = f.summary;
        for (const char* m : {"mfvi", "ncai", "hmc"}) {
            const std::string k = m;
            EVX_COMPARE_NEAR(s.value(k + ".total.mean"),
                             s.value(k + ".aleatoric.mean") + s.value(k + ".epistemic.mean"), 1e-12);
        }
        const double ncai = s.value("ncai.aleatoric.rms_vs_truth"),
                     mfvi = s.value("mfvi.aleatoric.rms_vs_truth");
        QVERIFY2(ncai < 0.75 * mfvi, qPrintable(QString("NCAI %1, MFVI %2 nats").arg(ncai).arg(mfvi)));
        QVERIFY(s.value("hmc.acceptance") > 0.5);
        QCOMPARE(f.plots.size(), std::size_t(4));
    }
};

QTEST_GUILESS_MAIN(TestBnnUncertainty)
#include "test_bnn_uncertainty.moc"
