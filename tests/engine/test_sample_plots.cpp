// Highest-density regions traced from samples (scenarios/uncertain_evidence/sample_plots):
// their boundaries against a closed form, and the rule that a region broken into noise is
// not drawn.
#include "scenarios/uncertain_evidence/sample_plots.h"
#include <Eigen/Dense>
#include <QtTest>
#include <cmath>
#include <random>

using namespace evx;
using namespace evx::scenarios;

namespace {

// Draws from an equal mixture of unit-sd normals centred at `centres` (x, y pairs).
void mixtureDraws(const std::vector<std::pair<double, double>>& centres, int n, Eigen::VectorXd& x,
                  Eigen::VectorXd& y)
{
    std::mt19937_64 rng(17);
    std::normal_distribution<double> z;
    x.resize(n);
    y.resize(n);
    for (int i = 0; i < n; ++i) {
        const auto& [cx, cy] = centres[std::size_t(i) % centres.size()];
        x[i] = cx + z(rng);
        y[i] = cy + z(rng);
    }
}

// Distance of each finite boundary point from (cx, cy).
std::vector<double> radii(const Series& s, double cx, double cy)
{
    std::vector<double> r;
    for (std::size_t i = 0; i < s.x.size(); ++i)
        if (std::isfinite(s.x[i]))
            r.push_back(std::hypot(s.x[i] - cx, s.y[i] - cy));
    return r;
}

} // namespace

class TestSamplePlots : public QObject {
    Q_OBJECT

private slots:
    // For a bivariate normal of sd s the region holding mass m is the disc of radius
    // s·√(−2 ln(1 − m)). The histogram's cells (dx = 0.25) and the blur (sd one cell) widen a
    // unit sd to s = √(1 + dx²(1 + 1/12)) ≈ 1.033. The level is the value of a whole ring of
    // cells (HPD mass is summed cell by cell), so the boundary is exact to half a cell, dx/2,
    // and 40 000 draws add about 0.03 in radius: every boundary point lies within dx/2 + 0.03
    // of the closed form.
    void normalRegionsAreTheClosedFormDiscs()
    {
        Eigen::VectorXd x, y;
        mixtureDraws({{0, 0}}, 40000, x, y);
        const double dx = 0.25;
        const HpdRegions regions = hpdRegions(x, y, Eigen::VectorXd(), -4, 4, -4, 4, 32, {0.68, 0.95});
        QVERIFY(regions.resolved);
        QCOMPARE(int(regions.boundaries.size()), 2);
        const double s = std::sqrt(1 + dx * dx * (1 + 1.0 / 12));
        const double expected[2] = {s * std::sqrt(-2 * std::log(0.32)), s * std::sqrt(-2 * std::log(0.05))};
        for (int m = 0; m < 2; ++m) {
            const std::vector<double> r = radii(regions.boundaries[std::size_t(m)], 0, 0);
            QVERIFY(r.size() > 20);
            for (double ri : r)
                QVERIFY2(
                    std::abs(ri - expected[m]) < dx / 2 + 0.03,
                    qPrintable(QString("boundary at radius %1, closed form %2").arg(ri).arg(expected[m])));
        }
    }

    // Two separated modes: a genuine two-piece region is drawn, one closed line round each mode.
    void twoModesAreDrawnAsTwoPieces()
    {
        Eigen::VectorXd x, y;
        mixtureDraws({{-3, 0}, {3, 0}}, 40000, x, y);
        const HpdRegions regions = hpdRegions(x, y, Eigen::VectorXd(), -7, 7, -7, 7, 32, {0.68, 0.95});
        QVERIFY(regions.resolved);
        int left = 0, right = 0;
        const Series& inner = regions.boundaries[0];
        for (std::size_t i = 0; i < inner.x.size(); ++i) {
            if (!std::isfinite(inner.x[i]))
                continue;
            QVERIFY2(
                std::abs(std::abs(inner.x[i]) - 3) < 2.2,
                qPrintable(QString("a 68 %% boundary point at x = %1, between the modes").arg(inner.x[i])));
            (inner.x[i] < 0 ? left : right)++;
        }
        QVERIFY2(left > 10 && right > 10,
                 qPrintable(QString("%1 points left, %2 right").arg(left).arg(right)));
    }

    // Nine equal modes make a 68 % region of nine pieces that no allowed smoothing joins: the
    // region is reported unresolved and nothing is traced, as for a flat density whose pieces
    // follow the sampling noise.
    void aRegionInManyPiecesIsNotDrawn()
    {
        std::vector<std::pair<double, double>> centres;
        for (int i = -1; i <= 1; ++i)
            for (int j = -1; j <= 1; ++j)
                centres.push_back({8.0 * i, 8.0 * j});
        Eigen::VectorXd x, y;
        mixtureDraws(centres, 45000, x, y);
        const HpdRegions regions = hpdRegions(x, y, Eigen::VectorXd(), -13, 13, -13, 13, 32, {0.68, 0.95});
        QVERIFY(!regions.resolved);
        QCOMPARE(int(regions.boundaries.size()), 2);
        for (const Series& s : regions.boundaries)
            QVERIFY(s.x.empty() && s.y.empty());
    }
};

QTEST_APPLESS_MAIN(TestSamplePlots)
#include "test_sample_plots.moc"
