// --theme high-contrast for exports (issue 40 §4), as a user runs it, and the look of every
// series in the JSON the command line writes.

#include "app_process.h"

#include <QImage>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace evx::testing;

namespace {

// Pixels of a colour, within a small tolerance for antialiasing.
int pixelsNear(const QImage& image, QColor c)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor p = image.pixelColor(x, y);
            if (std::abs(p.red() - c.red()) + std::abs(p.green() - c.green()) +
                    std::abs(p.blue() - c.blue()) <
                12)
                ++n;
        }
    return n;
}

} // namespace

class TestThemeCommandLine : public QObject {
    Q_OBJECT
private slots:
    // Thicker lines: more pixels of the readings' colours than the standard theme draws.
    void highContrastExportIsBolder()
    {
        QTemporaryDir dir;
        const QString standard = dir.filePath("s.png"), high = dir.filePath("h.png");
        QCOMPARE(runApp({"--scenario", "ue-drop-ball", "--size", "900x600", "--export", standard}).exitCode,
                 0);
        const AppResult r = runApp({"--scenario", "ue-drop-ball", "--size", "900x600", "--theme",
                                    "high-contrast", "--export", high});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QImage a(standard), b(high);
        QCOMPARE(a.size(), b.size());
        for (QColor c : {QColor(0xE69F00), QColor(0x0072B2), QColor(0x009E73)}) {
            const int na = pixelsNear(a, c), nb = pixelsNear(b, c);
            QVERIFY2(
                nb > 1.3 * na,
                qPrintable(
                    QString("%1: %2 pixels in high contrast, %3 in standard").arg(c.name()).arg(nb).arg(na)));
        }
    }

    void badThemesAreRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown") << QStringList{"--scenario", "ue-gaussian", "--theme",
                                                "pink",       "--export",    "x.png"}
                                 << "--theme 'pink' is not a theme (standard or high-contrast)";
        QTest::newRow("no export") << QStringList{"--scenario", "ue-gaussian", "--theme", "high-contrast"}
                                   << "--theme applies only to --export";
    }
    void badThemesAreRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const AppResult r = runApp(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    // The file names each series' look, and the high-contrast theme keeps the palette.
    void jsonCarriesTheLook()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("f.json");
        QCOMPARE(runApp({"--scenario", "ue-drop-ball", "--theme", "high-contrast", "--export", out}).exitCode,
                 0);
        const QJsonArray series = readJsonFile(out)["plots"].toArray()[0].toObject()["series"].toArray();
        QStringList looks;
        for (const QJsonValue& v : series) {
            const QJsonObject o = v.toObject();
            looks << QString("%1 %2 %3 %4")
                         .arg(o["name"].toString(), o["colour"].toString(), o["dash"].toString(),
                              o["marker"].toString());
        }
        QCOMPARE(looks, (QStringList{"Prior #000000 dash none", "Jeffrey's rule #e69f00 solid circle",
                                     "Virtual evidence #0072b2 solid diamond",
                                     "Distributional evidence #009e73 solid triangle"}));
    }
};

QTEST_MAIN(TestThemeCommandLine)
#include "test_theme_command_line.moc"
