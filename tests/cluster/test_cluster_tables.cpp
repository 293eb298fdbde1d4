// The paper tables through the cluster recipes (scripts/cluster/): four shards of gb-table3's
// Gen-grid column on a private single-node Slurm and under GNU parallel, merged, must equal the
// table one process writes. cluster_table_test.sh does the work (daemons, shards, comparison);
// this suite runs it per engine and reads its verdict.
#include <QProcess>
#include <QtTest>

class TestClusterTables : public QObject {
    Q_OBJECT

private slots:
    void mergedShardsEqualOneProcess_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::newRow("slurm") << "slurm";
        QTest::newRow("gnu-parallel") << "parallel";
    }

    void mergedShardsEqualOneProcess()
    {
        QFETCH(QString, engine);
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start("bash", {EVX_SOURCE_DIR "/tests/cluster/cluster_table_test.sh", engine, EVX_APP_BINARY});
        QVERIFY2(p.waitForFinished(560000), "the cluster run did not finish within 560 s");
        const QString out = QString::fromUtf8(p.readAll());
        if (p.exitStatus() == QProcess::NormalExit && p.exitCode() == 77)
            QSKIP(qPrintable(out.trimmed()));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(out));
        QVERIFY2(out.contains("PASS:"), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestClusterTables)
#include "test_cluster_tables.moc"
