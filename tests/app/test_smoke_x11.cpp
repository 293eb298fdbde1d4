// The one test in a real X server (run by CTest under xvfb-run): the main window appears
// on the xcb platform, computes its first figure and puts pixels on the screen.
#include "main_window.h"
#include "plot/plot_view.h"
#include "runner.h"

#include <QGuiApplication>
#include <QScreen>
#include <QSignalSpy>
#include <QtTest>

using namespace evx;

class TestSmokeX11 : public QObject {
    Q_OBJECT

private slots:
    void windowShowsAFigureOnARealDisplay()
    {
        QCOMPARE(QGuiApplication::platformName(), QString("xcb"));
        MainWindow w;
        QSignalSpy shown(&w, &MainWindow::figureShown);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w, 10000));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 10000);
        QTest::qWait(300); // let the queued replot reach the screen

        const QRect area(w.plotView()->mapToGlobal(QPoint(0, 0)), w.plotView()->size());
        const QImage grab =
            w.screen()->grabWindow(0, area.x(), area.y(), area.width(), area.height()).toImage();
        QVERIFY(!grab.isNull());
        // A drawn plot has many colours (curves, text, grid); a blank or black window has one or two.
        QSet<QRgb> colours;
        for (int y = 0; y < grab.height(); y += 3)
            for (int x = 0; x < grab.width(); x += 3)
                colours.insert(grab.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
        const QString shot = qEnvironmentVariable("EVX_SMOKE_SCREENSHOT");
        if (!shot.isEmpty())
            w.screen()->grabWindow(0).save(shot);
    }
};

QTEST_MAIN(TestSmokeX11)
#include "test_smoke_x11.moc"
