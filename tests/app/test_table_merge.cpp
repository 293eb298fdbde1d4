// --merge as a user (or a hostile file) meets it: two shards of a small slice of Table 3 are
// made once, then copies of them are broken one way each. Every broken merge is refused with
// one line naming the file, exit 2, nothing written; --allow-partial writes a table that says
// it is partial in every format.
#include "app_process.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

namespace {

using Result = evx::testing::AppResult;

QJsonObject readJson(const QString& path)
{
    return evx::testing::readJsonFile(path);
}

void writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

void writeJson(const QString& path, const QJsonObject& o)
{
    writeBytes(path, QJsonDocument(o).toJson());
}

// A copy of a shard with `edit` applied to its top-level object.
QString edited(const QString& from, const QString& to, const std::function<void(QJsonObject&)>& edit)
{
    QJsonObject o = readJson(from);
    edit(o);
    writeJson(to, o);
    return to;
}

void setRun(QJsonObject& o, int index, const QString& key, const QJsonValue& value)
{
    QJsonArray runs = o.value("runs").toArray();
    QJsonObject run = runs[index].toObject();
    run[key] = value;
    runs[index] = run;
    o["runs"] = runs;
}

} // namespace

class TestTableMerge : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_a, m_b, m_otherSet, m_otherTable;
    const QStringList m_common{"--table", "gb-table3", "--methods", "gen-grid",
                               "--seeds", "2",         "--jobs",    "2"};

    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase()
    {
        m_a = path("a.json");
        m_b = path("b.json");
        m_otherSet = path("b-n40.json");
        QCOMPARE(evx::testing::runApp(m_common + QStringList{"--shard", "1/2", "--export", m_a}).exitCode, 0);
        QCOMPARE(evx::testing::runApp(m_common + QStringList{"--shard", "2/2", "--export", m_b}).exitCode, 0);
        QCOMPARE(evx::testing::runApp(
                     m_common + QStringList{"--set", "n_obs=40", "--shard", "2/2", "--export", m_otherSet})
                     .exitCode,
                 0);
        // What a shard records: every option that changes a number, its slice and the program.
        const QJsonObject p = readJson(m_a).value("provenance").toObject();
        QCOMPARE(p.value("shard").toInt(), 1);
        QCOMPARE(p.value("shards").toInt(), 2);
        QCOMPARE(p.value("total_runs").toInt(), 32); // 16 cells × 2 seeds
        QCOMPARE(p.value("options").toObject().value("--seeds").toInt(), 2);
        QCOMPARE(p.value("options").toObject().value("--methods").toString(), QString("gen-grid"));
        QCOMPARE(p.value("options").toObject().value("cells").toArray().size(), 16);
        QVERIFY(!p.value("version").toString().isEmpty());
        QCOMPARE(readJson(m_otherSet)
                     .value("provenance")
                     .toObject()
                     .value("options")
                     .toObject()
                     .value("n_obs")
                     .toInt(),
                 40);
    }

    void shardsMergeInAnyOrder()
    {
        const Result r = evx::testing::runApp({"--merge", m_b, m_a, "--export", path("m.json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("gb-table3: merged 32 runs from 2 files"), qPrintable(r.err));
        const QJsonObject m = readJson(path("m.json"));
        QCOMPARE(m.value("rows").toArray().size(), 16);
        QVERIFY(!m.contains("partial"));
        QCOMPARE(m.value("provenance").toObject().value("shards").toInt(), 1);
    }

    void refusals_data()
    {
        QTest::addColumn<QStringList>("inputs");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("file"); // the file the message names

        auto broken = [&](const char* name, const std::function<void(QJsonObject&)>& edit) {
            return edited(m_b, path(QString(name) + ".json"), edit);
        };
        QTest::newRow("other --set") << QStringList{m_a, m_otherSet}
                                     << "was run with n_obs = 40, where '" + m_a +
                                            "' has n_obs at its default"
                                     << m_otherSet;
        QTest::newRow("same shard twice") << QStringList{m_a, m_b, m_a} << "is shard 1/2 again" << m_a;
        QTest::newRow("missing shard") << QStringList{m_a} << "shard 2 is missing" << m_a;
        writeBytes(path("empty.json"), {});
        QTest::newRow("empty file") << QStringList{m_a, path("empty.json")} << "did not parse as JSON"
                                    << path("empty.json");
        QFile whole(m_b);
        QVERIFY(whole.open(QIODevice::ReadOnly));
        writeBytes(path("cut.json"), whole.readAll().left(int(whole.size() / 2)));
        QTest::newRow("truncated") << QStringList{m_a, path("cut.json")} << "did not parse as JSON"
                                   << path("cut.json");
        QTest::newRow("string metrics") << QStringList{m_a, broken("strings",
                                                                   [](QJsonObject& o) {
                                                                       for (int i = 0; i < 16; ++i)
                                                                           setRun(o, i, "jsd", "0.5");
                                                                   })}
                                        << "has jsd \"0.5\": not a finite number" << path("strings.json");
        QTest::newRow("seed -7") << QStringList{m_a, broken("minus7",
                                                            [](QJsonObject& o) { setRun(o, 0, "seed", -7); })}
                                 << "has seed -7: not a whole number from 0 to 1" << path("minus7.json");
        QTest::newRow("seed 0.5") << QStringList{m_a,
                                                 broken("half",
                                                        [](QJsonObject& o) { setRun(o, 0, "seed", 0.5); })}
                                  << "has seed 0.5: not a whole number" << path("half.json");
        QTest::newRow("100000 runs") << QStringList{m_a,
                                                    broken("many",
                                                           [](QJsonObject& o) {
                                                               QJsonArray runs;
                                                               const QJsonObject run =
                                                                   o.value("runs").toArray()[0].toObject();
                                                               for (int i = 0; i < 100000; ++i)
                                                                   runs.append(run);
                                                               o["runs"] = runs;
                                                           })}
                                     << "holds 100000 runs, more than the 16 of shard 2/2"
                                     << path("many.json");
        QTest::newRow("cell not kept")
            << QStringList{m_a, broken("vb",
                                       [](QJsonObject& o) {
                                           setRun(o, 0, "truth", "normal");
                                           setRun(o, 0, "divergence", "tvd");
                                           setRun(o, 0, "method", "vb");
                                       })}
            << "run 1 is not a cell of the table ('normal/tvd/vb')" << path("vb.json");
        QTest::newRow("repeated run")
            << QStringList{m_a, broken("repeat",
                                       [](QJsonObject& o) {
                                           QJsonArray runs = o.value("runs").toArray();
                                           runs[1] = runs[0];
                                           o["runs"] = runs;
                                       })}
            << "repeats" << path("repeat.json");
        QTest::newRow("run of another shard")
            << QStringList{m_a, broken("moved",
                                       [&](QJsonObject& o) {
                                           QJsonArray runs = o.value("runs").toArray();
                                           runs[0] = readJson(m_a).value("runs").toArray()[0];
                                           o["runs"] = runs;
                                       })}
            << "belongs to another shard than 2/2" << path("moved.json");
        QTest::newRow("another table")
            << QStringList{m_a, broken("table2", [](QJsonObject& o) { o["table"] = "gb-table2"; })}
            << "is a 'gb-table2' table, where '" + m_a + "' is a gb-table3 table" << path("table2.json");
        QTest::newRow("another version")
            << QStringList{m_a, broken("version",
                                       [](QJsonObject& o) {
                                           QJsonObject p = o.value("provenance").toObject();
                                           p["version"] = "0.0.1 (elsewhere)";
                                           o["provenance"] = p;
                                       })}
            << "was written by version 0.0.1 (elsewhere)" << path("version.json");
        QTest::newRow("no provenance")
            << QStringList{m_a, broken("old", [](QJsonObject& o) { o.remove("provenance"); })}
            << "does not record the options" << path("old.json");
        QTest::newRow("interrupted shard")
            << QStringList{m_a, broken("short",
                                       [](QJsonObject& o) {
                                           QJsonArray runs = o.value("runs").toArray();
                                           runs.removeLast();
                                           o["runs"] = runs;
                                       })}
            << "holds 15 of the 16 runs of shard 2/2" << path("short.json");
        // A number beyond a double is not a number to Qt's parser: the file does not parse.
        QFile b(m_b);
        QVERIFY(b.open(QIODevice::ReadOnly));
        QByteArray text = b.readAll();
        const qsizetype at = text.indexOf("\"jsd\": ") + 7;
        text.replace(at, text.indexOf('\n', at) - at, "1e999");
        writeBytes(path("inf.json"), text);
        QTest::newRow("failure mark without its count")
            << QStringList{m_a, broken("uncounted", [](QJsonObject& o) { setRun(o, 0, "error", "boom"); })}
            << "marks 1 runs failed, where its failed_runs is nothing" << path("uncounted.json");
        QTest::newRow("failure count without its marks")
            << QStringList{m_a, broken("unmarked", [](QJsonObject& o) { o["failed_runs"] = 1; })}
            << "marks 0 runs failed, where its failed_runs is 1" << path("unmarked.json");
        QTest::newRow("failure that is no message")
            << QStringList{m_a, broken("errnum", [](QJsonObject& o) { setRun(o, 0, "error", 3); })}
            << "run 1 has error 3: not a message" << path("errnum.json");
        QTest::newRow("infinite value") << QStringList{m_a, path("inf.json")}
                                        << "did not parse as JSON (illegal number" << path("inf.json");
    }

    void refusals()
    {
        QFETCH(QStringList, inputs);
        QFETCH(QString, reason);
        QFETCH(QString, file);
        const QString out = path("out/t.json");
        QVERIFY(QDir().mkpath(path("out")));
        const Result r = evx::testing::runApp(QStringList{"--merge"} + inputs + QStringList{"--export", out});
        QCOMPARE(r.exitCode, 2);
        const QStringList lines = r.err.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().contains(reason), qPrintable(r.err));
        QVERIFY2(lines.first().contains("--merge: '" + file + "'"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    void aHugeFileIsRefusedBeforeItIsRead()
    {
        // 237 MB (a sparse file: nothing is written to disk), refused by its size at once.
        QFile huge(path("huge.json"));
        QVERIFY(huge.open(QIODevice::WriteOnly));
        QVERIFY(huge.resize(qint64(237) << 20));
        huge.close();
        QElapsedTimer timer;
        timer.start();
        const Result r = evx::testing::runApp({"--merge", m_a, huge.fileName(), "--export", path("h.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("bytes; at most 6.71e+07 are read"), qPrintable(r.err));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString("%1 ms").arg(timer.elapsed())));
        QVERIFY(!QFile::exists(path("h.json")));
    }

    void failedRunsOfAShardStayMarkedInTheMerge()
    {
        // Shard 2 as a run with one failure writes it: the run's values empty, its message, the count.
        const QString failing = edited(m_b, path("failing.json"), [](QJsonObject& o) {
            QJsonObject run = o.value("runs").toArray()[0].toObject();
            for (const QString& key : run.keys())
                if (run.value(key).isDouble() && key != "seed")
                    run[key] = QJsonValue();
            run["error"] = "the run failed";
            QJsonArray runs = o.value("runs").toArray();
            runs[0] = run;
            o["runs"] = runs;
            o["failed_runs"] = 1;
        });
        const QString json = path("f.json"), md = path("f.md");
        const Result r = evx::testing::runApp({"--merge", m_a, failing, "--export", json, "--export", md});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("1 of the merged runs failed"), qPrintable(r.err));
        const QJsonObject o = readJson(json);
        QCOMPARE(o.value("failed_runs").toInt(), 1);
        QCOMPARE(o.value("failures").toArray()[0].toObject().value("error").toString(),
                 QString("the run failed"));
        QFile m(md);
        QVERIFY(m.open(QIODevice::ReadOnly));
        QVERIFY2(m.readAll().contains("**Failed runs**: 1 of the 32 runs failed"), qPrintable(r.err));
        // The merged table merges again and still carries its mark.
        const Result again = evx::testing::runApp({"--merge", json, "--export", path("f2.json")});
        QCOMPARE(again.exitCode, 1);
        QCOMPARE(readJson(path("f2.json")).value("failed_runs").toInt(), 1);
    }

    void allowPartialMarksTheTableInEveryFormat()
    {
        const QString json = path("p.json"), csv = path("p.csv"), md = path("p.md");
        const Result r = evx::testing::runApp(
            {"--merge", m_a, "--allow-partial", "--export", json, "--export", csv, "--export", md});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = readJson(json);
        QCOMPARE(o.value("partial").toBool(), true);
        QVERIFY2(o.value("partial_why").toString().contains("16 of its 32 runs (shard 2 of 2 missing)"),
                 qPrintable(o.value("partial_why").toString()));
        QFile c(csv), m(md);
        QVERIFY(c.open(QIODevice::ReadOnly) && m.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = c.readAll().split('\n');
        QVERIFY2(lines[0].endsWith(",partial") && lines[1].endsWith(",yes"), lines[0].constData());
        QVERIFY(m.readAll().contains("**Partial table**: 16 of its 32 runs"));
        // A merged partial table is a complete statement of what it holds; merging it again is
        // refused without the flag.
        QCOMPARE(evx::testing::runApp({"--merge", json, "--export", path("again.json")}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestTableMerge)
#include "test_table_merge.moc"
