// The BNN+LV tables as studies: the paper's values sit in the right cells (checked against the
// paper's text), every cell names a dataset and inference the scenario knows, NCAI cells run
// the paper's λ selection, and the real sets search the noise variance over the paper's grid.
#include "scenarios/registry.h"
#include "scenarios/studies.h"

#include <QtTest>

#include <cmath>
#include <set>

using namespace evx;

namespace {

const StudyCell& cell(const Study& s, const std::string& dataset, const std::string& inference)
{
    for (const StudyCell& c : s.cells)
        if (c.label("dataset") == dataset && c.label("inference") == inference)
            return c;
    throw std::out_of_range(dataset + "/" + inference);
}

} // namespace

class TestBnnTables : public QObject {
    Q_OBJECT

private slots:
    void cellsCoverEveryDatasetAndInference_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("datasets");
        QTest::newRow("synthetic") << "bnn-synthetic" << 6;
        QTest::newRow("real") << "bnn-real" << 6;
    }

    void cellsCoverEveryDatasetAndInference()
    {
        QFETCH(QString, id);
        QFETCH(int, datasets);
        const Study* s = findStudy(id.toStdString());
        QVERIFY(s);
        QCOMPARE(int(s->cells.size()), datasets * 4);
        const Scenario& ncai = *ScenarioRegistry::instance().find(s->scenarioId);
        // Every run's values pass the scenario's own validation (names known, indices in range).
        for (const StudyCell& c : s->cells) {
            try {
                ncai.schema().complete(s->runValues(c, 4, 9));
            } catch (const std::exception& e) {
                QFAIL(qPrintable(QString::fromStdString(c.label("dataset") + ": " + e.what())));
            }
            QCOMPARE(c.values.count("ncai_selection") == 1, c.label("inference") == "ncai");
        }
    }

    void paperValuesSitInTheirCells_data()
    {
        // Read off ../shared/papers/bnn-latent-variables-ncai.txt, Tables 2-5.
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<QString>("inference");
        QTest::addColumn<QString>("metric");
        QTest::addColumn<double>("paper");
        QTest::newRow("Table 4 Depeweg NCAI") << "bnn-synthetic"
                                              << "depeweg"
                                              << "ncai"
                                              << "test_ll" << -1.973;
        QTest::newRow("Table 2 Depeweg MFVI MI") << "bnn-synthetic"
                                                 << "depeweg"
                                                 << "mfvi"
                                                 << "mi_x_z" << 0.428;
        QTest::newRow("Table 3 Heavy-Tail NCAI HZ") << "bnn-synthetic"
                                                    << "heavy-tail"
                                                    << "ncai"
                                                    << "hz" << 0.027;
        QTest::newRow("Table 5 energy BNN") << "bnn-real"
                                            << "energy"
                                            << "bnn-mfvi"
                                            << "test_ll" << 1.281;
        QTest::newRow("Table 5 wine NCAI") << "bnn-real"
                                           << "wine"
                                           << "ncai"
                                           << "test_ll" << -0.849;
    }

    void paperValuesSitInTheirCells()
    {
        QFETCH(QString, id);
        QFETCH(QString, dataset);
        QFETCH(QString, inference);
        QFETCH(QString, metric);
        QFETCH(double, paper);
        const StudyCell& c =
            cell(*findStudy(id.toStdString()), dataset.toStdString(), inference.toStdString());
        QCOMPARE(c.paperValue(metric.toStdString()).value_or(NAN), paper);
        // No MI or HZ is printed for the BNN without z, nor any row for Bimodal.
        QVERIFY(!cell(*findStudy("bnn-synthetic"), "depeweg", "bnn-mfvi").paperValue("mi_x_z"));
        QVERIFY(!cell(*findStudy("bnn-synthetic"), "bimodal", "ncai").paperValue("test_ll"));
    }

    void realSetsSearchTheNoiseGrid()
    {
        const Study& real = *findStudy("bnn-real");
        const StudyCell& c = cell(real, "yacht", "mfvi");
        std::set<double> noise;
        std::set<std::pair<double, double>> runs;
        for (int k = 0; k < 6; ++k) {
            const ParameterValues v = real.runValues(c, 2, k);
            QCOMPARE(v.at("split"), 2.0);
            noise.insert(v.at("noise_variance"));
            runs.insert({v.at("seed"), v.at("noise_variance")});
        }
        QCOMPARE(noise, (std::set<double>{0.01, 0.1, 1.0}));
        QCOMPARE(int(runs.size()), 6); // two seeds per grid value, no run repeated
        // The synthetic sets keep the scenario's noise variance; restarts change only the seed.
        const Study& synthetic = *findStudy("bnn-synthetic");
        const ParameterValues v = synthetic.runValues(cell(synthetic, "depeweg", "mfvi"), 1, 3);
        QCOMPARE(v.count("noise_variance"), std::size_t(0));
        QCOMPARE(v.at("seed"), 3.0);
    }
};

QTEST_GUILESS_MAIN(TestBnnTables)
#include "test_bnn_tables.moc"
