// Heavy scenarios publish partial figures (issue: a first figure within 100 ms of a change and a
// new one at least every 250 ms): each listed scenario sends at least one partial figure before
// its final one, and what a partial figure already shows is what the final figure shows.
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
};

QTEST_GUILESS_MAIN(TestPartialFigures)
#include "test_partial_figures.moc"
