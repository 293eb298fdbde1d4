// Issue 40 ("speed"): rendering animation frames of a light scenario at 1280 x 720 (a new
// figure into the held view and its pixels, as exportAnimation does per frame), and the cost
// of each encoder per frame. Target: at least 30 frames a second rendered.
// Run directly for figures: build/tests/bench/bench_animation
#include "animation.h"
#include "animation_encoders.h"
#include "plot/plot_view.h"
#include "scenarios/registry.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace evx;

namespace {

// 24 figures of a sweep of ue-drop-ball's stopwatch reading, as an animation computes them.
std::vector<Figure> sweepFigures(int count)
{
    const auto s = ScenarioRegistry::instance().find("ue-drop-ball");
    RunInput input{s->schema().defaults(), {}, {}};
    std::vector<Figure> figures;
    for (double v : sweepValues(*s->schema().find("t_obs"), 0.35, 0.5, count)) {
        input.values["t_obs"] = v;
        figures.push_back(s->runChecked(input, {}));
    }
    return figures;
}

const PrintSize k720p = PrintSize::fromPixels({1280, 720}, PlotView::kScreenFontPt);

} // namespace

class BenchAnimation : public QObject {
    Q_OBJECT

private slots:
    void renderFrame720p()
    {
        const std::vector<Figure> figures = sweepFigures(24);
        PlotView view;
        view.resize(1280, 720);
        holdUnionRanges(view, figures, k720p);
        std::size_t k = 0;
        QImage frame;
        QBENCHMARK
        {
            view.setFigure(figures[k++ % figures.size()]);
            frame = view.renderImage(k720p);
        }
        QCOMPARE(frame.size(), QSize(1280, 720));
    }

    void encodeFrame720p_data()
    {
        QTest::addColumn<int>("format");
        QTest::newRow("webp lossless, method 0") << int(AnimationFormat::WebP);
        QTest::newRow("gif") << int(AnimationFormat::Gif);
        QTest::newRow("png frames") << int(AnimationFormat::Frames);
    }
    void encodeFrame720p()
    {
        QFETCH(int, format);
        const std::vector<Figure> figures = sweepFigures(8);
        PlotView view;
        view.resize(1280, 720);
        holdUnionRanges(view, figures, k720p);
        std::vector<QImage> frames;
        for (const Figure& f : figures) {
            view.setFigure(f);
            frames.push_back(view.renderImage(k720p));
        }
        QTemporaryDir dir;
        const AnimationFormat f = AnimationFormat(format);
        const QString path = dir.filePath(f == AnimationFormat::WebP  ? "a.webp"
                                          : f == AnimationFormat::Gif ? "a.gif"
                                                                      : "frames/");
        QString error;
        auto sink = openFrameSink(f, path, {1280, 720}, {}, error);
        QVERIFY2(sink, qPrintable(error));
        std::size_t k = 0;
        QBENCHMARK
        {
            error = sink->add(frames[k++ % frames.size()], 83);
        }
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(sink->finish(), QString());
    }
};

QTEST_MAIN(BenchAnimation)
#include "bench_animation.moc"
