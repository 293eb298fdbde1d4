// QBENCHMARK of the generalised-Bayes pieces the issue sets targets for: one classifier fit
// (n = 81 observed against 81 simulated, Poisson and regression features) per solver, and
// Algorithm 1 evaluations (10 folds). Run directly for figures; CTest runs each once.
#include "genbayes/logistic.h"
#include "genbayes/ratio_estimation.h"

#include <QFile>
#include <QTextStream>
#include <QtTest>

using namespace evx::genbayes;

namespace {

LogisticData foldData(const GbModel& model, const Truth& truth, const Eigen::VectorXd& theta)
{
    std::mt19937_64 rng(1);
    const Points observed = truth.sample(81, rng);
    const Points simulated = model.simulate(theta, 81, rng);
    const Eigen::MatrixXd fo = model.features(observed, observed), fs = model.features(simulated, observed);
    LogisticData d{Eigen::MatrixXd(162, fo.cols()), Eigen::VectorXd(162)};
    d.features << fs, fo;
    d.labels << Eigen::VectorXd::Ones(81), Eigen::VectorXd::Zero(81);
    return d;
}

void dumpFoldData(const QString& path, const LogisticData& d, const LogisticFit& fit)
{
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    QTextStream out(&f);
    out.setRealNumberPrecision(17);
    for (Eigen::Index i = 0; i < d.features.rows(); ++i) {
        out << d.labels(i);
        for (Eigen::Index k = 0; k < d.features.cols(); ++k)
            out << ',' << d.features(i, k);
        out << ',' << fit.decision(d.features.row(i)) << ',' << fit.penalty << '\n';
    }
    QVERIFY(f.flush());
}

} // namespace

class BenchGenbayes : public QObject {
    Q_OBJECT

private slots:
    void classifierFit_data()
    {
        QTest::addColumn<int>("solver");
        QTest::addColumn<bool>("regression");
        for (bool regression : {false, true}) {
            const char* model = regression ? "regression (6 features)" : "poisson (1 feature)";
            QTest::addRow("vb, %s", model) << 0 << regression;
            QTest::addRow("eb, %s", model) << 1 << regression;
            QTest::addRow("cv, %s", model) << 2 << regression;
        }
    }

    void classifierFit()
    {
        QFETCH(int, solver);
        QFETCH(bool, regression);
        const auto model = regression ? regressionModel() : poissonModel();
        const Truth truth = regression ? regressionTruth(0, -1, 0.5, 3) : negBinTruth(10, 0.8);
        const LogisticData d = foldData(*model, truth,
                                        regression ? Eigen::Vector3d(0, -1, std::log(0.25)).eval()
                                                   : Eigen::VectorXd::Constant(1, 2.5));
        // For the side-by-side with scikit-learn (tests/reference/logistic_cv_sklearn): the
        // exact fold data, and our decision values on it.
        if (const QByteArray dir = qgetenv("EVX_DUMP_FOLD_DATA"); !dir.isEmpty() && solver == 2)
            dumpFoldData(dir + (regression ? "/regression.csv" : "/poisson.csv"), d, fitLogisticL1Cv(d));
        LogisticFit fit;
        QBENCHMARK
        {
            fit = solver == 0 ? fitLogisticVb(d) : solver == 1 ? fitLogisticEb(d) : fitLogisticL1Cv(d);
        }
        QVERIFY(fit.weights.allFinite());
    }

    void algorithmOneEvaluation_data()
    {
        QTest::addColumn<bool>("regression");
        QTest::newRow("vb, poisson at lambda = 2.5") << false;
        // A corner of the box where most folds are nearly separable: the slowest L1 case.
        QTest::newRow("cv, regression at theta = (-1, -2, -3)") << true;
    }

    void algorithmOneEvaluation()
    {
        QFETCH(bool, regression);
        const auto model = regression ? regressionModel() : poissonModel();
        const Truth truth = regression ? regressionTruth(0, -1, 0.5, 0) : negBinTruth(10, 0.8);
        std::mt19937_64 rng(regression ? 1 : 2);
        const Points x = truth.sample(90, rng);
        const Eigen::VectorXd theta =
            regression ? Eigen::Vector3d(-1, -2, -3).eval() : Eigen::VectorXd::Constant(1, 2.5);
        Eigen::VectorXd delta;
        QBENCHMARK
        {
            delta = regression ? classifierLogRatios(*model, x, theta, Classifier::Cv, 10, 7,
                                                     SimulationDesign::Independent, FeatureBasis::Principal)
                               : classifierLogRatios(*model, x, theta, Classifier::Vb, 10, 7);
        }
        QCOMPARE(delta.size(), Eigen::Index(90));
    }
};

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    BenchGenbayes bench;
    QStringList args = app.arguments();
    if (qEnvironmentVariableIsSet("EVX_BENCH_SMOKE"))
        args << "-iterations"
             << "1";
    return QTest::qExec(&bench, args);
}

#include "bench_genbayes.moc"
