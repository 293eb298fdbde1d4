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
        QTest::addColumn<double>("heightMm"); // 0: the height the figure chooses
        QTest::addColumn<double>("fontPt");
        for (const char* id : {"ue-kepler", "bq-2d-marginal", "gb-gaussian", "ue-gaussian-hetero",
                               "ue-drop-ball", "wvo-eight-schools", "wvo-rats"}) {
            QTest::newRow(qPrintable(QString("%1 89 mm 8 pt").arg(id))) << QString(id) << 89.0 << 0.0 << 8.0;
            QTest::newRow(qPrintable(QString("%1 183 mm 8 pt").arg(id)))
                << QString(id) << 183.0 << 0.0 << 8.0;
        }
        // Three marker names side by side, the rightmost turned left by the frame.
        QTest::newRow("bnn-identifiability 89 mm 8 pt")
            << QString("bnn-identifiability") << 89.0 << 0.0 << 8.0;
        // A 2 x 2 grid with titles: y labels keep to their frames, clear of the titles above.
        QTest::newRow("bnn-uncertainty 89 mm 8 pt") << QString("bnn-uncertainty") << 89.0 << 0.0 << 8.0;
        QTest::newRow("ue-drop-ball slide 16 pt") << QString("ue-drop-ball") << 254.0 << 142.9 << 16.0;
        // Pages asked for that are too short for six plots with legends below them: the frames
        // shorten, and so do the y labels, to their frames' length.
        QTest::newRow("wvo-eight-schools 89 x 300 mm 8 pt")
            << QString("wvo-eight-schools") << 89.0 << 300.0 << 8.0;
        QTest::newRow("wvo-rats 89 x 300 mm 8 pt") << QString("wvo-rats") << 89.0 << 300.0 << 8.0;
    }

    void nothingLeavesThePageOrOverlaps()
    {
        QFETCH(QString, scenario);
        QFETCH(double, widthMm);
        QFETCH(double, heightMm);
        QFETCH(double, fontPt);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        QVERIFY(s);
        const Figure figure = s->run(s->schema().defaults(), {});
        PlotView view;
        view.resize(900, 700);
        view.setFigure(figure);
        // Without a height, the one the command line and the export dialog pick.
        const bool natural = heightMm == 0;
        if (natural)
            heightMm = PlotView::naturalHeightMm(figure, widthMm, fontPt);
        const PrintSize size{widthMm, heightMm, fontPt, 300};
        auto boxes = view.exportLayout(PlotView::ImageFormat::Pdf, size);
        QVERIFY(boxes.size() > 4);
        QCOMPARE(boxes.front().what, QString("page"));
        const QRectF page = boxes.front().rect;
        // Quarter points: the page is the print size rounded to a whole unit.
        QCOMPARE(page.width(), std::round(size.widthPt() * 4));
        QCOMPARE(page.height(), std::round(size.heightPt() * 4));

        // The frames come last: inside the page, and on a page the figure chose, at least
        // kLeastFrameAspect times as high as wide, or kLeastPageFrameAspect on a page of exactly
        // a journal's height (where a figure stays that would fit it with flatter frames).
        std::vector<QRectF> frames;
        while (boxes.back().what.endsWith(" frame")) {
            frames.insert(frames.begin(), boxes.back().rect);
            boxes.pop_back();
        }
        QCOMPARE(frames.size(), figure.plots.size());
        for (std::size_t i = 0; i < frames.size(); ++i) {
            QVERIFY2(page.contains(frames[i]), qPrintable(QString("frame %1 leaves the page").arg(i)));
            const bool pageTall = std::abs(size.heightMm - PlotView::kMaxNaturalHeightMm) < 1e-9;
            const double aspect = pageTall ? PlotView::kLeastPageFrameAspect : PlotView::kLeastFrameAspect;
            if (natural)
                QCOMPARE_GE(frames[i].height(), aspect * frames[i].width());
        }

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

        // A corner plot's legend sits in the empty cells: it covers no plot's frame.
        for (const PlotView::TextBox& box : boxes) {
            if (box.what != "corner legend")
                continue;
            for (std::size_t i = 0; i < frames.size(); ++i) {
                const QRectF overlap = box.rect.adjusted(slack, slack, -slack, -slack) & frames[i];
                QVERIFY2(overlap.isEmpty(),
                         qPrintable(QString("the corner legend (%1, %2, %3 x %4) covers frame %5")
                                        .arg(box.rect.x())
                                        .arg(box.rect.y())
                                        .arg(box.rect.width())
                                        .arg(box.rect.height())
                                        .arg(i)));
            }
        }

        // A y label beside a flowing plot is no longer than its frame (a corner plot's outer
        // labels may reach along their neighbours' frames).
        const bool flowing = std::none_of(figure.plots.begin(), figure.plots.end(),
                                          [](const Plot& p) { return p.row >= 0 && p.column >= 0; });
        for (const PlotView::TextBox& box : boxes) {
            const QStringList words = box.what.split(' ');
            if (!flowing || words.size() != 4 || words[2] != "y" || words[3] != "label")
                continue;
            const QRectF& frame = frames[std::size_t(words[1].toInt())];
            QCOMPARE_GE(box.rect.top(), frame.top() - slack);
            QCOMPARE_LE(box.rect.bottom(), frame.bottom() + slack);
        }
    }
};

QTEST_MAIN(TestPrintLayout)
#include "test_print_layout.moc"
