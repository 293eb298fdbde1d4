// How much of a tabulated density lies beyond its grid (massBeyondGrid), against closed forms,
// and the warning the grid-based readings of uncertain evidence give when a grid cuts one.
#include "compare_near.h"
#include "core/grid.h"
#include "scenarios/registry.h"

#include <QtTest>
#include <boost/math/distributions/normal.hpp>

#include <cmath>

using namespace evx;

namespace {

GridDensity tabulate(double lo, double hi, int n, const std::function<double(double)>& logPdf)
{
    const UniformGrid grid(lo, hi, n);
    std::vector<double> logValues;
    for (double x : grid.points())
        logValues.push_back(logPdf(x));
    return normalisedDensity(grid, logValues, "test density");
}

bool warnsOfGrid(const Figure& f)
{
    for (const std::string& w : f.warnings)
        if (w.find("its grid") != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestGridCoverage : public QObject {
    Q_OBJECT

private slots:
    void exponentialTailsAreExact()
    {
        // A Laplace density cut at ±8 scales: the mass beyond is e^−8 (normalised to the grid's
        // own mass, 1 − e^−8, which the estimate sees).
        const GridDensity d = tabulate(-8, 8, 4001, [](double x) { return -std::abs(x); });
        const double outside = std::exp(-8.0) / (1 - std::exp(-8.0));
        EVX_COMPARE_NEAR(massBeyondGrid(d), outside, 0.01 * outside);
    }

    void gaussianTailsAreOverestimatedByLittle_data()
    {
        QTest::addColumn<double>("edge"); // in sds
        QTest::newRow("3 sd") << 3.0;
        QTest::newRow("5 sd") << 5.0;
        QTest::newRow("6 sd") << 6.0;
    }
    void gaussianTailsAreOverestimatedByLittle()
    {
        QFETCH(double, edge);
        const GridDensity d = tabulate(-edge, edge, 2001, [](double x) { return -0.5 * x * x; });
        const double outside = 2 * boost::math::cdf(boost::math::complement(boost::math::normal(), edge));
        // Continuing the log-density linearly overestimates a Gaussian tail by about 1 + 1/edge².
        const double estimate = massBeyondGrid(d);
        QVERIFY2(estimate >= outside && estimate <= outside * (1 + 1.5 / (edge * edge)),
                 qPrintable(QString("estimate %1, exact %2").arg(estimate).arg(outside)));
    }

    void aRisingEndCountsAsCut()
    {
        const GridDensity d = tabulate(0, 1, 101, [](double x) { return 3 * x; });
        QVERIFY2(massBeyondGrid(d) > 0.5, qPrintable(QString::number(massBeyondGrid(d))));
    }

    void dropBallWarnsOnlyWhenTheGridCutsAPosterior()
    {
        const auto s = ScenarioRegistry::instance().find("ue-drop-ball");
        QVERIFY(!warnsOfGrid(s->run({}, {})));
        QVERIFY(!warnsOfGrid(s->run(s->presetValues("fig4"), {})));
        // A prior 0.05 wide at 30 m/s² against a reading that points to 5 m/s²: every posterior
        // piles up at the prior grid's lower edge, 10 prior sds out.
        const Figure conflict = s->run({{"height", 10},
                                        {"t_obs", 2},
                                        {"sigma_model", 0.001},
                                        {"sigma_obs", 0.054},
                                        {"g_prior_mean", 30},
                                        {"g_prior_sd", 0.05}},
                                       {});
        QVERIFY(warnsOfGrid(conflict));
    }
};

QTEST_GUILESS_MAIN(TestGridCoverage)
#include "test_grid_coverage.moc"
