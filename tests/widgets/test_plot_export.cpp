// Tests of PlotView's rendering and exports: the rendered signal after a queued replot, the
// cost of a new figure (reported, never asserted), and images, PDF and SVG files rendered
// offscreen at a chosen size without hidden entries or the hover read-out.
// Runs on the offscreen platform.

#include "plot/plot_view.h"
#include "plot/rich_text.h"
#include "plot_view_test_support.h"

#include <qcustomplot.h>

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

using namespace evx;
using namespace evx::plot_test;

namespace {

// One line and a 3 × 3 heat map named `name`, so that the plot has a colour scale.
Figure withHeatMap(const std::string& name)
{
    Figure f = onePlot({line("plain a", 1)});
    HeatMap map;
    map.name = name;
    map.nx = map.ny = 3;
    map.values.assign(9, 1.0);
    map.values[4] = 2.0;
    f.plots[0].heatMaps.push_back(map);
    return f;
}

} // namespace

class TestPlotExport : public QObject {
    Q_OBJECT

private slots:
    void renderedSignalFollowsQueuedReplot()
    {
        PlotView view; // never shown, as in --export and --bench-sweep
        view.resize(800, 500);
        QSignalSpy spy(&view, &PlotView::rendered);
        view.setFigure(onePlot({line("a", 1)}));
        QCOMPARE(spy.count(), 0); // queued
        QVERIFY(spy.wait(2000));
        QCOMPARE(spy.count(), 1);
        QVERIFY(view.lastRenderMs() > 0);
        QCOMPARE(view.customPlot()->viewport().size(), QSize(800, 500)); // laid out at the widget's size
    }

    void setFigureTiming()
    {
        Figure f;
        Plot p;
        p.title = "timing";
        p.xLabel = "x";
        p.yLabel = "density";
        for (int k = 0; k < 5; ++k) {
            Series s;
            s.name = "series " + std::to_string(k);
            s.dashed = k == 4;
            for (int i = 0; i < 800; ++i) {
                const double x = -5 + 10.0 * i / 799;
                s.x.push_back(x);
                s.y.push_back(std::exp(-0.5 * (x - k) * (x - k)) * (1 + 0.1 * std::sin(7 * x)));
            }
            p.series.push_back(s);
        }
        f.plots.push_back(p);
        auto view = shownView(f);
        QCOMPARE(view->customPlot()->size(), QSize(1000, 700));
        for (const bool sameShape : {true, false}) {
            std::vector<double> build, render;
            for (int i = 0; i < 40; ++i) {
                f.plots[0].series[0].y[i] += 1e-3;
                if (!sameShape)
                    f.plots[0].series[1].name = "series 1" + std::string(i % 2, '\''); // forces a rebuild
                QElapsedTimer t;
                t.start();
                view->setFigure(f);
                build.push_back(t.nsecsElapsed() * 1e-6);
                view->renderNow();
                render.push_back(view->lastRenderMs());
            }
            std::sort(build.begin(), build.end());
            std::sort(render.begin(), render.end());
            qDebug("setFigure 5x800 at 1000x700 (%s): setFigure median %.2f ms, replot median %.2f ms; "
                   "p90 %.2f + %.2f ms",
                   sameShape ? "same shape, updated in place" : "new shape, rebuilt", build[20], render[20],
                   build[36], render[36]);
        }
        QCOMPARE(plottablesOf<QCPGraph>(view->axisRect(0)).size(), 5);

        // Hover read-out: the first move gives the overlay a buffer of its own (one full
        // replot), every later one repaints that layer alone.
        QSignalSpy replots(view->customPlot(), &QCustomPlot::afterReplot);
        const QRect area = view->axisRect(0)->rect();
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < 50; ++i) {
            const QPointF at(area.left() + 10 + i * (area.width() - 20) / 50.0, area.center().y());
            QMouseEvent move(QEvent::MouseMove, at, view->customPlot()->mapToGlobal(at), Qt::NoButton,
                             Qt::NoButton, {});
            QApplication::sendEvent(view->customPlot(), &move);
        }
        qDebug("hover read-out: %.3f ms per mouse move", t.nsecsElapsed() * 1e-6 / 50);
        QCOMPARE(replots.count(), 1);
    }

    void toImageDoesNotDisturbScreen()
    {
        Figure f = onePlot({line("a", 1), line("b", 2)});
        f.plots[0].bands.push_back({"band", {-1, 1}, {-1, -1}, {1, 1}, -1});
        auto view = shownView(f);
        view->setSeriesVisible(0, "b", false);
        view->renderNow();
        const QImage before = view->customPlot()->grab().toImage();
        const QRect rectBefore = view->axisRect(0)->rect();
        const int legendItems = legendOf(view->axisRect(0))->itemCount();

        const QImage image = view->toImage(640, 360);
        QCOMPARE(image.size(), QSize(640, 360));
        QVERIFY(distinctColours(image) > 3);

        QCOMPARE(legendOf(view->axisRect(0))->itemCount(), legendItems); // hidden entry back
        view->renderNow();
        QCOMPARE(view->axisRect(0)->rect(), rectBefore);
        QCOMPARE(view->customPlot()->grab().toImage(), before);
    }

    // A legend spread over columns has empty cells (five entries in two columns): an export
    // that lays it out otherwise puts back its five entries, not the empty cells (it crashed
    // on them, seen with bq-1d and ue-gaussian-hetero exported at 800 x 500).
    void exportKeepsAWrappedLegend()
    {
        std::vector<Series> series;
        for (int i = 0; i < 5; ++i)
            series.push_back(line("entry number " + std::to_string(i), i + 1.0));
        PlotView view;
        view.resize(1200, 260);
        view.setFigure(onePlot(series));
        view.renderNow();
        QCPLegend* legend = nullptr;
        for (QCPLayoutElement* element : view.customPlot()->plotLayout()->elements(true))
            if (auto* l = qobject_cast<QCPLegend*>(element))
                legend = l;
        QVERIFY(legend);
        auto entries = [&] {
            int n = 0;
            for (int i = 0; i < legend->itemCount(); ++i)
                n += legend->item(i) != nullptr;
            return n;
        };
        QCOMPARE(entries(), 5);
        QCOMPARE_GT(legend->itemCount(), 5); // the case of interest: a cell left empty
        for (const QSize size : {QSize(800, 500), QSize(300, 900)}) {
            QVERIFY(!view.encode(PlotView::ImageFormat::Png, size.width(), size.height()).isEmpty());
            QCOMPARE(entries(), 5);
        }
    }

    void encodesFiles()
    {
        Figure f = onePlot({line("a", 1), line("b", -1)});
        f.plots[0].markers.push_back({"m", 0.1});
        PlotView view;
        view.setFigure(f);

        const QImage loaded = QImage::fromData(view.encode(PlotView::ImageFormat::Png, 800, 500), "PNG");
        QVERIFY(!loaded.isNull());
        QCOMPARE(loaded.size(), QSize(800, 500));
        QVERIFY(distinctColours(loaded) > 3);

        // Pixels are CSS pixels, 96 to the inch: 800 x 500 px is 600 x 375 pt, laid out in
        // quarter points.
        QSvgRenderer renderer(view.encode(PlotView::ImageFormat::Svg, 800, 500));
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBoxF(), QRectF(0, 0, 2400, 1500));

        const QByteArray pdf = view.encode(PlotView::ImageFormat::Pdf, 800, 500);
        QVERIFY(pdf.startsWith("%PDF"));
        QVERIFY(pdf.contains("%%EOF"));
        const QRegularExpression mediaBox(R"(/MediaBox \[0 0 600(\.0*)? 375(\.0*)?\])");
        QVERIFY2(mediaBox.match(QString::fromLatin1(pdf)).hasMatch(), "no 600 x 375 pt MediaBox");

        QVERIFY(view.encode(PlotView::ImageFormat::Png, 0, 500).isEmpty());
        QVERIFY(view.toImage(0, 10).isNull());
    }

    // Markup in axis labels, titles and legend names (core/rich_label.h) is drawn with real
    // sub- and superscripts, as vector text: the SVG holds the scripts' words but never the
    // markup, while figure() (what JSON and CSV export) keeps the strings as written.
    void richLabelsDrawScripts()
    {
        Figure f = onePlot({line("σ_q² evidence", 1), line("plain b", -1)}, "Posterior of β_verbal");
        f.plots[0].xLabel = "weight w_i";
        f.plots[0].yLabel = "μ_z density";
        PlotView view;
        view.setFigure(f);
        const QString svg = QString::fromUtf8(view.encode(PlotView::ImageFormat::Svg, 800, 500));
        for (const char* markup : {"w_i", "β_verbal", "σ_q", "μ_z"})
            QVERIFY2(!svg.contains(QString::fromUtf8(markup)), markup);
        for (const char* word : {"verbal", "weight w", "plain b", "evidence", "density"})
            QVERIFY2(svg.contains(QString::fromUtf8(word)), word);
        QCOMPARE(view.figure().plots[0].xLabel, std::string("weight w_i"));
        QCOMPARE(view.figure().plots[0].series[0].name, std::string("σ_q² evidence"));
        if (const QString path = qEnvironmentVariable("EVX_SAMPLE_RICH_PNG"); !path.isEmpty()) {
            QFile file(path); // to look at
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(view.encode(PlotView::ImageFormat::Png, 640, 400));
            QFile pdf(path + ".pdf");
            QVERIFY(pdf.open(QIODevice::WriteOnly));
            pdf.write(view.encode(PlotView::ImageFormat::Pdf, 640, 400));
        }
    }

    // A marker's name is drawn with scripts too (RichItemText), in the box QCustomPlot
    // measures from the markup; no plain copy of the markup, not even a transparent one.
    void markerNamesDrawScripts()
    {
        Figure f = onePlot({line("plain a", 1)});
        f.plots[0].markers = {{"σ_q² prior", -0.5}, {"x_obs", 0.5}};
        PlotView view;
        view.setFigure(f);
        const QString svg = QString::fromUtf8(view.encode(PlotView::ImageFormat::Svg, 800, 500));
        // The SVG writes a Greek letter as a text run of its own: "σ_" is what raw markup leaves.
        for (const char* markup : {"σ_", "x_obs"})
            QVERIFY2(!svg.contains(QString::fromUtf8(markup)), markup);
        for (const char* word : {"prior", "obs"})
            QVERIFY2(svg.contains(QString::fromUtf8(word)), word);
        QCOMPARE(view.figure().plots[0].markers[0].name, std::string("σ_q² prior"));
    }

    // A colour scale's label cannot draw scripts (QCPColorScale owns its axis); it shows the
    // markup's text without the markup instead of raw underscores.
    void colourScaleLabelDropsMarkup()
    {
        const Figure f = withHeatMap("density of σ_q");
        PlotView view;
        view.setFigure(f);
        const QString svg = QString::fromUtf8(view.encode(PlotView::ImageFormat::Svg, 800, 500));
        QVERIFY(!svg.contains(QString::fromUtf8("σ_")));
        QVERIFY(svg.contains(QStringLiteral("density of")));
        QCOMPARE(view.figure().plots[0].heatMaps[0].name, std::string("density of σ_q"));
    }

    // Text wraps between words, not inside an argument list: bq-2d-marginal's colour bar read
    // "integrand f(x," over "y)".
    void wrappedLabelsKeepBracketsWhole()
    {
        QCOMPARE(wrapWords("integrand f(x, y) under N(0, [1, 2])"),
                 (QStringList{"integrand", "f(x, y)", "under", "N(0, [1, 2])"}));
        QCOMPARE(wrapWords("truth (numerical integration)"),
                 (QStringList{"truth", "(numerical", "integration)"}));
        QCOMPARE(wrapWords("a (b, c"), (QStringList{"a", "(b,", "c"}));
        const Figure f = withHeatMap("integrand f(x, y)");
        int wrapped = 0;
        for (int height = 150; height <= 300; height += 10) {
            PlotView view;
            view.resize(600, height);
            view.setFigure(f);
            view.renderNow();
            const auto scales = view.customPlot()->findChildren<QCPColorScale*>();
            QCOMPARE(scales.size(), 1);
            const QString label = scales[0]->label();
            QVERIFY2(label.contains("f(x, y)"), qPrintable(QString("at %1 px: %2").arg(height).arg(label)));
            wrapped += label.contains('\n');
        }
        QVERIFY(wrapped > 0); // the short views did wrap
    }

    // A print size: the PDF page and the SVG are exactly that many millimetres (1 pt =
    // 25.4/72 mm), the PNG has mm / 25.4 * dpi pixels and says its dpi.
    void encodesPrintSizes_data()
    {
        QTest::addColumn<double>("widthMm");
        QTest::addColumn<double>("heightMm");
        QTest::addColumn<double>("dpi");
        QTest::newRow("single column") << 89.0 << 66.75 << 600.0;
        QTest::newRow("double column") << 183.0 << 120.0 << 300.0;
        QTest::newRow("slide") << 254.0 << 142.875 << 192.0;
        QTest::newRow("whole points") << 25.4 << 50.8 << 100.0; // 72 x 144 pt
    }

    void encodesPrintSizes()
    {
        QFETCH(double, widthMm);
        QFETCH(double, heightMm);
        QFETCH(double, dpi);
        PlotView view;
        view.resize(640, 480);
        view.setFigure(onePlot({line("a", 1), line("b", -1)}));
        const PrintSize size{widthMm, heightMm, 8, dpi};

        const QByteArray pdf = view.encode(PlotView::ImageFormat::Pdf, size);
        const QRegularExpression mediaBox(R"(/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\])");
        const QRegularExpressionMatch box = mediaBox.match(QString::fromLatin1(pdf));
        QVERIFY2(box.hasMatch(), "no MediaBox");
        // Written to 6 decimals of a point or so: 1e-5 pt.
        QCOMPARE_LE(std::abs(box.captured(1).toDouble() - widthMm / 25.4 * 72), 1e-5);
        QCOMPARE_LE(std::abs(box.captured(2).toDouble() - heightMm / 25.4 * 72), 1e-5);
        // The cross-reference table still points at every object (the box kept its length).
        const qsizetype xref = pdf.lastIndexOf("\nxref\n");
        const qsizetype startxref = pdf.lastIndexOf("startxref\n");
        QVERIFY(xref > 0 && startxref > xref);
        QCOMPARE(pdf.mid(startxref + 10).split('\n').first().toLongLong(), xref + 1);

        const QByteArray svg = view.encode(PlotView::ImageFormat::Svg, size);
        const QRegularExpression svgSize(R"(<svg width="([0-9.]+)mm" height="([0-9.]+)mm")");
        const QRegularExpressionMatch m = svgSize.match(QString::fromUtf8(svg));
        QVERIFY2(m.hasMatch(), svg.left(300).constData());
        QCOMPARE(m.captured(1).toDouble(), widthMm);
        QCOMPARE(m.captured(2).toDouble(), heightMm);
        QVERIFY(QSvgRenderer(svg).isValid());

        const QImage png = QImage::fromData(view.encode(PlotView::ImageFormat::Png, size), "PNG");
        QCOMPARE(png.size(),
                 QSize(int(std::lround(widthMm / 25.4 * dpi)), int(std::lround(heightMm / 25.4 * dpi))));
        // PNG stores whole dots per metre: dpi to within 0.5 / 39.37.
        QCOMPARE_LE(std::abs(png.dotsPerMeterX() * 0.0254 - dpi), 0.02);
        QCOMPARE_LE(std::abs(png.dotsPerMeterY() * 0.0254 - dpi), 0.02);
        QVERIFY(distinctColours(png) > 3);

        QVERIFY(view.encode(PlotView::ImageFormat::Pdf, PrintSize{0, 10, 8, 300}).isEmpty());
        QVERIFY(view.encode(PlotView::ImageFormat::Png, PrintSize{10, 10, 8, std::nan("")}).isEmpty());
    }

    void sampleImage()
    {
        const QByteArray path = qgetenv("EVX_SAMPLE_PNG");
        if (path.isEmpty())
            QSKIP("set EVX_SAMPLE_PNG=/path.png to write a sample figure");
        Figure f;
        Plot post;
        post.title = "Posterior of g under three interpretations";
        post.xLabel = "g (m/s²)";
        post.yLabel = "density";
        const char* names[] = {"prior", "Jeffrey's rule", "virtual evidence", "distributional evidence"};
        const double means[] = {9.5, 9.78, 9.83, 9.8};
        const double sds[] = {0.3, 0.08, 0.05, 0.12};
        for (int k = 0; k < 4; ++k) {
            Series s;
            s.name = names[k];
            s.dashed = k == 0;
            for (int i = 0; i < 400; ++i) {
                const double x = 8.8 + 1.8 * i / 399;
                const double z = (x - means[k]) / sds[k];
                s.x.push_back(x);
                s.y.push_back(std::exp(-0.5 * z * z) / (sds[k] * std::sqrt(2 * M_PI)));
            }
            post.series.push_back(s);
        }
        Band band;
        band.name = "±2 sd";
        band.colour = 2;
        for (int i = 0; i < 400; ++i) {
            const double x = 8.8 + 1.8 * i / 399;
            const double z = (x - 9.83) / 0.05;
            const double y = std::exp(-0.5 * z * z) / (0.05 * std::sqrt(2 * M_PI));
            band.x.push_back(x);
            band.lower.push_back(0.8 * y);
            band.upper.push_back(1.2 * y);
        }
        post.bands.push_back(band);
        post.markers.push_back({"g = 9.81", 9.81});
        f.plots.push_back(post);

        Plot bars;
        bars.title = "Posterior probability of each hypothesis";
        bars.xLabel = "hypothesis";
        bars.yLabel = "probability";
        Series prior{"prior", SeriesKind::Bar, {1, 2, 3, 4}, {0.25, 0.25, 0.25, 0.25}};
        Series posterior{"posterior", SeriesKind::Bar, {1, 2, 3, 4}, {0.1, 0.6, 0.25, 0.05}};
        bars.series = {prior, posterior};
        f.plots.push_back(bars);

        PlotView view;
        view.resize(1000, 700);
        view.setFigure(f);
        QFile out(QString::fromLocal8Bit(path));
        QVERIFY(out.open(QIODevice::WriteOnly));
        QVERIFY(out.write(view.encode(PlotView::ImageFormat::Png, 1000, 700)) > 0);
        out.close();
        QCOMPARE(QImage(QString::fromLocal8Bit(path)).size(), QSize(1000, 700));
    }
};

QTEST_MAIN(TestPlotExport)
#include "test_plot_export.moc"
