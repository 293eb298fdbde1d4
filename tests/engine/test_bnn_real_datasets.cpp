// The real BNN+LV data sets (engine/bnn/real_datasets.*): each loader against row counts and
// values from shared/data/SOURCES.md and the files, splits that partition the rows, and
// malformed files refused with one clear message.
#include "bnn/datasets.h"
#include "bnn/real_datasets.h"
#include "compare_near.h"
#include "core/errors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <set>

using namespace evx;
using namespace evx::bnn;

namespace {

const std::string kData = EVX_SOURCE_DIR "/../shared/data/";

void writeFile(const QString& path, const std::string& text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

} // namespace

class TestBnnRealDatasets : public QObject {
    Q_OBJECT

private slots:

    void realTablesMatchTheirSources_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("inputs");
        QTest::addColumn<double>("firstY");
        QTest::newRow("lidar") << "lidar" << 221 << 1 << -0.05035573;
        QTest::newRow("yacht") << "yacht" << 308 << 6 << 0.11;
        QTest::newRow("energy") << "energy" << 768 << 8 << 15.55;
        QTest::newRow("airfoil") << "airfoil" << 1503 << 5 << 126.201;
        QTest::newRow("abalone") << "abalone" << 4177 << 10 << 15.0;
        QTest::newRow("wine") << "wine" << 1599 << 11 << 5.0;
    }
    void realTablesMatchTheirSources()
    {
        QFETCH(QString, id);
        QFETCH(int, rows);
        QFETCH(int, inputs);
        QFETCH(double, firstY);
        const DatasetInfo& info = datasetInfo(id.toStdString());
        const RealTable t = readRealTable(info.id, kData + info.fileName);
        QCOMPARE(int(t.y.size()), rows);
        QCOMPARE(int(t.x.cols()), inputs);
        QCOMPARE(int(t.inputNames.size()), inputs);
        QCOMPARE(t.y(0), firstY);
    }

    void realTablesHoldTheDocumentedValues()
    {
        const RealTable lidar = readRealTable("lidar", kData + "lidar.csv");
        QCOMPARE(lidar.x.minCoeff(), 390.0); // SOURCES.md: range 390–720
        QCOMPARE(lidar.x.maxCoeff(), 720.0);
        const RealTable energy = readRealTable("energy", kData + "uci_energy.csv");
        QCOMPARE(energy.y(30), 6.366); // SOURCES.md: row 31, Y1 = 6.366
        QCOMPARE(energy.x(0, 1), 514.5);
        const RealTable abalone = readRealTable("abalone", kData + "uci_abalone.csv");
        QCOMPARE(abalone.inputNames[0], std::string("sex_M"));
        QCOMPARE(abalone.inputNames[3], std::string("length"));
        // One level per row; counts as in the UCI description (M 1528, F 1307, I 1342).
        QVERIFY((abalone.x.leftCols(3).rowwise().sum().array() == 1).all());
        QCOMPARE(abalone.x.col(0).sum(), 1528.0);
        QCOMPARE(abalone.x.col(1).sum(), 1307.0);
        QCOMPARE(abalone.x.col(2).sum(), 1342.0);
        QCOMPARE(abalone.x(0, 3), 0.455); // first row: M, 0.455, …
        QCOMPARE(abalone.y.minCoeff(), 1.0);
        QCOMPARE(abalone.y.maxCoeff(), 29.0);
    }

    void realSplitsPartitionTheRows_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("total");
        QTest::addColumn<int>("train");
        QTest::addColumn<int>("validation");
        QTest::newRow("lidar") << "lidar" << 221 << 155 << 44;
        QTest::newRow("yacht") << "yacht" << 308 << 216 << 62;
        QTest::newRow("energy") << "energy" << 768 << 538 << 154;
        QTest::newRow("airfoil") << "airfoil" << 1000 << 700 << 200;
        QTest::newRow("abalone") << "abalone" << 1000 << 700 << 200;
        QTest::newRow("wine") << "wine" << 1599 << 1119 << 320;
    }
    void realSplitsPartitionTheRows()
    {
        QFETCH(QString, id);
        QFETCH(int, total);
        QFETCH(int, train);
        QFETCH(int, validation);
        const DatasetInfo& info = datasetInfo(id.toStdString());
        const std::string path = kData + info.fileName;
        const RealTable table = readRealTable(info.id, path);
        std::set<int> first;
        for (int k = 0; k < 3; ++k) {
            const Dataset d = makeDataset(info.id, 3, k, path);
            QCOMPARE(int(d.train.size()), train);
            QCOMPARE(int(d.validation.size()), validation);
            QCOMPARE(int(d.test.size()), total - train - validation);
            std::set<int> all;
            for (const DataSplit* s : {&d.train, &d.validation, &d.test})
                for (int r : s->rows)
                    QVERIFY2(all.insert(r).second, qPrintable(QString("row %1 is in two splits").arg(r)));
            QCOMPARE(int(all.size()), total);
            if (k == 0)
                first = all;
            else // the subsample depends on the seed only: every split index shares it
                QVERIFY(all == first);
            // Each split row is the file's row, unchanged.
            const int r = d.test.rows[2];
            QVERIFY(d.test.x.row(2) == table.x.row(r));
            QCOMPARE(d.test.y(2), table.y(r));
            // Standardised with the training rows alone.
            Eigen::RowVectorXd mean = Eigen::RowVectorXd::Zero(table.x.cols());
            for (int tr : d.train.rows)
                mean += table.x.row(tr);
            mean /= double(train);
            QVERIFY2((d.scaling.xMean - mean).cwiseAbs().maxCoeff() <=
                         1e-12 * (1 + mean.cwiseAbs().maxCoeff()),
                     qPrintable(QString("%1 vs %2").arg(d.scaling.xMean(0)).arg(mean(0))));
        }
        const Dataset a = makeDataset(info.id, 3, 0, path), b = makeDataset(info.id, 3, 1, path);
        QVERIFY(a.train.rows != b.train.rows);
        if (total == int(table.y.size())) {
            QVERIFY(first.size() == std::size_t(total));
        } else {
            const Dataset other = makeDataset(info.id, 4, 0, path);
            std::set<int> otherRows(other.train.rows.begin(), other.train.rows.end());
            QVERIFY(otherRows != std::set<int>(a.train.rows.begin(), a.train.rows.end()));
        }
    }

    void constantInputColumnStaysFinite()
    {
        // An input constant over the training rows has sd 0: it keeps sd 1 and becomes 0
        // rather than NaN.
        QTemporaryDir dir;
        const QString path = dir.path() + "/lidar.csv";
        std::string text = "range,logratio\n";
        for (int i = 0; i < 20; ++i)
            text += "500," + std::to_string(0.1 * i) + "\n";
        writeFile(path, text);
        const Dataset d = makeDataset("lidar", 2, 0, path.toStdString());
        QCOMPARE(d.scaling.xSd(0), 1.0);
        QCOMPARE(d.scaling.xMean(0), 500.0);
        QVERIFY(d.scaling.apply(d.test).x.isZero(0));
        QCOMPARE(int(d.train.size() + d.validation.size() + d.test.size()), 20);
    }

    void badInputIsRefusedWithAClearMessage_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("content"); // empty: no file at all
        QTest::addColumn<QString>("message");
        QTest::newRow("missing file") << "lidar"
                                      << ""
                                      << "lidar.csv";
        QTest::newRow("missing column") << "lidar"
                                        << "range,ratio\n1,2\n"
                                        << "no column 'logratio'";
        QTest::newRow("not a number") << "lidar"
                                      << "range,logratio\n1,2\n3,abc\n"
                                      << "'abc', not a number";
        QTest::newRow("empty cell") << "lidar"
                                    << "range,logratio\n1,2\n3,\n"
                                    << "not a number";
        QTest::newRow("too few rows") << "lidar"
                                      << "range,logratio\n1,2\n3,4\n"
                                      << "at least 10";
        std::string constant = "range,logratio\n";
        for (int i = 0; i < 12; ++i)
            constant += std::to_string(400 + i) + ",0.5\n";
        QTest::newRow("constant y") << "lidar" << QString::fromStdString(constant) << "all equal";
        QTest::newRow("bad sex") << "abalone"
                                 << "sex,length,diameter,height,whole_weight,shucked_weight,viscera_weight,"
                                    "shell_weight,rings\nX,1,1,1,1,1,1,1,3\n"
                                 << "not one of M, F, I";
        QTest::newRow("synthetic from a file") << "depeweg"
                                               << "x\n1\n"
                                               << "synthetic";
    }
    void badInputIsRefusedWithAClearMessage()
    {
        QFETCH(QString, id);
        QFETCH(QString, content);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = dir.path() + "/lidar.csv";
        if (!content.isEmpty())
            writeFile(path, content.toStdString());
        try {
            if (id == "depeweg")
                readRealTable(id.toStdString(), path.toStdString());
            else
                makeDataset(id.toStdString(), 1, 0, path.toStdString());
            QFAIL("bad input was accepted");
        } catch (const InvalidParameter& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
        try {
            makeDataset("yacht", 1, 0, "");
            QFAIL("a real set without a path was accepted");
        } catch (const InvalidParameter& e) {
            QVERIFY2(QString(e.what()).contains("uci_yacht.csv"), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestBnnRealDatasets)
#include "test_bnn_real_datasets.moc"
