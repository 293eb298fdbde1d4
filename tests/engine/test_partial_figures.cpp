// Heavy scenarios publish partial figures (issue: a first figure within 100 ms of a change and a
// new one at least every 250 ms): each listed scenario sends at least one partial figure before
// its final one, and what a partial figure already shows is what the final figure shows.
// (wvo-attainment's are tested in test_wvo_attainment.)
#include "scenarios/registry.h"

#include <QtTest>

#include <atomic>

using namespace evx;

namespace {

struct Published {
    std::vector<Figure> partial;
    Figure final;
};

Published runCollecting(const char* id, const ParameterValues& values)
{
    Published out;
    const std::atomic<bool> cancel{false};
    const RunContext context(&cancel, [&](const Figure& f, double) { out.partial.push_back(f); });
    out.final = ScenarioRegistry::instance().find(id)->run(values, context);
    return out;
}

const Series* findSeries(const Plot& p, const std::string& name)
{
    for (const Series& s : p.series)
        if (s.name == name)
            return &s;
    return nullptr;
}

} // namespace

class TestPartialFigures : public QObject {
    Q_OBJECT

private slots:
    void paceIsDueFirstAndThenAfterItsInterval()
    {
        // The scenarios' throttle: the first ask is due, then none until the interval has
        // passed since the last begin() (an hour never passes here; zero always has).
        PublishPace hourly(3600);
        QVERIFY(hourly.due());
        QVERIFY(hourly.due()); // asking alone starts nothing
        hourly.begin();
        QVERIFY(!hourly.due());
        PublishPace always(0);
        always.begin();
        QVERIFY(always.due());
    }

    void normalHyperShowsTheOriginalPosteriorFirst()
    {
        const Published p = runCollecting("wvo-normal-hyper", {});
        QVERIFY(!p.partial.empty());
        const Figure& first = p.partial.front();
        QCOMPARE(first.plots.size(), std::size_t(3)); // joint, m and σ marginals; weights come later
        QCOMPARE(first.plots.at(0).heatMaps.at(0).values, p.final.plots.at(0).heatMaps.at(0).values);
        for (int k : {1, 2}) {
            const Series& partialCurve = first.plots.at(k).series.at(0);
            const Series* finalCurve = findSeries(p.final.plots.at(k), partialCurve.name);
            QVERIFY2(finalCurve, partialCurve.name.c_str());
            QCOMPARE(partialCurve.y, finalCurve->y);
        }
        QCOMPARE(first.summary.value("original.sigma.mean"), p.final.summary.value("original.sigma.mean"));
    }

    void ratsFillsInItsLeaveOneOutAndSubsamplingPlots()
    {
        const Published p = runCollecting("wvo-rats", {});
        QVERIFY(p.partial.size() >= 10);
        const Figure& first = p.partial.front();
        QCOMPARE(first.plots.size(), std::size_t(1)); // the original posterior alone
        QCOMPARE(first.plots.at(0).heatMaps.at(0).values, p.final.plots.at(0).heatMaps.at(0).values);
        // Some partial figure shows the leave-one-out ellipses of fewer labs than the final one.
        auto ellipsePoints = [](const Figure& f) -> std::size_t {
            for (const Plot& plot : f.plots)
                if (plot.title.rfind("Leave one lab out", 0) == 0)
                    return plot.series.at(1).x.size();
            return 0;
        };
        const std::size_t all = ellipsePoints(p.final);
        QVERIFY(all > 0);
        bool growing = false;
        for (const Figure& f : p.partial)
            growing = growing || (ellipsePoints(f) > 0 && ellipsePoints(f) < all);
        QVERIFY(growing);
        // The last partial figure carries a subsampling curve short of the final one.
        const Plot& lastSub = p.partial.back().plots.back();
        QVERIFY(lastSub.title.rfind("Subsampling", 0) == 0);
        QVERIFY(lastSub.series.at(0).x.size() < p.final.plots.back().series.at(0).x.size());
    }
};

QTEST_GUILESS_MAIN(TestPartialFigures)
#include "test_partial_figures.moc"
