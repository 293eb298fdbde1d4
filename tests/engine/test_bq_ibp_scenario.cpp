// bq-ibp: the defaults run with every summary key finite, exact.log_evidence equals the
// enumeration computed here, the gram kernel with the mixed design lands within ×10^0.3 of the
// exact evidence on a few seeds, and bad input is refused with a message.

#include "bq/structured/ibp_enumeration.h"
#include "bq/structured/ibp_model.h"
#include "compare_near.h"
#include "core/errors.h"
#include "scenarios/quadrature/bq_ibp_scenario.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace evx;
using namespace evx::bq::structured;

namespace {

std::string writeCsv(const QTemporaryDir& dir, const char* name, const Eigen::MatrixXd& x)
{
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream f(path);
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        for (Eigen::Index j = 0; j < x.cols(); ++j)
            f << x(i, j) << (j + 1 < x.cols() ? "," : "\n");
    return path;
}

} // namespace

class TestBqIbpScenario : public QObject {
    Q_OBJECT

private slots:
    void defaultsRunWithTheirKeys()
    {
        const scenarios::BqIbpScenario sc;
        const ParameterValues v = sc.schema().defaults();
        const Figure f = sc.runChecked(RunInput{v, {}, {}}, {});
        for (const char* key : {"exact.log_evidence", "bq.evidence.mean", "bq.evidence.sd", "bq.log_ratio",
                                "surface.argmax.sigma_x", "surface.argmax.sigma_a", "surface.negative_points",
                                "exact.prior_mass_left_out", "mc.log_evidence"}) {
            QVERIFY2(f.summary.contains(key), key);
            QVERIFY2(std::isfinite(f.summary.value(key)), key);
        }
        // The enumeration, independently here: the same data, α, σ's.
        const IbpToyData d = makeIbpToyData(5, 1);
        const IbpEnumeration en(5, 1.0, 1e-6, 50000); // the scenario's cap
        EVX_COMPARE_NEAR(f.summary.value("exact.log_evidence"),
                         IbpExactEvidence(en, d.x).logEvidence(0.5, 1.0), 1e-9);
        QCOMPARE(f.dataMatrices.size(), size_t(2));
        QCOMPARE(f.dataMatrices[0].first, std::string("X"));
        QCOMPARE(f.dataMatrices[0].second.size(), size_t(5));
        QCOMPARE(f.dataMatrices[0].second[0].size(), size_t(36));
        EVX_COMPARE_NEAR(f.dataMatrices[0].second[2][7], d.x(2, 7), 0);
        QCOMPARE(f.dataMatrices[1].first, std::string("Z_true"));
        QCOMPARE(f.dataMatrices[1].second[0].size(), size_t(4));
        qInfo("defaults: log ratio %.4f, sd/mean %.3g", f.summary.value("bq.log_ratio"),
              f.summary.value("bq.evidence.sd") / f.summary.value("bq.evidence.mean"));

        // Moving σ_X re-uses the samples: the surface (σ-free) stays, the exact value moves.
        ParameterValues w = v;
        w["sigma_x"] = 0.6;
        const Figure g = sc.runChecked(RunInput{w, {}, {}}, {});
        QCOMPARE(g.summary.value("surface.argmax.sigma_x"), f.summary.value("surface.argmax.sigma_x"));
        EVX_COMPARE_NEAR(g.summary.value("exact.log_evidence"),
                         IbpExactEvidence(en, d.x).logEvidence(0.6, 1.0), 1e-9);
    }

    void gramMixedNearExact()
    {
        // Target ×10^0.3 per seed (the brief); METHODS §2b reports a median ×1.15 at N = 4–5. Seeds 1–10
        // gave |log10 ratio| ≤ 0.03 with this kernel grid, so 0.3 fails on any real regression.
        const scenarios::BqIbpScenario sc;
        for (int seed : {2, 5, 9}) { // measured: −0.028, 0.000, −0.015 (log10)
            ParameterValues v = sc.schema().defaults();
            v["seed"] = seed;
            const Figure f = sc.runChecked(RunInput{v, {}, {}}, {});
            QVERIFY(f.summary.contains("bq.log_ratio"));
            const double r = f.summary.value("bq.log_ratio");
            qInfo("seed %d: log10(BQ / exact) = %.4f", seed, r / std::log(10.0));
            EVX_COMPARE_NEAR(r / std::log(10.0), 0.0, 0.3);
        }
    }

    void badInputRefused()
    {
        const scenarios::BqIbpScenario sc;
        ParameterValues v = sc.schema().defaults();
        // Past the work budget: refused before any work.
        v["rows"] = 25;
        v["samples"] = 1000;
        v["sweeps"] = 50;
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, sc.runChecked(RunInput{v, {}, {}}, {}));

        QTemporaryDir dir;
        Eigen::MatrixXd x = makeIbpToyData(4, 1).x;
        x.row(2).setZero();
        const RunInput zeroRow{sc.schema().defaults(), {}, writeCsv(dir, "zero.csv", x)};
        try {
            sc.runChecked(zeroRow, {});
            QFAIL("an all-zero image was accepted");
        } catch (const InvalidParameter& e) {
            QVERIFY2(std::string(e.what()).find("row) 3 is all zero") != std::string::npos, e.what());
        }
        const Eigen::MatrixXd same = Eigen::MatrixXd::Constant(4, 36, 0.5);
        const RunInput equal{sc.schema().defaults(), {}, writeCsv(dir, "same.csv", same)};
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, sc.runChecked(equal, {}));
    }

    void pastFiveRowsNoExact()
    {
        const scenarios::BqIbpScenario sc;
        ParameterValues v = sc.schema().defaults();
        v["rows"] = 7;
        v["samples"] = 30;
        const Figure f = sc.runChecked(RunInput{v, {}, {}}, {});
        QVERIFY(!f.summary.contains("exact.log_evidence"));
        QVERIFY(std::any_of(f.warnings.begin(), f.warnings.end(), [](const std::string& w) {
            return w.find("limited to N ≤ 5") != std::string::npos;
        }));
        QCOMPARE(f.dataMatrices[0].second.size(), size_t(7));
    }
};

QTEST_APPLESS_MAIN(TestBqIbpScenario)
#include "test_bq_ibp_scenario.moc"
