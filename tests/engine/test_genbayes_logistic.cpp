// The three logistic classifiers of the generalised-Bayes route, on data whose log density
// ratio is known in closed form, and against their own optimality conditions.
#include "genbayes/logistic.h"

#include "compare_near.h"

#include <Eigen/LU>

#include <QFile>
#include <QtTest>

#include <cmath>
#include <random>

using namespace evx::genbayes;

namespace {

// Class 1 ~ N(1, 1), class 0 ~ N(0, 1.5²), n of each, features (x, x²): the true logit
//   log N(x | 1, 1) − log N(x | 0, 1.5²) = −(x − 1)²/2 + x²/4.5 + log 1.5
// is quadratic, so the features represent it exactly.
LogisticData gaussianPair(int n, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> one(1, 1), zero(0, 1.5);
    LogisticData data{Eigen::MatrixXd(2 * n, 2), Eigen::VectorXd(2 * n)};
    for (int i = 0; i < 2 * n; ++i) {
        const double x = i < n ? one(rng) : zero(rng);
        data.features.row(i) << x, x * x;
        data.labels(i) = i < n ? 1 : 0;
    }
    return data;
}

// The same with `extra` pure-noise features after (x, x²): more than the solvers keep on the
// stack (logistic_small.h), to exercise their dynamic-size path.
LogisticData gaussianPairWithNoise(int n, unsigned seed, int extra)
{
    LogisticData data = gaussianPair(n, seed);
    std::mt19937_64 rng(seed + 1000);
    std::normal_distribution<double> noise;
    data.features.conservativeResize(Eigen::NoChange, 2 + extra);
    for (Eigen::Index i = 0; i < data.features.rows(); ++i)
        for (int k = 0; k < extra; ++k)
            data.features(i, 2 + k) = noise(rng);
    return data;
}

double trueLogRatio(double x)
{
    return -0.5 * (x - 1) * (x - 1) + x * x / 4.5 + std::log(1.5);
}

// The largest |δ(x) − log r(x)| over x ∈ [−2, 2.5], where both classes have their mass.
double worstError(const LogisticFit& fit)
{
    double worst = 0;
    for (double x = -2; x <= 2.5; x += 0.05)
        worst = std::max(
            worst, std::fabs(fit.intercept + fit.weights(0) * x + fit.weights(1) * x * x - trueLogRatio(x)));
    return worst;
}

Eigen::VectorXd probabilities(const LogisticFit& fit, const LogisticData& data)
{
    return (1 / (1 + (-fit.decisions(data.features).array()).exp())).matrix();
}

// The rows of a CSV file under tests/reference, `path` relative to it.
std::vector<std::vector<double>> csvRows(const QString& path)
{
    QFile file(QString(EVX_SOURCE_DIR) + "/tests/reference/" + path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    std::vector<std::vector<double>> rows;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        std::vector<double> row;
        for (const QByteArray& cell : line.split(','))
            row.push_back(cell.toDouble());
        rows.push_back(std::move(row));
    }
    return rows;
}

// One fold of Algorithm 1 saved with scikit-learn's answers (tests/reference/logistic_cv_sklearn):
// label, features, sklearn's decision value, its C; one row per point.
std::vector<std::vector<double>> referenceRows(const QString& name)
{
    return csvRows("logistic_cv_sklearn/" + name + "_sklearn.csv");
}

// Rows of (label, features…, then `trailing` columns that are not features).
LogisticData referenceFold(const std::vector<std::vector<double>>& rows, int trailing = 2)
{
    const Eigen::Index n = Eigen::Index(rows.size()), d = Eigen::Index(rows[0].size()) - 1 - trailing;
    LogisticData data{Eigen::MatrixXd(n, d), Eigen::VectorXd(n)};
    for (Eigen::Index i = 0; i < n; ++i) {
        data.labels(i) = rows[std::size_t(i)][0];
        for (Eigen::Index k = 0; k < d; ++k)
            data.features(i, k) = rows[std::size_t(i)][std::size_t(k + 1)];
    }
    return data;
}

} // namespace

Q_DECLARE_METATYPE(LogisticData)

class TestGenbayesLogistic : public QObject {
    Q_OBJECT

private slots:
    void recoverAKnownGaussianLogRatio_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("vb") << 0;
        QTest::newRow("eb") << 1;
        QTest::newRow("l1-cv") << 2;
    }

    void recoverAKnownGaussianLogRatio()
    {
        // With 5000 points a class the logistic MLE's coefficients have sds of about 0.02–0.03
        // (inverse Fisher information), so over |x| ≤ 2.5 the logit is off by ≲ 0.15 at 3 sd;
        // a prior or a penalty this weak must not add more.
        QFETCH(int, method);
        const LogisticData data = gaussianPair(5000, 11);
        const LogisticFit fit = method == 0   ? fitLogisticVb(data)
                                : method == 1 ? fitLogisticEb(data)
                                              : fitLogisticL1Cv(data);
        QVERIFY(fit.converged);
        const double err = worstError(fit);
        QVERIFY2(err < 0.15, qPrintable(QString("worst |δ − log r| = %1 (b %2, w %3 %4; truth %5 %6 %7)")
                                            .arg(err)
                                            .arg(fit.intercept)
                                            .arg(fit.weights(0))
                                            .arg(fit.weights(1))
                                            .arg(std::log(1.5) - 0.5)
                                            .arg(1.0)
                                            .arg(-0.5 + 1 / 4.5)));
    }

    void ebIsAStationaryPointOfItsPenalisedLoss()
    {
        // At the MAP for the fitted α: Σ (p_n − y_n) z_n + α w (0 for the intercept) = 0.
        const LogisticData data = gaussianPair(90, 3);
        const LogisticFit fit = fitLogisticEb(data);
        QVERIFY(fit.converged);
        const Eigen::VectorXd residual = probabilities(fit, data) - data.labels;
        QVERIFY2(std::fabs(residual.sum() + 1e-6 * fit.intercept) < 1e-8,
                 qPrintable(QString::number(residual.sum())));
        const Eigen::VectorXd g = data.features.transpose() * residual + fit.penalty * fit.weights;
        QVERIFY2(g.cwiseAbs().maxCoeff() < 1e-6, qPrintable(QString("%1 %2").arg(g(0)).arg(g(1))));
    }

    void ebWithAFixedPrecisionIsThatPrecisionsMap()
    {
        // The same stationarity at the given α, which the fit reports and keeps; and it differs
        // from the evidence's α, so the option is not a no-op.
        const LogisticData data = gaussianPair(90, 3);
        for (double alpha : {1e-3, 1.0, 30.0}) {
            const LogisticFit fit = fitLogisticEb(data, EbOptions{.fixedPrecision = alpha});
            QVERIFY(fit.converged);
            QCOMPARE(fit.penalty, alpha);
            const Eigen::VectorXd residual = probabilities(fit, data) - data.labels;
            QVERIFY(std::fabs(residual.sum() + 1e-6 * fit.intercept) < 1e-8);
            const Eigen::VectorXd g = data.features.transpose() * residual + alpha * fit.weights;
            QVERIFY2(g.cwiseAbs().maxCoeff() < 1e-6,
                     qPrintable(QString("α %1: %2 %3").arg(alpha).arg(g(0)).arg(g(1))));
        }
        const double evidence = fitLogisticEb(data).penalty;
        QVERIFY(std::fabs(std::log(evidence)) > 0.1); // 1.0 above is not the evidence's choice
    }

    void ebPrecisionIsAFixedPointOfMacKaysUpdate_data()
    {
        QTest::addColumn<LogisticData>("data");
        QTest::newRow("gaussian pair, 90 a class") << gaussianPair(90, 3);
        QTest::newRow("gaussian pair, 40 a class") << gaussianPair(40, 8);
        QTest::newRow("gaussian pair + 7 noise features") << gaussianPairWithNoise(90, 4, 7);
        QTest::newRow("regression fold (6 features)") << referenceFold(referenceRows("regression"));
        QTest::newRow("poisson fold") << referenceFold(referenceRows("poisson"));
        // A fold of Algorithm 1 at gb-regression's corner θ = (−1, −2, −3) (principal basis,
        // seed 1, n = 90, K = 10) on which undamped Newton steps ran the weights to 1e13 and α
        // to its floor of 1e-12.
        QTest::newRow("regression fold at a far corner")
            << referenceFold(csvRows("genbayes/eb_runaway_fold.csv"), 0);
    }

    void ebPrecisionIsAFixedPointOfMacKaysUpdate()
    {
        // The evidence is stationary in α where α = γ/‖w‖², γ = Σ_j (1 − α (A⁻¹)_jj) over the
        // weights, w the MAP and A = Σ p_n (1 − p_n) z_n z_nᵀ + diag(1e-6, α, …, α) its
        // Hessian, recomputed here point by point. The solver stops when an update would move
        // α by less than 1e-8 relative; its secant lands closer than that.
        QFETCH(LogisticData, data);
        const LogisticFit fit = fitLogisticEb(data);
        QVERIFY(fit.converged);
        const Eigen::Index d = data.features.cols();
        Eigen::MatrixXd a = Eigen::MatrixXd::Zero(d + 1, d + 1);
        for (Eigen::Index i = 0; i < data.features.rows(); ++i) {
            Eigen::VectorXd z(d + 1);
            z << 1, data.features.row(i).transpose();
            const double p = 1 / (1 + std::exp(-fit.decision(data.features.row(i))));
            a += p * (1 - p) * z * z.transpose();
        }
        a(0, 0) += 1e-6;
        a.diagonal().tail(d).array() += fit.penalty;
        const Eigen::MatrixXd covariance = a.fullPivLu().inverse();
        double gamma = 0;
        for (Eigen::Index j = 1; j <= d; ++j)
            gamma += 1 - fit.penalty * covariance(j, j);
        EVX_COMPARE_NEAR(gamma / fit.weights.squaredNorm() / fit.penalty, 1.0, 1e-7);
    }

    void ebPrecisionDivergesWithoutSignal()
    {
        // Every point twice, once in each class: the MAP weights are 0 for any α, the
        // evidence grows without bound in α, and the solver stops at its cap of 1e10.
        LogisticData data = gaussianPair(30, 2);
        data.features = data.features.replicate(2, 1).eval();
        data.labels =
            (Eigen::VectorXd(120) << Eigen::VectorXd::Ones(60), Eigen::VectorXd::Zero(60)).finished();
        const LogisticFit fit = fitLogisticEb(data);
        QVERIFY(fit.converged);
        QCOMPARE(fit.penalty, 1e10);
        EVX_COMPARE_NEAR(fit.weights.cwiseAbs().maxCoeff(), 0.0, 1e-12);
    }

    void vbIsAFixedPointOfItsUpdates_data()
    {
        QTest::addColumn<LogisticData>("data");
        QTest::newRow("gaussian pair, 90 a class") << gaussianPair(90, 3);
        QTest::newRow("gaussian pair + 7 noise features") << gaussianPairWithNoise(90, 4, 7);
        QTest::newRow("regression fold (6 features)") << referenceFold(referenceRows("regression"));
        QTest::newRow("poisson fold") << referenceFold(referenceRows("poisson"));
    }

    void vbIsAFixedPointOfItsUpdates()
    {
        // At the returned E[α], the Jaakkola–Jordan updates of (S, m, ξ) alone, run here point
        // by point to convergence (they contract at ~0.2 a step), must give back the returned
        // mean, and (a0 + d/2)/(b0 + ½(‖m_w‖² + tr S_ww)) the returned E[α]. The solver stops
        // when m moves by less than 1e-7; a linear iteration at rate ρ is then within
        // 1e-7 ρ/(1 − ρ) of its limit, ≤ 1e-6 for ρ ≤ 0.9.
        QFETCH(LogisticData, data);
        const VbOptions options;
        const LogisticFit fit = fitLogisticVb(data, options);
        QVERIFY(fit.converged);
        const Eigen::Index n = data.features.rows(), d = data.features.cols();
        Eigen::MatrixXd z(n, d + 1);
        z << Eigen::VectorXd::Ones(n), data.features;
        Eigen::VectorXd xi = Eigen::VectorXd::Ones(n), m;
        Eigen::MatrixXd s;
        for (int iteration = 0; iteration < 200; ++iteration) {
            Eigen::MatrixXd precision = Eigen::MatrixXd::Zero(d + 1, d + 1);
            Eigen::VectorXd target = Eigen::VectorXd::Zero(d + 1);
            for (Eigen::Index i = 0; i < n; ++i) {
                const double lambda = std::tanh(xi(i) / 2) / (4 * xi(i));
                precision += 2 * lambda * z.row(i).transpose() * z.row(i);
                target += (data.labels(i) - 0.5) * z.row(i).transpose();
            }
            precision(0, 0) += 1e-6;
            precision.diagonal().tail(d).array() += fit.penalty;
            s = precision.fullPivLu().inverse();
            m = s * target;
            for (Eigen::Index i = 0; i < n; ++i)
                xi(i) = std::sqrt((z.row(i) * (s + m * m.transpose()) * z.row(i).transpose()).value());
        }
        EVX_COMPARE_NEAR(fit.intercept, m(0), 1e-6);
        for (Eigen::Index j = 0; j < d; ++j)
            EVX_COMPARE_NEAR(fit.weights(j), m(j + 1), 1e-6);
        const double update = (options.a0 + 0.5 * double(d)) /
                              (options.b0 + 0.5 * (m.tail(d).squaredNorm() + s.diagonal().tail(d).sum()));
        EVX_COMPARE_NEAR(update / fit.penalty, 1.0, 1e-6);
    }

    void vbAndEbAgreeWithMuchData()
    {
        // Both posteriors concentrate on the MLE as n grows; their logits differ by far less
        // than either's error against the truth.
        const LogisticData data = gaussianPair(5000, 5);
        const LogisticFit vb = fitLogisticVb(data), eb = fitLogisticEb(data);
        for (double x : {-2.0, 0.0, 1.0, 2.5}) {
            Eigen::RowVectorXd f(2);
            f << x, x * x;
            QVERIFY2(std::fabs(vb.decision(f) - eb.decision(f)) < 0.01,
                     qPrintable(QString("x=%1: vb %2 eb %3").arg(x).arg(vb.decision(f)).arg(eb.decision(f))));
        }
    }

    void l1SatisfiesItsOptimalityConditions_data()
    {
        QTest::addColumn<int>("nearCopies");
        QTest::addColumn<double>("largestC");
        QTest::newRow("(x, x²)") << 0 << 100.0;
        // Two more features within 1e-3 of x make the weighted Gram matrix nearly singular:
        // cyclic descent alone crawls along the ridge and stopped short of these conditions.
        QTest::newRow("(x, x², two near-copies of x)") << 2 << 1e4;
    }

    void l1SatisfiesItsOptimalityConditions()
    {
        // min ‖w‖₁ + C Σ logloss: C Σ_n (p_n − y_n) x_nj = −sign(w_j) where w_j ≠ 0 and lies in
        // [−1, 1] where w_j = 0; the unpenalised intercept's gradient vanishes.
        QFETCH(int, nearCopies);
        QFETCH(double, largestC);
        LogisticData data = gaussianPair(90, 7);
        std::mt19937_64 rng(3);
        std::normal_distribution<double> jitter(0, 1e-3);
        const Eigen::Index d = 2 + nearCopies;
        data.features.conservativeResize(Eigen::NoChange, d);
        for (Eigen::Index i = 0; i < data.features.rows(); ++i)
            for (Eigen::Index k = 2; k < d; ++k)
                data.features(i, k) = data.features(i, 0) + jitter(rng);
        for (double c : {0.01, 0.1, 1.0, 100.0, largestC}) {
            const LogisticFit fit = fitLogisticL1(data, c);
            QVERIFY2(fit.converged, qPrintable(QString("C=%1").arg(c)));
            const Eigen::VectorXd residual = probabilities(fit, data) - data.labels;
            QVERIFY2(std::fabs(c * residual.sum()) < 1e-5,
                     qPrintable(QString("C=%1: %2").arg(c).arg(c * residual.sum())));
            const Eigen::VectorXd g = c * data.features.transpose() * residual;
            for (Eigen::Index j = 0; j < d; ++j) {
                const QString what =
                    QString("C=%1 j=%2 w=%3 g=%4").arg(c).arg(j).arg(fit.weights(j)).arg(g(j));
                if (fit.weights(j) != 0)
                    QVERIFY2(std::fabs(g(j) + (fit.weights(j) > 0 ? 1 : -1)) < 1e-4, qPrintable(what));
                else
                    QVERIFY2(std::fabs(g(j)) <= 1 + 1e-6, qPrintable(what));
            }
        }
        // The smallest C of the grid zeroes every weight; the intercept is the class logit.
        const LogisticFit tiny = fitLogisticL1(data, 1e-4);
        QCOMPARE(tiny.weights.cwiseAbs().maxCoeff(), 0.0);
        QVERIFY(std::fabs(tiny.intercept) < 1e-6); // balanced classes
    }

    void interceptIsNotShrunk()
    {
        // 70 % ones and a feature that carries no information: every method's intercept is
        // the class logit log(0.7/0.3), not pulled toward 0 by the weights' prior.
        LogisticData data{Eigen::MatrixXd(1000, 1), Eigen::VectorXd(1000)};
        std::mt19937_64 rng(1);
        std::normal_distribution<double> noise;
        for (int i = 0; i < 1000; ++i) {
            data.features(i, 0) = noise(rng);
            data.labels(i) = i % 10 < 7;
        }
        const double logit = std::log(0.7 / 0.3);
        for (const LogisticFit& fit : {fitLogisticVb(data), fitLogisticEb(data), fitLogisticL1Cv(data)})
            QVERIFY2(std::fabs(fit.intercept - logit) < 0.03,
                     qPrintable(QString("%1 vs %2").arg(fit.intercept).arg(logit)));
    }

    void crossValidationAgreesWithScikitLearn_data()
    {
        // One fold of Algorithm 1 each (tests/reference/logistic_cv_sklearn/compare.py):
        // Poisson at λ = 2.5 against NB data and the regression, where CV picks C = 0.36 in
        // both. saga run to tol 1e-12 agrees with ours to 3e-8 and 3e-7 (at tol 1e-8 it
        // stopped 1.4e-6 short of its own converged fit).
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("poisson") << "poisson" << 1e-6;
        QTest::newRow("regression") << "regression" << 1e-6;
    }

    void crossValidationAgreesWithScikitLearn()
    {
        QFETCH(QString, name);
        QFETCH(double, tolerance);
        const std::vector<std::vector<double>> rows = referenceRows(name);
        QCOMPARE(int(rows.size()), 162);
        const LogisticData data = referenceFold(rows);
        const Eigen::Index d = data.features.cols();
        const LogisticFit fit = fitLogisticL1Cv(data);
        QCOMPARE(fit.penalty, rows[0].back());
        double worst = 0;
        for (Eigen::Index i = 0; i < 162; ++i)
            worst = std::max(worst, std::fabs(fit.decision(data.features.row(i)) -
                                              rows[std::size_t(i)][std::size_t(d + 1)]));
        QVERIFY2(worst < tolerance, qPrintable(QString("max |δ − δ_sklearn| = %1").arg(worst)));
    }

    void crossValidationWithAFixedCIsThatFit()
    {
        // L1Options::fixedC skips the search: the fit at that C, which the search would not
        // have chosen here.
        const LogisticData data = gaussianPair(90, 3);
        const double chosen = fitLogisticL1Cv(data).penalty;
        for (double c : {0.01, 10.0}) {
            QVERIFY(std::fabs(std::log(c / chosen)) > 0.1);
            const LogisticFit fixed = fitLogisticL1Cv(data, L1Options{.fixedC = c}),
                              direct = fitLogisticL1(data, c);
            QCOMPARE(fixed.penalty, c);
            QCOMPARE(fixed.intercept, direct.intercept);
            QCOMPARE(fixed.weights, direct.weights);
        }
    }
};

QTEST_GUILESS_MAIN(TestGenbayesLogistic)
#include "test_genbayes_logistic.moc"
