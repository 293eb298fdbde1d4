// Figures everyone can read (issue 40 §4): in every plot of every scenario's default figure,
// every two colours drawn stay apart for normal vision and for the three dichromacies, and two
// series of different colours also differ in dash or marker.
//
// Threshold: CIEDE2000 ≥ 10 after simulation. ΔE00 ≈ 1 is a just-noticeable difference for
// large patches side by side; series are 2 px lines that a reader matches to a legend across
// the plot, where Stone, Szafir & Setlur (2014, "An engineering model for color difference as
// a function of size") measured the noticeable difference growing several-fold as marks shrink,
// and a washed-out projector compresses what is left. Ten is the least that the reference
// colour-blind-safe palette (Okabe & Ito) clears in every pair (its closest pair, orange and
// reddish purple under tritanopia, is at 10.9), so the check refuses anything less
// distinguishable than that palette's worst pair.

#include "colour_vision.h"
#include "compare_near.h"

#include "plot/palette.h"
#include "plot/plot_view.h"
#include "plot/series_style.h"
#include "scenarios/registry.h"

#include <QDir>
#include <QtTest>

using namespace evx;
using namespace evx::testing;

namespace {

constexpr double kLeastDifference = 10;
constexpr std::array<Vision, 4> kVisions = {Vision::Normal, Vision::Protanopia, Vision::Deuteranopia,
                                            Vision::Tritanopia};

QString describe(const QColor& c)
{
    return c.name(QColor::HexRgb);
}

// The figure a scenario opens with; wvo-attainment's is of the data set beside the tree.
Figure defaultFigure(const std::string& id)
{
    const auto s = ScenarioRegistry::instance().find(id);
    RunInput input;
    input.values = s->schema().defaults();
    if (id == "wvo-attainment")
        input.dataPath = EVX_SOURCE_DIR "/../shared/data/scots_sec.csv";
    return s->runWith(input, {});
}

} // namespace

class TestPaletteVision : public QObject {
    Q_OBJECT
private slots:
    // The metric itself, against Sharma, Wu & Dalal (2005), Table 1 (pairs 1, 7, 17, 25).
    void ciede2000MatchesSharmasTable_data()
    {
        QTest::addColumn<double>("l1");
        QTest::addColumn<double>("a1");
        QTest::addColumn<double>("b1");
        QTest::addColumn<double>("l2");
        QTest::addColumn<double>("a2");
        QTest::addColumn<double>("b2");
        QTest::addColumn<double>("expected");
        QTest::newRow("1") << 50.0 << 2.6772 << -79.7751 << 50.0 << 0.0 << -82.7485 << 2.0425;
        QTest::newRow("7") << 50.0 << 0.0 << 0.0 << 50.0 << -1.0 << 2.0 << 2.3669;
        QTest::newRow("17") << 50.0 << 2.5 << 0.0 << 73.0 << 25.0 << -18.0 << 27.1492;
        QTest::newRow("25") << 60.2574 << -34.0099 << 36.2677 << 60.4626 << -34.1751 << 39.4387 << 1.2644;
    }
    void ciede2000MatchesSharmasTable()
    {
        QFETCH(double, l1);
        QFETCH(double, a1);
        QFETCH(double, b1);
        QFETCH(double, l2);
        QFETCH(double, a2);
        QFETCH(double, b2);
        QFETCH(double, expected);
        EVX_COMPARE_NEAR(ciede2000({l1, a1, b1}, {l2, a2, b2}), expected, 1e-4);
        EVX_COMPARE_NEAR(ciede2000({l2, a2, b2}, {l1, a1, b1}), expected, 1e-4);
    }

    // The simulation: pure red in linear RGB is the matrix's first column (so rows and columns
    // are the right way round and the product is taken in linear light), and greys stay grey
    // (every row of a Machado matrix sums to one).
    void simulationAppliesMachadoInLinearRgb()
    {
        const Rgb red = simulateLinear(linearRgb(QColor(255, 0, 0)), Vision::Protanopia);
        EVX_COMPARE_NEAR(red[0], 0.152286, 1e-9);
        EVX_COMPARE_NEAR(red[1], 0.114503, 1e-9);
        EVX_COMPARE_NEAR(red[2], 0.0, 1e-9); // -0.003882, clamped
        const Rgb tritanRed = simulateLinear(linearRgb(QColor(255, 0, 0)), Vision::Tritanopia);
        EVX_COMPARE_NEAR(tritanRed[2], 0.004733, 1e-9);
        for (Vision v : kVisions) {
            const QColor grey = simulate(QColor(128, 128, 128), v);
            QVERIFY2(std::abs(grey.red() - 128) <= 1 && std::abs(grey.blue() - 128) <= 1,
                     qPrintable(visionName(v) + ": grey became " + describe(grey)));
        }
    }

    void everyPairOfColoursInEveryDefaultFigure_data()
    {
        QTest::addColumn<QString>("scenario");
        for (const auto& s : ScenarioRegistry::instance().all())
            QTest::newRow(s->info().id.c_str()) << QString::fromStdString(s->info().id);
    }
    void everyPairOfColoursInEveryDefaultFigure()
    {
        QFETCH(QString, scenario);
        Figure figure;
        try {
            figure = defaultFigure(scenario.toStdString());
        } catch (const std::exception& e) {
            QSKIP(qPrintable(QStringLiteral("no default figure: ") + e.what()));
        }
        QVERIFY(!figure.plots.empty());
        QStringList failures;
        for (std::size_t i = 0; i < figure.plots.size(); ++i) {
            const Plot& plot = figure.plots[i];
            const PlotLook look = plotLook(plot);
            // Every colour drawn: series and bands (a band is its series' colour, lightened).
            std::vector<std::pair<QColor, QString>> colours;
            auto add = [&](const QColor& c, const std::string& name) {
                for (const auto& [d, n] : colours)
                    if (d == c)
                        return;
                colours.emplace_back(c, QString::fromStdString(name));
            };
            for (std::size_t j = 0; j < plot.series.size(); ++j)
                add(look.series[j].colour, plot.series[j].name);
            for (std::size_t j = 0; j < plot.bands.size(); ++j)
                add(look.bands[j], plot.bands[j].name);
            for (std::size_t a = 0; a < colours.size(); ++a)
                for (std::size_t b = a + 1; b < colours.size(); ++b)
                    for (Vision v : kVisions) {
                        const double d = differenceSeenBy(colours[a].first, colours[b].first, v);
                        if (d < kLeastDifference)
                            failures << QStringLiteral(
                                            "plot %1 \"%2\": %3 (%4) and %5 (%6), %7: ΔE00 %8 < %9")
                                            .arg(i)
                                            .arg(QString::fromStdString(plot.title))
                                            .arg(colours[a].second, describe(colours[a].first))
                                            .arg(colours[b].second, describe(colours[b].first))
                                            .arg(visionName(v))
                                            .arg(d, 0, 'f', 1)
                                            .arg(kLeastDifference);
                    }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void seriesNeverDifferByColourAlone_data() { everyPairOfColoursInEveryDefaultFigure_data(); }
    void seriesNeverDifferByColourAlone()
    {
        QFETCH(QString, scenario);
        Figure figure;
        try {
            figure = defaultFigure(scenario.toStdString());
        } catch (const std::exception& e) {
            QSKIP(qPrintable(QStringLiteral("no default figure: ") + e.what()));
        }
        QStringList failures;
        for (std::size_t i = 0; i < figure.plots.size(); ++i) {
            const Plot& plot = figure.plots[i];
            const PlotLook look = plotLook(plot);
            for (std::size_t a = 0; a < plot.series.size(); ++a)
                for (std::size_t b = a + 1; b < plot.series.size(); ++b) {
                    const SeriesLook& p = look.series[a];
                    const SeriesLook& q = look.series[b];
                    // Bars stand side by side in a group: their place tells them apart.
                    if (plot.series[a].kind == SeriesKind::Bar || plot.series[b].kind == SeriesKind::Bar)
                        continue;
                    // Points against a line differ in kind; otherwise dash or marker must differ.
                    const bool pointsA = plot.series[a].kind == SeriesKind::Scatter;
                    const bool pointsB = plot.series[b].kind == SeriesKind::Scatter;
                    if (p.colour != q.colour && pointsA == pointsB && p.dash == q.dash &&
                        p.marker == q.marker)
                        failures << QStringLiteral("plot %1 \"%2\": \"%3\" and \"%4\" differ by colour alone "
                                                   "(%5, %6; dash %7, marker %8)")
                                        .arg(i)
                                        .arg(QString::fromStdString(plot.title))
                                        .arg(QString::fromStdString(plot.series[a].name))
                                        .arg(QString::fromStdString(plot.series[b].name))
                                        .arg(describe(p.colour), describe(q.colour), dashName(p.dash),
                                             markerName(p.marker));
                }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    // With EVX_VISION_OUT=DIR, writes two figures as each of the four visions sees them, to
    // look at (the brief's "colour-blind simulation of two figures").
    void writeSimulatedFigures()
    {
        const QString dir = qEnvironmentVariable("EVX_VISION_OUT");
        if (dir.isEmpty())
            QSKIP("set EVX_VISION_OUT=DIR to write the simulated figures");
        QDir().mkpath(dir);
        for (const char* id : {"ue-gaussian", "bq-1d"}) {
            PlotView view;
            view.resize(1000, 700);
            view.setFigure(defaultFigure(id));
            const QImage image = view.toImage(1000, 700);
            for (Vision v : kVisions)
                QVERIFY(simulate(image, v).save(QStringLiteral("%1/%2-%3.png").arg(dir, id, visionName(v))));
        }
    }
};

QTEST_MAIN(TestPaletteVision)
#include "test_palette_vision.moc"
