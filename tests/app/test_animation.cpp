// Animations (issue 40): the real binary writes WebP, GIF, PNG frames and filmstrips that Qt's
// own image readers read back with the frame count, size, delays and loop asked for, whose
// first and last frames are the stills at FROM and TO, and whose memory does not grow with the
// number of frames.
#include "animation.h"
#include "animation_dialog.h"
#include "animation_encoders.h"
#include "app_process.h"
#include "scenarios/registry.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QProcess>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/resource.h>
#include <sys/types.h>

using namespace evx;

namespace {

using Result = evx::testing::AppResult;

Result run(const QStringList& args)
{
    return evx::testing::runApp(args);
}

// A light scenario and a sweep whose evidence centre moves right: the frame at kTo spans the
// sweep's widest data and, at 640 x 360, needs as much legend headroom as any frame, so with
// the axes held it is the still at kTo pixel for pixel, first or last. (At 400 x 300 a middle
// frame puts a legend inside with more headroom, and every frame takes that range.) The frame
// at kFrom shows its data on kTo's wider axes: that is what holding the axes means.
const QString kScenario = "ue-gaussian";
const QString kParameter = "zeta";
const QString kFrom = "1", kTo = "3";

QStringList sweep(const QString& path, int frames, const QStringList& more = {}, const QString& from = kFrom,
                  const QString& to = kTo)
{
    return QStringList{"--scenario", kScenario,
                       "--animate",  QString("%1=%2:%3:%4").arg(kParameter, from, to).arg(frames),
                       "--export",   path} +
           more;
}

QImage still(const QTemporaryDir& dir, const QString& value, const QString& size)
{
    const QString path = dir.filePath("still-" + value + ".png");
    const Result r =
        run({"--scenario", kScenario, "--set", kParameter + "=" + value, "--export", path, "--size", size});
    if (r.exitCode != 0)
        qWarning("%s", qPrintable(r.err));
    return QImage(path).convertToFormat(QImage::Format_RGB32);
}

// Pixels that differ, with the first one named, for a failure message.
QString difference(const QImage& a, const QImage& b)
{
    if (a.size() != b.size())
        return QString("sizes %1x%2 and %3x%4").arg(a.width()).arg(a.height()).arg(b.width()).arg(b.height());
    int count = 0;
    QString first;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            if (a.pixel(x, y) != b.pixel(x, y) && count++ == 0)
                first = QString(" first at (%1, %2): %3 vs %4")
                            .arg(x)
                            .arg(y)
                            .arg(a.pixel(x, y), 8, 16)
                            .arg(b.pixel(x, y), 8, 16);
    return count == 0 ? QString() : QString("%1 pixels differ;%2").arg(count).arg(first);
}

struct ReadBack {
    int count = 0;
    QSize size;
    std::vector<int> delays;
    int loopCount = 0;
    QImage first, last;
};

ReadBack readBack(const QString& path)
{
    ReadBack out;
    QImageReader reader(path);
    out.count = reader.imageCount();
    out.size = reader.size();
    out.loopCount = reader.loopCount();
    for (int k = 0; k < out.count; ++k) {
        const QImage frame = reader.read();
        if (frame.isNull())
            break;
        out.delays.push_back(reader.nextImageDelay());
        if (k == 0)
            out.first = frame.convertToFormat(QImage::Format_RGB32);
        out.last = frame.convertToFormat(QImage::Format_RGB32);
    }
    return out;
}

} // namespace

class TestAnimation : public QObject {
    Q_OBJECT

private slots:
    void sweepValuesEndExactlyAndRoundIntegers()
    {
        ParameterSpec real;
        real.kind = ParameterKind::Real;
        const auto values = sweepValues(real, 0.001, 0.05, 7);
        QCOMPARE(values.size(), std::size_t(7));
        QCOMPARE(values.front(), 0.001);
        QCOMPARE(values.back(), 0.05);
        ParameterSpec integer;
        integer.kind = ParameterKind::Integer;
        const auto counts = sweepValues(integer, 2, 5, 4);
        QCOMPARE(counts, (std::vector<double>{2, 3, 4, 5}));
        QCOMPARE(sweepValues(integer, 2, 3, 3)[1], 3.0); // 2.5 rounds away from zero
    }

    void webpReadsBackLosslessWithDelaysAndHold()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("sweep.webp");
        const Result r = run(sweep(path, 5, {"--fps", "10", "--hold-ms", "700", "--size", "640x360"}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const ReadBack back = readBack(path);
        QCOMPARE(back.count, 5);
        QCOMPARE(back.size, QSize(640, 360));
        QCOMPARE(back.delays, (std::vector<int>{100, 100, 100, 100, 800}));
        QCOMPARE(back.loopCount, -1); // forever
        // Lossless: the last frame is the still at TO, pixel for pixel, and the first one, of
        // the reverse sweep, the still at its FROM.
        const QImage wide = still(dir, kTo, "640x360");
        const QString last = difference(back.last, wide);
        QVERIFY2(last.isEmpty(), qPrintable("last frame: " + last));
        QVERIFY2(!difference(back.first, back.last).isEmpty(), "the sweep does not move");
        const QString reversed = dir.filePath("reversed.webp");
        const Result rr = run(sweep(reversed, 2, {"--size", "640x360"}, kTo, kFrom));
        QVERIFY2(rr.exitCode == 0, qPrintable(rr.err));
        const QString first = difference(readBack(reversed).first, wide);
        QVERIFY2(first.isEmpty(), qPrintable("first frame: " + first));
    }

    void gifReadsBackWithCentisecondDelaysAndLoop()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("sweep.gif");
        const Result r =
            run(sweep(path, 4, {"--fps", "12", "--hold-ms", "1000", "--size", "640x360"}, kTo, kFrom));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const ReadBack back = readBack(path);
        QCOMPARE(back.count, 4);
        QCOMPARE(back.size, QSize(640, 360));
        // 1000 / 12 = 83 ms is 8 hundredths; the last frame holds 83 + 1000 ms, 108 hundredths.
        QCOMPARE(back.delays, (std::vector<int>{80, 80, 80, 1080}));
        QCOMPARE(back.loopCount, -1); // NETSCAPE2.0, loop forever
        // GIF frames are the stills reduced to 256 colours the same way (gifFrame): the first
        // frame spans the sweep's widest data and places the legends, so it is the still there.
        const QImage wide = gifFrame(still(dir, kTo, "640x360")).convertToFormat(QImage::Format_RGB32);
        const QString first = difference(back.first, wide);
        QVERIFY2(first.isEmpty(), qPrintable("first frame: " + first));
        QVERIFY2(!difference(back.first, back.last).isEmpty(), "the sweep does not move");
    }

    void noLoopPlaysOnce()
    {
        QTemporaryDir dir;
        for (const QString name : {"once.gif", "once.webp"}) {
            const Result r = run(sweep(dir.filePath(name), 2, {"--no-loop", "--size", "320x200"}));
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QImageReader reader(dir.filePath(name));
            QCOMPARE(reader.imageCount(), 2);
            QCOMPARE(reader.loopCount(), 0); // Qt: 0 is "played once", -1 "forever"
        }
    }

    void framesFolderHoldsNumberedPngs()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath("frames") + "/";
        QVERIFY(QDir().mkpath(folder));
        QFile stale(folder + "frame-0009.png"); // from an earlier, longer export
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.close();
        const Result r = run(sweep(folder, 3, {"--size", "640x360"}, kTo, kFrom));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QDir(folder).entryList({"*.png"}, QDir::Files),
                 (QStringList{"frame-0001.png", "frame-0002.png", "frame-0003.png"}));
        QCOMPARE(QImage(folder + "frame-0002.png").size(), QSize(640, 360));
        const QString first =
            difference(QImage(folder + "frame-0001.png").convertToFormat(QImage::Format_RGB32),
                       still(dir, kTo, "640x360"));
        QVERIFY2(first.isEmpty(), qPrintable(first));
    }

    void filmstripIsOnePage()
    {
        QTemporaryDir dir;
        const QString pdf = dir.filePath("strip.pdf");
        Result r =
            run({"--scenario", kScenario, "--animate", "mu_x=-10:10", "--filmstrip", "4", "--export", pdf});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QProcess info;
        info.start("pdfinfo", {pdf});
        QVERIFY(info.waitForFinished(60000));
        const QString text = QString::fromUtf8(info.readAllStandardOutput());
        QVERIFY2(text.contains(QRegularExpression("Pages:\\s+1\\n")), qPrintable(text));
        QVERIFY2(text.contains("518.74 x"), qPrintable(text)); // 183 mm wide: double-column
        const QString png = dir.filePath("strip.png");
        r = run({"--scenario", kScenario, "--animate", "mu_x=-10:10:6", "--filmstrip", "6", "--export", png,
                 "--width-mm", "120", "--height-mm", "80", "--dpi", "100"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QImage(png).size(), QSize(472, 315)); // 120 x 80 mm at 100 dpi
    }

    // The window's dialog (File → Export Animation…) drives the same export: its defaults are
    // the parameter's range, and its export writes what the command line would.
    void dialogExports()
    {
        QTemporaryDir dir;
        const auto s = ScenarioRegistry::instance().find(kScenario.toStdString());
        AnimationDialog dialog(s, {s->schema().defaults(), {}, {}}, QSize(320, 200), 9);
        const int index = dialog.parameterChoice()->findData(kParameter);
        QVERIFY(index >= 0);
        dialog.parameterChoice()->setCurrentIndex(index);
        const ParameterSpec* spec = s->schema().find(kParameter.toStdString());
        QCOMPARE(dialog.fromEdit()->value(), spec->minimum);
        QCOMPARE(dialog.toEdit()->value(), spec->maximum);
        dialog.fromEdit()->setValue(kFrom.toDouble());
        dialog.toEdit()->setValue(kTo.toDouble());
        dialog.framesEdit()->setValue(3);
        dialog.fpsEdit()->setValue(20);
        dialog.holdEdit()->setValue(0);
        dialog.setPath(dir.filePath("dialog.webp"));
        QCOMPARE(dialog.problem(), QString());
        QCOMPARE(dialog.exportNow(), QString());
        const ReadBack back = readBack(dir.filePath("dialog.webp"));
        QCOMPARE(back.count, 3);
        QCOMPARE(back.delays, (std::vector<int>{50, 50, 50}));
        const QString last = difference(back.last, still(dir, kTo, "320x200"));
        QVERIFY2(last.isEmpty(), qPrintable(last));
        dialog.setPath(dir.filePath("dialog.png"));
        QVERIFY(!dialog.problem().isEmpty());
    }

    void badOptionsEachGetTheirMessage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString g = "--scenario=ue-gaussian";
        QTest::newRow("spec") << QStringList{g, "--animate", "zeta=1:3", "--export", "X.webp"}
                              << "is not NAME=FROM:TO:FRAMES";
        QTest::newRow("unknown") << QStringList{g, "--animate", "nope=1:3:5", "--export", "X.webp"}
                                 << "unknown parameter";
        QTest::newRow("range") << QStringList{g, "--animate", "zeta=1:99:5", "--export", "X.webp"} << "TO";
        QTest::newRow("nan") << QStringList{g, "--animate", "zeta=nan:3:5", "--export", "X.webp"}
                             << "not a finite number";
        QTest::newRow("frames") << QStringList{g, "--animate", "zeta=1:3:1", "--export", "X.webp"}
                                << "from 2 to 1000";
        QTest::newRow("many frames") << QStringList{g, "--animate", "zeta=1:3:1001", "--export", "X.webp"}
                                     << "from 2 to 1000";
        QTest::newRow("fps") << QStringList{g, "--animate", "zeta=1:3:5", "--fps", "61", "--export", "X.webp"}
                             << "--fps 61";
        QTest::newRow("fps text") << QStringList{g,   "--animate", "zeta=1:3:5", "--fps",
                                                 "x", "--export",  "X.webp"}
                                  << "not a whole number";
        QTest::newRow("hold") << QStringList{g,    "--animate", "zeta=1:3:5", "--hold-ms",
                                             "-1", "--export",  "X.webp"}
                              << "--hold-ms -1";
        QTest::newRow("suffix") << QStringList{g, "--animate", "zeta=1:3:5", "--export", "X.png"}
                                << "a .webp or .gif file";
        QTest::newRow("pdf without filmstrip")
            << QStringList{g, "--animate", "zeta=1:3:5", "--export", "X.pdf"} << "a .webp or .gif";
        QTest::newRow("filmstrip gif")
            << QStringList{g, "--animate", "zeta=1:3", "--filmstrip", "4", "--export", "X.gif"}
            << "a .pdf, .png or .svg";
        QTest::newRow("filmstrip K") << QStringList{g,    "--animate", "zeta=1:3", "--filmstrip",
                                                    "40", "--export",  "X.pdf"}
                                     << "--filmstrip 40";
        QTest::newRow("two exports") << QStringList{g,        "--animate", "zeta=1:3:5", "--export",
                                                    "X.webp", "--export",  "Y.gif"}
                                     << "one --export";
        QTest::newRow("no export") << QStringList{g, "--animate", "zeta=1:3:5"} << "one --export";
        QTest::newRow("fps alone") << QStringList{g, "--fps", "10", "--export", "X.webp"} << "need --animate";
        QTest::newRow("bench") << QStringList{g, "--animate", "zeta=1:3:5", "--bench-sweep", "zeta=1:3:5"}
                               << "cannot be combined";
        QTest::newRow("size twice") << QStringList{g,        "--animate", "zeta=1:3:5",
                                                   "--size", "800x600",   "--width-mm",
                                                   "100",    "--export",  "X.gif"}
                                    << "use one of them";
        QTest::newRow("no folder") << QStringList{g, "--animate", "zeta=1:3:5", "--export",
                                                  "/nonexistent/X.gif"}
                                   << "does not exist";
    }

    void badOptionsEachGetTheirMessage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QTemporaryDir dir;
        for (QString& a : args)
            if (a.startsWith("X.") || a.startsWith("Y."))
                a = dir.filePath(a);
        const Result r = run(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1); // one line
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot), QStringList());
    }

    void choiceParameterRefused()
    {
        // bq-1d's integrand is a choice.
        const Result r = run({"--scenario", "bq-1d", "--animate", "integrand=0:1:3", "--export",
                              QDir::temp().filePath("x.webp")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("is a choice"), qPrintable(r.err));
    }

    void interruptLeavesTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("old.gif");
        QVERIFY(evx::testing::writeFile(path, "old contents"));
        QProcess p;
        p.setReadChannel(QProcess::StandardError); // waitForReadyRead waits on it
        p.start(EVX_APP_BINARY, sweep(path, 1000, {"--size", "640x360"}));
        QVERIFY(p.waitForStarted());
        // Wait for the first progress line about frames: the encoder is then open.
        QString err;
        while (!err.contains("frame ") && p.state() == QProcess::Running) {
            p.waitForReadyRead(60000);
            err += QString::fromUtf8(p.readAllStandardError());
        }
        QVERIFY2(err.contains("frame "), qPrintable(err));
        const qint64 pid = p.processId();
        QVERIFY2(pid > 0 && p.state() == QProcess::Running, qPrintable(err)); // kill(0) would hit this test
        ::kill(pid_t(pid), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        err += QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(err.contains("left as it was"), qPrintable(err));
        QFile old(path);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("old contents"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"old.gif"}); // no temporary left
    }

    void longSweepAt1080pIsStreamed()
    {
        // 300 frames of 1920 x 1080 are 2.5 GB of pixels (8.3 MB each). Streamed, the process
        // holds one frame and its colour-reduced copy, the 300 small figures and the program
        // itself (about 100 MB of Qt, fonts and code): its peak RSS must stay under 400 MB,
        // which holding even 40 frames would break. RUSAGE_CHILDREN gives the largest peak of
        // the children this test process has waited for; every other one is smaller.
        QTemporaryDir dir;
        const QString path = dir.filePath("long.gif");
        const Result r =
            evx::testing::runApp(sweep(path, 300, {"--size", "1920x1080", "--fps", "30"}), 600000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        rusage usage{};
        QCOMPARE(getrusage(RUSAGE_CHILDREN, &usage), 0);
        const double peakMb = usage.ru_maxrss / 1024.0; // kilobytes on Linux
        qInfo("peak RSS of the 300-frame 1080p GIF export: %.0f MB", peakMb);
#ifdef __SANITIZE_ADDRESS__
        // scripts/sanitize.sh: AddressSanitizer's 256 MB quarantine of freed memory and its shadow
        // count in every child's RSS (this suite's largest child peaked at 1.8 GB; this export alone
        // at 1.2 GB with the quarantine, 224 MB without). The ordinary build checks the budget.
        qInfo("the 400 MB budget is not checked under AddressSanitizer");
#else
        QVERIFY2(peakMb < 400, qPrintable(QString("peak RSS %1 MB, budget 400 MB").arg(peakMb)));
#endif
        QImageReader reader(path);
        QCOMPARE(reader.imageCount(), 300);
        QCOMPARE(reader.size(), QSize(1920, 1080));
    }
};

QTEST_MAIN(TestAnimation)
#include "test_animation.moc"
