// cmake --install into a scratch prefix: the binary runs from there, and the desktop entry,
// icon and MIME type of sessions agree with each other (issue 14: the desktop knows the app).
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>

namespace {

constexpr auto kSessionType = "application/x-evidence-explorer-session";

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestInstall : public QObject {
    Q_OBJECT

private slots:
    void installedTreeIsComplete()
    {
        QTemporaryDir prefix;
        QProcess install;
        install.start("cmake", {"--install", EVX_BINARY_DIR, "--prefix", prefix.path()});
        QVERIFY(install.waitForFinished(120000));
        QVERIFY2(install.exitCode() == 0, install.readAllStandardError().constData());
        const QDir root(prefix.path());

        // The binary runs from its installed place.
        QProcess run;
        run.start(root.filePath("bin/evidence-explorer"), {"--list-scenarios"});
        QVERIFY(run.waitForFinished(60000));
        QCOMPARE(run.exitCode(), 0);
        QVERIFY(run.readAllStandardOutput().contains("bnn-identifiability"));

        // The desktop entry starts it on a file or a link (%u: a path, a file: URL or evx://…) and
        // claims the session type and the evx: scheme (x-scheme-handler/evx); the MIME
        // package maps *.evx.json to that type; the icon they both name exists and renders.
        const QString desktop = readText(root.filePath("share/applications/evidence-explorer.desktop"));
        QVERIFY(desktop.startsWith("[Desktop Entry]"));
        QVERIFY(desktop.contains("\nExec=evidence-explorer %u\n"));
        QVERIFY(desktop.contains("\nIcon=evidence-explorer\n"));
        QVERIFY(desktop.contains(QString("\nMimeType=%1;x-scheme-handler/evx;\n").arg(kSessionType)));
        const QString mime = readText(root.filePath("share/mime/packages/evidence-explorer-session.xml"));
        QVERIFY(mime.contains(QString("<mime-type type=\"%1\">").arg(kSessionType)));
        QVERIFY(mime.contains("<glob pattern=\"*.evx.json\""));
        QSvgRenderer icon(root.filePath("share/icons/hicolor/scalable/apps/evidence-explorer.svg"));
        QVERIFY(icon.isValid());
        QImage image(64, 64, QImage::Format_ARGB32);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        icon.render(&painter);
        painter.end();
        int drawn = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                drawn += qAlpha(image.pixel(x, y)) > 0;
        QVERIFY2(drawn > 64 * 64 / 2, qPrintable(QString("%1 pixels drawn").arg(drawn)));

        // desktop-file-validate, where installed, has the last word on the entry's syntax.
        const QString validator = QStandardPaths::findExecutable("desktop-file-validate");
        if (!validator.isEmpty()) {
            QProcess validate;
            validate.start(validator, {root.filePath("share/applications/evidence-explorer.desktop")});
            QVERIFY(validate.waitForFinished(30000));
            QVERIFY2(validate.exitCode() == 0, validate.readAllStandardOutput().constData());
        }
    }
};

QTEST_MAIN(TestInstall)
#include "test_install.moc"
