// Coverage of bq-1d's ±2 sd band on a small fixed set of the calibration study (issue 13): six
// configurations per integrand (24 per cell) at n = 10, 25 and 50, pooled per method and
// strategy (72 runs). It fails if the coverage collapses back towards what the band had before
// the calibration. The full study (100 per cell) is `--table bq-calibration`; its numbers are in
// tests/reference/bq_calibration/README.md.

#include "scenarios/quadrature/bq_calibration.h"
#include "scenarios/registry.h"

#include <QtTest>

using namespace evx;
using namespace evx::scenarios::quadrature;

class TestBqCalibrationCoverage : public QObject {
    Q_OBJECT

private slots:
    void coverageOfTheSmallSet_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("strategy");
        QTest::addColumn<double>("minimum");
        // Measured on this set (72 runs each) before the calibration → after it:
        //   bq/active 76 % → 93 %, bq/mc 93 % → 92 %, log-gp-bq/active 69 % → 94 %,
        //   log-gp-bq/mc 54 % → 79 %.
        // Each bound lies between the two, about two binomial sds (3–5 points at 72 runs)
        // below the calibrated value. bq/mc was already covered on this set; its bound only
        // guards against a collapse.
        QTest::newRow("bq/active") << "bq"
                                   << "active" << 0.85;
        QTest::newRow("bq/mc") << "bq"
                               << "mc" << 0.85;
        QTest::newRow("log-gp-bq/active") << "log-gp-bq"
                                          << "active" << 0.86;
        QTest::newRow("log-gp-bq/mc") << "log-gp-bq"
                                      << "mc" << 0.70;
    }

    void coverageOfTheSmallSet()
    {
        QFETCH(QString, method);
        QFETCH(QString, strategy);
        QFETCH(double, minimum);
        const auto s = ScenarioRegistry::instance().find("bq-1d");
        QVERIFY(s);
        std::vector<CalibrationOutcome> pooled;
        for (const CalibrationCell& cell : calibrationCells()) {
            if (cell.method != method.toStdString() || cell.strategy != strategy.toStdString())
                continue;
            std::vector<CalibrationOutcome> runs;
            for (const ParameterValues& v : calibrationConfigurations(cell, 6))
                runs.push_back(calibrationOutcome(s->run(v, {})));
            const CoverageSummary c = coverage(runs);
            qInfo("%s/%s n = %d: coverage %.0f %% (%d/%d), median |error|/sd %.2f", qPrintable(method),
                  qPrintable(strategy), cell.samples, 100 * c.coverage, c.covered, c.runs,
                  c.medianStandardisedError);
            pooled.insert(pooled.end(), runs.begin(), runs.end());
        }
        const CoverageSummary c = coverage(pooled);
        QCOMPARE(c.runs, 72);
        QVERIFY2(c.coverage >= minimum, qPrintable(QString("coverage %1 (%2/%3) below %4")
                                                       .arg(c.coverage)
                                                       .arg(c.covered)
                                                       .arg(c.runs)
                                                       .arg(minimum)));
    }
};

QTEST_APPLESS_MAIN(TestBqCalibrationCoverage)
#include "test_bq_calibration_coverage.moc"
