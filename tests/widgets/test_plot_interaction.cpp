// Tests of PlotView under the mouse: a click reports data coordinates, the hover read-out
// shows interpolated values with scripts, and a figure arriving mid-drag keeps the pan. Runs
// offscreen.

#include "plot/plot_view.h"
#include "plot_view_test_support.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QSignalSpy>
#include <QSvgGenerator>
#include <QTest>

#include <cmath>

using namespace evx;
using namespace evx::plot_test;

class TestPlotInteraction : public QObject {
    Q_OBJECT

private slots:
    void clickEmitsDataCoordinates()
    {
        auto view = shownView(onePlot({line("a", 1)}));
        QSignalSpy clicks(view.get(), &PlotView::pointClicked);
        QCPAxisRect* rect = view->axisRect(0);
        const QPoint at = rect->rect().topLeft() + QPoint(rect->width() / 4, rect->height() / 3);
        QTest::mouseClick(view->customPlot(), Qt::LeftButton, {}, at);
        QCOMPARE(clicks.count(), 1);
        QCOMPARE(clicks[0][0].toInt(), 0);
        QVERIFY(std::abs(clicks[0][1].toDouble() - rect->axis(QCPAxis::atBottom)->pixelToCoord(at.x())) <
                1e-9);
        QVERIFY(std::abs(clicks[0][2].toDouble() - rect->axis(QCPAxis::atLeft)->pixelToCoord(at.y())) < 1e-9);
        QVERIFY(!view->isUserZoomed(0)); // a click is not a pan
    }

    void hoverShowsInterpolatedValues()
    {
        Series step = line("steps", 1, 5);
        step.kind = SeriesKind::Step;
        auto view = shownView(onePlot({line("twice", 2, 51), step}));
        QCustomPlot* plot = view->customPlot();
        QCPAxisRect* rect = view->axisRect(0);
        const QPoint at = centreOf(rect) + QPoint(37, 0);
        QTest::mouseMove(plot, at);
        QMouseEvent move(QEvent::MouseMove, at, plot->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::NoButton,
                         {});
        QApplication::sendEvent(plot, &move);
        QCPItemText* text = overlayText(plot);
        QVERIFY(text);
        QVERIFY(text->visible());
        const double x = rect->axis(QCPAxis::atBottom)->pixelToCoord(at.x());
        const QString shown = text->text();
        QVERIFY2(shown.contains(QStringLiteral("twice: %1").arg(QString::number(2 * x, 'g', 4))),
                 qPrintable(shown));
        // Steps at -1, -0.5, 0, 0.5, 1: the nearest one holds.
        const double nearest = std::round(x * 2) / 2;
        QVERIFY2(shown.contains(QStringLiteral("steps: %1").arg(QString::number(nearest, 'g', 4))),
                 qPrintable(shown));

        view->setSeriesVisible(0, "twice", false);
        QApplication::sendEvent(plot, &move);
        QVERIFY(!text->text().contains("twice"));

        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(plot, &leave);
        QVERIFY(!text->visible());
    }

    // The read-out names series as their legend does: w_i drawn with a subscript, not as markup.
    void hoverDrawsScripts()
    {
        auto view = shownView(onePlot({line("w_i evidence", 2, 51)}));
        QCustomPlot* plot = view->customPlot();
        const QPoint at = centreOf(view->axisRect(0)) + QPoint(37, 0);
        QMouseEvent move(QEvent::MouseMove, at, plot->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::NoButton,
                         {});
        QApplication::sendEvent(plot, &move);
        QCPItemText* text = overlayText(plot);
        QVERIFY(text && text->visible());
        QVERIFY2(text->text().contains(QStringLiteral("w_i evidence: ")), qPrintable(text->text()));
        // Drawn as the window shows it (an export leaves the read-out out).
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(plot->size());
        QCPPainter painter;
        QVERIFY(painter.begin(&svg));
        plot->toPainter(&painter, plot->width(), plot->height());
        painter.end();
        const QString drawn = QString::fromUtf8(bytes);
        QVERIFY2(!drawn.contains(QStringLiteral("w_i")), "raw markup in the read-out");
        QVERIFY2(drawn.contains(QString::fromUtf8("evidence: ")), "no read-out drawn");
        if (const QString path = qEnvironmentVariable("EVX_SAMPLE_HOVER_PNG"); !path.isEmpty())
            QVERIFY(plot->toPixmap().save(path)); // to look at
    }

    // The read-out's layer is a buffer of its own only while it shows: the window must show it,
    // then lose it, and look as before once the layer has been merged back.
    void hoverOverlayComesAndGoes()
    {
        auto view = shownView(onePlot({line("a", 1, 51)}));
        QCustomPlot* plot = view->customPlot();
        view->renderNow();
        const QImage before = plot->grab().toImage();
        const QPoint at = centreOf(view->axisRect(0)) + QPoint(37, 0);
        QMouseEvent move(QEvent::MouseMove, at, plot->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::NoButton,
                         {});
        QApplication::sendEvent(plot, &move);
        QCOMPARE(plot->layer(QStringLiteral("overlay"))->mode(), QCPLayer::lmBuffered);
        const QImage hovered = plot->grab().toImage();
        QVERIFY(overlayText(plot) && overlayText(plot)->visible());
        QVERIFY(hovered != before); // the line, the tracer and the box are on screen

        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(plot, &leave);
        QCOMPARE(plot->grab().toImage(), before);
        view->renderNow(); // the next replot merges the layer back
        QCOMPARE(plot->layer(QStringLiteral("overlay"))->mode(), QCPLayer::lmLogical);
        QCOMPARE(plot->grab().toImage(), before);
    }

    void figureArrivingMidDragKeepsPan()
    {
        auto view = shownView(onePlot({line("a", 1)}));
        QCustomPlot* plot = view->customPlot();
        QCPAxis* xAxis = view->axisRect(0)->axis(QCPAxis::atBottom);
        const QPointF c = centreOf(view->axisRect(0));
        auto send = [&](QEvent::Type type, QPointF at, Qt::MouseButton button, Qt::MouseButtons buttons) {
            QMouseEvent e(type, at, plot->mapToGlobal(at), button, buttons, {});
            QApplication::sendEvent(plot, &e);
        };
        send(QEvent::MouseButtonPress, c, Qt::LeftButton, Qt::LeftButton);
        send(QEvent::MouseMove, c + QPointF(60, 0), Qt::NoButton, Qt::LeftButton);
        QVERIFY(view->isUserZoomed(0));
        const QCPRange panned = xAxis->range();
        QVERIFY(panned.lower < -1.0);

        view->setFigure(onePlot({line("a", 3)})); // a progress update mid-drag
        QCOMPARE(xAxis->range().lower, panned.lower);
        send(QEvent::MouseMove, c + QPointF(120, 0), Qt::NoButton, Qt::LeftButton);
        QVERIFY(xAxis->range().lower < panned.lower); // the same drag goes on
        send(QEvent::MouseButtonRelease, c + QPointF(120, 0), Qt::LeftButton, Qt::NoButton);
        QVERIFY(view->isUserZoomed(0));
    }
};

QTEST_MAIN(TestPlotInteraction)
#include "test_plot_interaction.moc"
