// --scenario … --export as a user runs it: a run of a few seconds prints progress lines on
// stderr ("ID: 35% (12.4 s)"), their percentages never going back; a fast run prints nothing.
#include "app_process.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// stderr without Qt's note on the shared runtime directory the test process gives it.
QStringList ownLines(const QString& err)
{
    QStringList lines = err.split('\n', Qt::SkipEmptyParts);
    lines.removeIf([](const QString& l) { return l.startsWith("QStandardPaths: "); });
    return lines;
}

// The percentages of the progress lines of `id` in `err`; empty if any other line is there.
QList<int> progressPercentages(const QString& id, const QString& err)
{
    const QRegularExpression line("^" + QRegularExpression::escape(id) + R"(: (\d+)% \(\d+\.\d s\)$)");
    QList<int> percentages;
    for (const QString& l : ownLines(err)) {
        const QRegularExpressionMatch m = line.match(l);
        if (!m.hasMatch()) {
            qWarning("not a progress line: %s", qPrintable(l));
            return {};
        }
        percentages << m.captured(1).toInt();
    }
    return percentages;
}

} // namespace

class TestProgressCommandLine : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void aLongRunPrintsProgress_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QStringList>("sets");
        // Each takes several seconds here (4 s and more in a release build): training and HMC.
        QTest::newRow("bnn-uncertainty") << "bnn-uncertainty" << QStringList{"epochs=5000"};
        QTest::newRow("bnn-ncai") << "bnn-ncai" << QStringList{"epochs=6000"};
    }

    void aLongRunPrintsProgress()
    {
        QFETCH(QString, scenario);
        QFETCH(QStringList, sets);
        QStringList args{"--scenario", scenario};
        for (const QString& s : sets)
            args << "--set" << s;
        const auto r = evx::testing::runApp(args + QStringList{"--export", m_dir.filePath("long.json")});
        QCOMPARE(r.exitCode, 0);
        const QList<int> percentages = progressPercentages(scenario, r.err);
        QVERIFY2(!percentages.isEmpty(), qPrintable(r.err));
        for (qsizetype i = 0; i < percentages.size(); ++i) {
            QVERIFY2(percentages[i] >= 0 && percentages[i] <= 100, qPrintable(r.err));
            if (i > 0)
                QVERIFY2(percentages[i] >= percentages[i - 1], qPrintable(r.err));
        }
    }

    void aFastRunPrintsNothing()
    {
        const auto r =
            evx::testing::runApp({"--scenario", "ue-gaussian", "--export", m_dir.filePath("fast.json")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(ownLines(r.err), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestProgressCommandLine)
#include "test_progress_command_line.moc"
