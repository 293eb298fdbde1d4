// Publication sizes: a scenario's default figure exported 89 mm wide with 8 pt text (a
// journal's single column) keeps every title, axis label, tick label, marker name and legend
// on the page, and none of them on another. Representative figures: a corner plot
// (ue-kepler), heat maps with colour scales (bq-2d-marginal, gb-gaussian, wvo-rats), plots
// with many series and markers (ue-gaussian-hetero, ue-drop-ball, bnn-identifiability).
// Runs on the offscreen platform.

#include "plot/plot_view.h"
#include "scenarios/registry.h"

#include <QTest>

#include <algorithm>

using namespace evx;

class TestPrintLayout : public QObject {
    Q_OBJECT

private slots:
    void nothingLeavesThePageOrOverlaps_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<double>("widthMm");
        QTest::addColumn<double>("fontPt");
        for (const char* id :
             {"ue-kepler", "bq-2d-marginal", "gb-gaussian", "ue-gaussian-hetero", "ue-drop-ball"}) {
            QTest::newRow(qPrintable(QString("%1 89 mm 8 pt").arg(id))) << QString(id) << 89.0 << 8.0;
            QTest::newRow(qPrintable(QString("%1 183 mm 8 pt").arg(id))) << QString(id) << 183.0 << 8.0;
        }
        // Three marker names side by side, the rightmost turned left by the frame.
        QTest::newRow("bnn-identifiability 89 mm 8 pt") << QString("bnn-identifiability") << 89.0 << 8.0;
        // Six plots with long legends need more than a single column's page (see README).
        QTest::newRow("wvo-rats 183 mm 8 pt") << QString("wvo-rats") << 183.0 << 8.0;
        QTest::newRow("ue-drop-ball slide 16 pt") << QString("ue-drop-ball") << 254.0 << 16.0;
    }

    void nothingLeavesThePageOrOverlaps()
    {
        QFETCH(QString, scenario);
        QFETCH(double, widthMm);
        QFETCH(double, fontPt);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        QVERIFY(s);
        const Figure figure = s->run(s->schema().defaults(), {});
        PlotView view;
        view.resize(900, 700);
        view.setFigure(figure);
        // The height the command line picks when only a width is given.
        const double heightMm = PlotView::naturalHeightMm(figure, widthMm, fontPt);
        const PrintSize size{widthMm, heightMm, fontPt, 300};
        const auto boxes = view.exportLayout(PlotView::ImageFormat::Pdf, size);
        QVERIFY(boxes.size() > 4);
        QCOMPARE(boxes.front().what, QString("page"));
        const QRectF page = boxes.front().rect;
        // Quarter points: the page is the print size to within a unit.
        QCOMPARE_LE(std::abs(page.width() - size.widthPt() * 4), 1.0);
        QCOMPARE_LE(std::abs(page.height() - size.heightPt() * 4), 1.0);

        // Text measured with QFontMetricsF may reach half a unit (1/8 pt) past where it is
        // drawn; more than that is a clipped or overlapping label.
        constexpr double slack = 0.5;
        int labels = 0;
        for (std::size_t i = 1; i < boxes.size(); ++i) {
            const QRectF& r = boxes[i].rect;
            labels += boxes[i].what.contains(" label");
            QVERIFY2(r.left() >= page.left() - slack && r.top() >= page.top() - slack &&
                         r.right() <= page.right() + slack && r.bottom() <= page.bottom() + slack,
                     qPrintable(QString("%1 at (%2, %3, %4 x %5) leaves the %6 x %7 page")
                                    .arg(boxes[i].what)
                                    .arg(r.x())
                                    .arg(r.y())
                                    .arg(r.width())
                                    .arg(r.height())
                                    .arg(page.width())
                                    .arg(page.height())));
            for (std::size_t j = i + 1; j < boxes.size(); ++j) {
                const QRectF overlap = r.adjusted(slack, slack, -slack, -slack) &
                                       boxes[j].rect.adjusted(slack, slack, -slack, -slack);
                QVERIFY2(overlap.isEmpty(),
                         qPrintable(QString("%1 (%2, %3, %4 x %5) overlaps %6 (%7, %8, %9 x %10)")
                                        .arg(boxes[i].what)
                                        .arg(r.x())
                                        .arg(r.y())
                                        .arg(r.width())
                                        .arg(r.height())
                                        .arg(boxes[j].what)
                                        .arg(boxes[j].rect.x())
                                        .arg(boxes[j].rect.y())
                                        .arg(boxes[j].rect.width())
                                        .arg(boxes[j].rect.height())));
            }
        }
        QVERIFY2(labels >= 2, "no axis labels found");
    }
};

QTEST_MAIN(TestPrintLayout)
#include "test_print_layout.moc"
