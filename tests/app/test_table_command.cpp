// --table and --merge as a user runs them: the real binary, a small slice of Table 3, shards
// that merge into exactly the unsharded table, and refusals of bad options.
#include "app_process.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Result = evx::testing::AppResult;

Result run(const QStringList& args)
{
    return evx::testing::runApp(args);
}

QJsonObject readJson(const QString& path)
{
    return evx::testing::readJsonFile(path);
}

} // namespace

class TestTableCommand : public QObject {
    Q_OBJECT

private slots:
    void shardsMergeIntoTheWholeTable()
    {
        QTemporaryDir dir;
        const QStringList common{"--table", "gb-table3", "--methods", "gen-grid",
                                 "--seeds", "3",         "--jobs",    "2"};
        const Result whole = run(common + QStringList{"--export", dir.filePath("whole.json"), "--export",
                                                      dir.filePath("whole.md")});
        QCOMPARE(whole.exitCode, 0);
        QVERIFY2(whole.err.contains("48/48 runs"),
                 qPrintable(whole.err)); // 16 cells × 3 seeds, progress on stderr
        QCOMPARE(run(common + QStringList{"--shard", "1/2", "--export", dir.filePath("a.json")}).exitCode, 0);
        QCOMPARE(run(common + QStringList{"--shard", "2/2", "--export", dir.filePath("b.json")}).exitCode, 0);
        QCOMPARE(readJson(dir.filePath("a.json")).value("runs").toArray().size(), 24);
        QCOMPARE(run({"--merge", dir.filePath("a.json"), dir.filePath("b.json"), "--export",
                      dir.filePath("merged.json")})
                     .exitCode,
                 0);
        const QJsonArray rows = readJson(dir.filePath("whole.json")).value("rows").toArray();
        const QJsonArray merged = readJson(dir.filePath("merged.json")).value("rows").toArray();
        QCOMPARE(rows.size(), 16);
        QCOMPARE(merged, rows);
        // A row of the paper's table sits beside ours.
        const QJsonObject first = rows.at(0).toObject();
        QCOMPARE(first.value("truth").toString(), QString("normal"));
        QCOMPARE(first.value("divergence").toString(), QString("tvd"));
        QCOMPARE(first.value("paper").toDouble(), 0.6780);
        QCOMPARE(first.value("seeds").toInt(), 3);
        const double jsd = first.value("mean_jsd").toDouble();
        QVERIFY(jsd > 0 && jsd < std::sqrt(std::log(2.0)));
        QFile md(dir.filePath("whole.md"));
        QVERIFY(md.open(QIODevice::ReadOnly));
        QVERIFY(md.readAll().contains("| normal | tvd | gen-grid |"));
    }

    void calibrationTableScoresCoverage()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("c.json");
        const Result r = run({"--table", "bq-calibration", "--configs", "4", "--methods", "bq",
                              "--strategies", "mc", "--jobs", "2", "--export", out});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray rows = readJson(out).value("rows").toArray();
        QCOMPARE(rows.size(), 3); // n = 10, 25, 50
        for (const QJsonValue& row : rows) {
            const double covered = row.toObject().value("mean_covered").toDouble(-1);
            // A share of four runs, each covered or not.
            QVERIFY2(covered >= 0 && covered <= 1 && std::abs(covered * 4 - std::round(covered * 4)) < 1e-12,
                     qPrintable(QString::number(covered)));
            QCOMPARE(row.toObject().value("configs").toInt(), 4);
        }
        QCOMPARE(run({"--table", "bq-calibration", "--configs", "401", "--export", out}).exitCode, 2);
    }

    void exportTargetsAreCheckedBeforeAnyRun()
    {
        // A folder as the second target was found only when the finished table was written.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("folder.json"));
        const Result r = run({"--table", "gb-table3", "--methods", "gen-grid", "--seeds", "2", "--export",
                              dir.filePath("ok.json"), "--export", dir.filePath("folder.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("folder.json' is a folder") && !r.err.contains("runs"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("ok.json")));
    }

    void badOptionsExitTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown table")
            << QStringList{"--table", "gb-table9", "--export", "t.md"} << "unknown table";
        QTest::newRow("bad shard") << QStringList{"--table", "gb-table2", "--shard",
                                                  "3/2",     "--export",  "t.md"}
                                   << "--shard";
        QTest::newRow("bad method") << QStringList{"--table", "gb-table2", "--methods",
                                                   "mcmc",    "--export",  "t.md"}
                                    << "not a method";
        QTest::newRow("bad seeds") << QStringList{"--table", "gb-table2", "--seeds", "0", "--export", "t.md"}
                                   << "--seeds";
        QTest::newRow("unknown parameter")
            << QStringList{"--table", "gb-table2", "--set", "lambda=3", "--export", "t.md"}
            << "is not a parameter of gb-poisson";
        QTest::newRow("parameter out of range")
            << QStringList{"--table", "gb-table2", "--set", "n_obs=1e300", "--export", "t.md"} << "n_obs";
        QTest::newRow("option of another table")
            << QStringList{"--table", "gb-table2", "--restarts", "3", "--export", "t.md"}
            << "unknown argument";
        QTest::newRow("no export") << QStringList{"--table", "gb-table2"} << "needs --export";
        QTest::newRow("bad format") << QStringList{"--table", "gb-table2", "--export", "t.png"}
                                    << "json, csv or md";
        // Caps the scenarios set, checked before any run: --splits allows 10 000, a split 0 … 99;
        // --epochs 100 000, a BNN on Bimodal's 10 000 points fewer.
        QTest::newRow("splits beyond the scenario")
            << QStringList{"--table", "bnn-synthetic", "--splits", "101", "--export", "t.md"}
            << "--splits 101 --restarts 10: split 100 of cell heavy-tail/bnn-mfvi is refused by bnn-ncai: "
               "split";
        QTest::newRow("epochs beyond the budget")
            << QStringList{"--table",  "bnn-synthetic", "--datasets", "bimodal",
                           "--epochs", "100000",        "--export",   "t.md"}
            << "is refused by bnn-ncai: this run needs";
        QTest::newRow("shard past the runs")
            << QStringList{"--table", "gb-table3", "--methods", "gen-grid", "--seeds",
                           "2",       "--shard",   "33/40",     "--export", "t.md"}
            << "--shard 33/40: the table has 32 runs";
        QTest::newRow("option with merge")
            << QStringList{"--merge", "a.json", "--seeds", "3", "--export", "t.md"}
            << "does not go with --merge";
    }

    void badOptionsExitTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, reason);
        const Result r = run(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(reason), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestTableCommand)
#include "test_table_command.moc"
