// bnn-ncai against independent computations: the latent statistics recomputed from the JSON
// data alone (training x standardised by its own statistics, μ_z), the test log-likelihood
// between a trivial baseline and the true generator's (a ceiling), partial figures while it
// trains (and fractions alone when no figure is wanted), cancellation, and one clear message for
// every kind of bad input.
#include "bnn/datasets.h"
#include "bnn/synthetic_datasets.h"
#include "compare_near.h"
#include "core/errors.h"
#include "scenarios/bnn/bnn_training.h"
#include "scenarios/registry.h"
#include "stats/mutual_information.h"
#include "stats/normality.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>

using namespace evx;

namespace {

const Scenario& ncai()
{
    return *ScenarioRegistry::instance().find("bnn-ncai");
}

// Goldberg: 200 training points, 20 hidden units; short runs keep the suite quick.
ParameterValues quick(int inference, int epochs = 600)
{
    return {{"dataset", 1},
            {"inference", inference},
            {"epochs", epochs},
            {"warm_start_epochs", 300},
            {"predictive_draws", 1000}};
}

bool sameOrBothNan(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

std::vector<double> column(const Figure& f, const std::string& name)
{
    for (const auto& [key, values] : f.data)
        if (key == name)
            return values;
    return {};
}

Eigen::VectorXd asVector(const std::vector<double>& v)
{
    return Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
}

} // namespace

class TestBnnNcai : public QObject {
    Q_OBJECT

private slots:
    void latentStatisticsRecomputeFromTheExport()
    {
        const Figure f = ncai().run(quick(1), {});
        const Eigen::VectorXd x = asVector(column(f, "x")), y = asVector(column(f, "y"));
        const Eigen::VectorXd mu = asVector(column(f, "latent.mu")), sd = asVector(column(f, "latent.sd"));
        QCOMPARE(x.size(), Eigen::Index(200));
        QCOMPARE(y.size(), x.size());
        QCOMPARE(mu.size(), x.size());
        QCOMPARE(sd.size(), x.size());
        QVERIFY((sd.array() > 0).all());
        // The network sees x standardised by the training set's mean and (1/N) sd.
        const Eigen::VectorXd xs = (x.array() - x.mean()) / std::sqrt((x.array() - x.mean()).square().mean());
        EVX_COMPARE_NEAR(f.summary.value("mi_x_z"), stats::ksgMutualInformation(xs, mu, 5), 1e-12);
        EVX_COMPARE_NEAR(f.summary.value("hz"), stats::henzeZirkler(mu), 1e-12);
        const double sz = std::sqrt(f.summary.value("latent_variance"));
        EVX_COMPARE_NEAR(f.summary.value("ks"),
                         stats::kolmogorovSmirnovNormal({mu.data(), mu.data() + mu.size()}, sz), 1e-12);
    }

    void testLikelihoodLiesBetweenABaselineAndTheTruth_data()
    {
        QTest::addColumn<int>("inference");
        QTest::newRow("bnn-mfvi") << 0;
        QTest::newRow("mfvi") << 1;
        QTest::newRow("ncai-0") << 2;
        QTest::newRow("ncai") << 3;
    }
    void testLikelihoodLiesBetweenABaselineAndTheTruth()
    {
        QFETCH(int, inference);
        const Figure f = ncai().run(quick(inference, 1500), {});
        // The same test split, drawn here: the truth's own log-density is a ceiling (up to the
        // split's sampling noise, ~0.05 nats at 200 points) and a Gaussian with the training
        // mean and variance a floor any fitted network should clear.
        const bnn::Dataset data = bnn::makeDataset("goldberg", 0, 0);
        const double truth = bnn::syntheticLogLikelihood(data, data.test);
        const bnn::DataSplit test = data.scaling.apply(data.test);
        const double floor = -0.5 * std::log(2 * M_PI) - 0.5 * test.y.squaredNorm() / double(test.size());
        const double ll = f.summary.value("test_ll");
        QVERIFY2(ll < truth + 0.1 && ll > floor,
                 qPrintable(QString("test LL %1, truth %2, baseline %3").arg(ll).arg(truth).arg(floor)));
        QVERIFY(f.summary.value("picp") > 0.8 && f.summary.value("picp") <= 1);
        QVERIFY(f.summary.value("mpiw") > 0 && f.summary.value("rmse") > 0);
        QCOMPARE(f.summary.value("predictive_draws"), 1000.0);
        QCOMPARE(f.summary.contains("mi_x_z"), inference != 0);
    }

    void selectionKeepsTheBetterValidationLikelihood()
    {
        ParameterValues v = quick(3);
        v["ncai_selection"] = 1;
        const Figure f = ncai().run(v, {});
        QCOMPARE(f.tables.size(), std::size_t(1));
        const auto& rows = f.tables.front().rows;
        QCOMPARE(rows.size(), std::size_t(2));
        const double zero = std::stod(rows[0][1]), penalised = std::stod(rows[1][1]);
        const bool zeroWins = zero > penalised;
        QCOMPARE(f.summary.value("selected_lambda_zero"), zeroWins ? 1.0 : 0.0);
        EVX_COMPARE_NEAR(f.summary.value("val_ll"), std::max(zero, penalised), 1e-4);
    }

    void partialFiguresArriveWhileItTrains()
    {
        std::vector<Figure> partial;
        const std::atomic<bool> cancel{false};
        const RunContext context(&cancel, [&](const Figure& f, double) { partial.push_back(f); });
        ncai().run(quick(1, 1500), context);
        QVERIFY(!partial.empty());
        QVERIFY(partial.front().warnings.front().rfind("Training: epoch", 0) == 0);
    }

    void progressEveryFewEpochsLeavesTheTrainingAsItWas()
    {
        using namespace scenarios;
        const bnn_eval::PreparedData data = bnn_eval::prepare(bnn::makeDataset("goldberg", 0, 0));
        bnn::BnnConfig c;
        c.variant = bnn::Variant::Ncai;
        c.hidden = {8};
        c.warmStartEpochs = 50;
        c.seed = 3;
        const std::atomic<bool> cancel{false};
        const RunContext context(&cancel, {});
        const bnn_training::TrainedRun plain = bnn_training::train(data, c, 250, 100, context);
        std::vector<int> epochs;
        const bnn_training::TrainedRun watched =
            bnn_training::train(data, c, 250, 100, context, [&](const bnn_training::TrainedRun& r, double) {
                epochs.push_back(r.snapshot.epoch);
            });
        // 300 epochs in slices of 20 that stop at 100 and 200: 15 calls, the first two (20 and 40
        // epochs) in the warm start, where no VI epoch has run.
        QCOMPARE(int(epochs.size()), 15);
        QCOMPARE(epochs[0], 0);
        QCOMPARE(epochs[1], 0);
        QCOMPARE(epochs[2], 10);
        QCOMPARE(epochs.back(), 250);
        QVERIFY(plain.snapshot.weightMean == watched.snapshot.weightMean);
        QVERIFY(plain.snapshot.latentMean == watched.snapshot.latentMean);
        QCOMPARE(watched.trace.size(), plain.trace.size());
        for (std::size_t i = 0; i < plain.trace.size(); ++i) {
            const bnn_training::TracePoint &a = plain.trace[i], &b = watched.trace[i];
            QCOMPARE(b.epoch, a.epoch);
            QVERIFY(sameOrBothNan(a.elbo, b.elbo) && sameOrBothNan(a.testLogLik, b.testLogLik) &&
                    sameOrBothNan(a.mutualInformation, b.mutualInformation) &&
                    sameOrBothNan(a.henzeZirkler, b.henzeZirkler));
        }
        // The validation score without the intervals is the same number.
        QCOMPARE(bnn_eval::predictiveLogLikelihood(plain.snapshot, data, data.validation, 300, 5),
                 bnn_eval::predictiveMetrics(plain.snapshot, data, data.validation, 300, 5).logLikelihood);
    }

    void fractionsArriveWithoutPartialFigures()
    {
        // As the command line's progress lines follow a run: fractions only, none of them a
        // figure, rising through the training to the test metrics.
        std::vector<double> fractions;
        RunContext context;
        context.followFraction([&](double fraction) { fractions.push_back(fraction); });
        QVERIFY(!context.wantsProgress());
        ncai().run(quick(1, 600), context);
        QVERIFY2(fractions.size() >= 10, qPrintable(QString::number(fractions.size())));
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QVERIFY2(fractions.front() > 0 && fractions.front() < 0.2,
                 qPrintable(QString::number(fractions.front())));
        QVERIFY2(fractions.back() >= 0.99 && fractions.back() <= 1,
                 qPrintable(QString::number(fractions.back())));
    }

    void aWarmStartShowsBeforeTraining()
    {
        std::vector<Figure> partial;
        const std::atomic<bool> cancel{false};
        const RunContext context(&cancel, [&](const Figure& f, double) { partial.push_back(f); });
        ncai().run(quick(3, 200), context);
        QVERIFY(!partial.empty());
        QVERIFY(partial.front().warnings.front().rfind("Warm start", 0) == 0);
    }

    void aCancelledRunStops()
    {
        std::atomic<bool> cancel{false};
        int seen = 0;
        const RunContext context(&cancel, [&](const Figure&, double) {
            if (++seen == 1)
                cancel = true;
        });
        QVERIFY_THROWS_EXCEPTION(Cancelled, ncai().run(quick(1, 20000), context));
    }

    void realDataSetsAreFoundBesideAnOpenedFile()
    {
        // lidar.csv opened, yacht asked for: yacht's file beside it is used (216 of 308 rows train).
        ParameterValues v = quick(1, 200);
        v["dataset"] = 7;
        const Figure f = ncai().runWith({v, {}, EVX_SOURCE_DIR "/../shared/data/lidar.csv"}, {});
        QCOMPARE(column(f, "y").size(), std::size_t(216));
        QCOMPARE(column(f, "x6").size(), std::size_t(216)); // six inputs, one column each
        QVERIFY(std::isfinite(f.summary.value("test_ll")));
    }

    void badInputGetsOneClearMessage()
    {
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, ncai().run({{"dataset", 12}}, {}));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, ncai().run({{"epochs", 0}}, {}));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, ncai().run({{"learning_rate", NAN}}, {}));
        // A real data set from a file without its columns.
        QTemporaryDir dir;
        const std::string path = dir.filePath("broken.csv").toStdString();
        std::ofstream(path) << "a,b\n1,2\n3,4\n";
        try {
            ncai().runWith({{{"dataset", 6}}, {}, path}, {});
            QFAIL("a file without lidar's columns was accepted");
        } catch (const InvalidParameter& e) {
            QVERIFY2(std::string(e.what()).find("range") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestBnnNcai)
#include "test_bnn_ncai.moc"
