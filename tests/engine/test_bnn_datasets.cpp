// The BNN+LV data-set registry and synthetic generators (engine/bnn/datasets.*): each generator's
// conditional moments and input distribution against its formula (written here independently),
// and standardisation by training statistics only. The real loaders: test_bnn_real_datasets.
#include "bnn/datasets.h"
#include "bnn/synthetic_datasets.h"
#include "compare_near.h"
#include "core/errors.h"
#include "stats/normality.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>

using namespace evx;
using namespace evx::bnn;

namespace {

const double kPi = std::numbers::pi;
const std::string kData = EVX_SOURCE_DIR "/../shared/data/";

double normalCdf(double t, double mean, double sd)
{
    return 0.5 * std::erfc(-(t - mean) / (sd * std::sqrt(2.0)));
}

// f(x, z) of App. G, written out afresh.
double formulaF(const std::string& id, double x, double z)
{
    if (id == "heavy-tail")
        return 6 * std::tanh(0.1 * std::pow(x, 3) * std::pow(z + 1, 6) - 10 * x * z * z + z);
    if (id == "depeweg")
        return 7 * std::sin(x) + 3 * std::abs(std::cos(x / 2)) * z;
    if (id == "bimodal")
        return z > 0 ? 10 * std::sin(x) : 10 * std::cos(x);
    if (id == "goldberg")
        return 2 * std::sin(2 * kPi * x);
    if (id == "yuan")
        return 2 * std::exp(-30 * std::pow(x - 0.25, 2) + std::sin(kPi * x * x)) - 2;
    return std::sin(2.5 * x) * std::sin(1.5 * x); // williams
}

// Mean and variance of y given x, from the paper's App. G formulas written out afresh:
// closed forms where z enters linearly or as a sign, a trapezoid over z for Heavy-Tail (the
// integrand is smooth and decays like a Gaussian, so a fine grid is exact to ~1e-12).
std::pair<double, double> conditionalMoments(const std::string& id, double x)
{
    if (id == "depeweg")
        return {7 * std::sin(x), 9 * std::pow(std::cos(x / 2), 2) * 1.0 + 0.1};
    if (id == "bimodal") // z > 0 with probability ½: an equal mixture of N(10 sin x, 1), N(10 cos x, 1)
        return {5 * (std::sin(x) + std::cos(x)), 1 + 25 * std::pow(std::sin(x) - std::cos(x), 2)};
    if (id == "goldberg")
        return {2 * std::sin(2 * kPi * x), x + 0.5};
    if (id == "yuan")
        return {2 * std::exp(-30 * std::pow(x - 0.25, 2) + std::sin(kPi * x * x)) - 2,
                std::exp(std::sin(2 * kPi * x))};
    if (id == "williams")
        return {std::sin(2.5 * x) * std::sin(1.5 * x), 0.01 + 0.25 * std::pow(1 - std::sin(2.5 * x), 2)};
    // heavy-tail: z ~ N(0, 0.01), ε ~ N(0, 0.1)
    double m1 = 0, m2 = 0, mass = 0;
    const double sz = 0.1, h = sz / 200;
    for (double z = -10 * sz; z <= 10 * sz; z += h) {
        const double w = std::exp(-0.5 * z * z / (sz * sz));
        const double f = formulaF("heavy-tail", x, z);
        m1 += w * f;
        m2 += w * f * f;
        mass += w;
    }
    m1 /= mass;
    m2 /= mass;
    return {m1, m2 - m1 * m1 + 0.1};
}

} // namespace

class TestBnnDatasets : public QObject {
    Q_OBJECT

private slots:
    void registryHoldsTheTwelveSets()
    {
        const std::vector<std::string> ids = {"heavy-tail", "goldberg", "williams", "yuan",
                                              "depeweg",    "bimodal",  "lidar",    "yacht",
                                              "energy",     "airfoil",  "abalone",  "wine"};
        QCOMPARE(datasets().size(), ids.size());
        for (std::size_t i = 0; i < ids.size(); ++i)
            QCOMPARE(datasets()[i].id, ids[i]);
        // Widths (units × layers) of METHODS.md §5.
        const std::vector<std::pair<int, int>> widths = {{50, 1}, {20, 1}, {20, 2}, {20, 1},
                                                         {50, 1}, {50, 2}, {10, 1}, {5, 1},
                                                         {10, 1}, {30, 1}, {10, 1}, {20, 1}};
        for (std::size_t i = 0; i < ids.size(); ++i) {
            QCOMPARE(datasets()[i].hiddenUnits, widths[i].first);
            QCOMPARE(datasets()[i].hiddenLayers, widths[i].second);
        }
        QCOMPARE(datasetInfo("depeweg").sigmaZ2, 1.0);
        QCOMPARE(datasetInfo("heavy-tail").sigmaZ2, 0.01);
        QCOMPARE(datasetInfo("bimodal").sigmaEps2, 1.0);
        QVERIFY(std::isnan(datasetInfo("goldberg").sigmaEps2));
        QVERIFY(datasetInfo("williams").reportScale == YScale::Raw);
        QVERIFY(datasetInfo("goldberg").reportScale == YScale::Standardised);
        QVERIFY(datasetInfo("yuan").reportScale == YScale::Standardised);
        QCOMPARE(datasetInfo("energy").targetColumn, std::string("Y1"));
        try {
            datasetInfo("boston");
            QFAIL("an unknown id was accepted");
        } catch (const InvalidParameter& e) {
            QVERIFY2(std::string(e.what()).find("unknown BNN data set 'boston'") != std::string::npos,
                     e.what());
            QVERIFY2(std::string(e.what()).find("heavy-tail") != std::string::npos, e.what());
        }
    }

    void generatorsMatchTheirConditionalMoments_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("x");
        for (const char* id : {"heavy-tail", "depeweg", "bimodal"})
            for (double x : {-3.0, -0.4, 0.3, 1.7})
                QTest::newRow(qPrintable(QString("%1 at %2").arg(id).arg(x))) << QString(id) << x;
        for (const char* id : {"goldberg", "yuan", "williams"})
            for (double x : {0.05, 0.3, 0.62, 0.95})
                QTest::newRow(qPrintable(QString("%1 at %2").arg(id).arg(x))) << QString(id) << x;
    }
    void generatorsMatchTheirConditionalMoments()
    {
        QFETCH(QString, id);
        QFETCH(double, x);
        const int m = 40000;
        std::mt19937_64 rng(7);
        const DataSplit s = sampleSyntheticAt(id.toStdString(), Eigen::VectorXd::Constant(m, x), rng);
        const auto [mean, variance] = conditionalMoments(id.toStdString(), x);
        const double sampleMean = s.y.mean();
        const Eigen::ArrayXd sq = (s.y.array() - sampleMean).square();
        const double sampleVar = sq.mean();
        // 5 standard errors, each from the sample's own spread (the CLT; fourth moments differ
        // widely between these sets), so a wrong coefficient (≥ 5 % of the variance) fails.
        const double sqSd = std::sqrt((sq - sampleVar).square().mean());
        EVX_COMPARE_NEAR(sampleMean, mean, 5 * std::sqrt(sampleVar / m));
        EVX_COMPARE_NEAR(sampleVar, variance, 5 * sqSd / std::sqrt(double(m)));
        // y − f is N(0, noiseVariance): the mean of its square over the variance is 1 ± √(2/m).
        const double ratio = ((s.y - s.f).array().square() / s.noiseVariance.array()).mean();
        EVX_COMPARE_NEAR(ratio, 1.0, 5 * std::sqrt(2.0 / m));
        const DatasetInfo& info = datasetInfo(id.toStdString());
        for (int i : {0, 1, 2, m - 1})
            EVX_COMPARE_NEAR(s.f(i), formulaF(info.id, x, info.latent ? s.z(i) : 0.0), 1e-12);
        if (info.latent) {
            EVX_COMPARE_NEAR(s.z.array().square().mean(), info.sigmaZ2,
                             5 * info.sigmaZ2 * std::sqrt(2.0 / m));
            QCOMPARE(s.noiseVariance(0), info.sigmaEps2);
        } else {
            QCOMPARE(s.z.size(), Eigen::Index(0));
        }
    }

    void inputsFollowTheirDistributions_data()
    {
        QTest::addColumn<QString>("id");
        for (const char* id : {"heavy-tail", "depeweg", "bimodal", "goldberg", "yuan", "williams"})
            QTest::newRow(id) << QString(id);
    }
    void inputsFollowTheirDistributions()
    {
        QFETCH(QString, id);
        const int n = 100000;
        std::mt19937_64 rng(11);
        const DataSplit s = sampleSynthetic(id.toStdString(), n, rng);
        std::vector<double> x(s.x.data(), s.x.data() + n);
        std::function<double(double)> cdf;
        if (id == "heavy-tail")
            cdf = [](double t) { return std::clamp((t + 4) / 8, 0.0, 1.0); };
        else if (id == "depeweg") {
            cdf = [](double t) {
                return (normalCdf(t, -4, 0.4) + normalCdf(t, 0, 0.9) + normalCdf(t, 4, 0.4)) / 3;
            };
            // The middle component alone, where |x| < 2 (the outer ones reach there with
            // probability Φ(−5)): its variance is that of N(0, 0.81) truncated at ±a·0.9,
            // 0.81(1 − 2aφ(a)/(2Φ(a) − 1)), a = 2/0.9; the KS distance hardly sees its sd.
            std::vector<double> middle;
            std::copy_if(x.begin(), x.end(), std::back_inserter(middle),
                         [](double v) { return std::abs(v) < 2; });
            const double a = 2 / 0.9, phi = std::exp(-a * a / 2) / std::sqrt(2 * kPi);
            const double truncated = 0.81 * (1 - 2 * a * phi / (2 * normalCdf(a, 0, 1) - 1));
            double m2 = 0, m4 = 0;
            for (double v : middle) {
                m2 += v * v / middle.size();
                m4 += std::pow(v, 4) / middle.size();
            }
            EVX_COMPARE_NEAR(m2, truncated, 5 * std::sqrt((m4 - m2 * m2) / middle.size()));
        } else if (id == "bimodal") {
            // Clipped at 2: an atom of mass e⁻⁵ there (binomial sd √(n p)), Exp(2) − 0.5 below it.
            const double p = std::exp(-5.0);
            const auto atom = std::count(x.begin(), x.end(), 2.0);
            EVX_COMPARE_NEAR(double(atom), n * p, 5 * std::sqrt(n * p));
            std::erase(x, 2.0);
            cdf = [p](double t) { return t < -0.5 ? 0.0 : (1 - std::exp(-2 * (t + 0.5))) / (1 - p); };
        } else
            cdf = [](double t) { return std::clamp(t, 0.0, 1.0); };
        // 1.95/√n is the KS statistic's 0.1 % critical value; a range off by 1 % is beyond it.
        const double ks = stats::kolmogorovSmirnov(x, cdf);
        EVX_COMPARE_NEAR(ks, 0.0, 1.95 / std::sqrt(double(x.size())));
    }

    void trueLogDensityMatchesQuadrature()
    {
        // Heavy-Tail against adaptive quadrature over z (tests/reference/bnn_data/true_log_density.py).
        const double cases[7][3] = {{-3.9, -5.8, -0.01666080411234352}, {-3.9, 4.0, -5.9246629780652675},
                                    {-1.2, -0.4, -0.7161963384884497},  {0.0, 0.1, -0.5397418928901707},
                                    {0.7, 2.0, -12.027111616186009},    {2.5, 5.9, -0.5124565432836434},
                                    {3.95, -3.0, -5.757975141968247}};
        for (const auto& c : cases)
            EVX_COMPARE_NEAR(syntheticLogDensity("heavy-tail", c[0], c[1]), c[2], 1e-9);
    }

    void trueDensityIsNormalisedWithTheRightMoments_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("x");
        for (const char* id : {"heavy-tail", "depeweg", "bimodal"})
            for (double x : {-3.0, 0.3, 1.7})
                QTest::newRow(qPrintable(QString("%1 at %2").arg(id).arg(x))) << QString(id) << x;
        for (const char* id : {"goldberg", "yuan", "williams"})
            QTest::newRow(id) << QString(id) << 0.62;
    }
    void trueDensityIsNormalisedWithTheRightMoments()
    {
        // ∫ p(y|x) dy = 1, and its mean and variance are those of conditionalMoments (the
        // trapezoid on a fine y grid is exact to ~1e-10 for these smooth densities).
        QFETCH(QString, id);
        QFETCH(double, x);
        const auto [mean, variance] = conditionalMoments(id.toStdString(), x);
        const double sd = std::sqrt(variance), lo = mean - 12 * sd, hi = mean + 12 * sd;
        const int steps = 1500;
        const double h = (hi - lo) / steps;
        double m0 = 0, m1 = 0, m2 = 0;
        for (int i = 0; i <= steps; ++i) {
            const double y = lo + i * h;
            const double p =
                std::exp(syntheticLogDensity(id.toStdString(), x, y)) * (i == 0 || i == steps ? 0.5 : 1);
            m0 += p * h;
            m1 += p * y * h;
            m2 += p * (y - mean) * (y - mean) * h;
        }
        EVX_COMPARE_NEAR(m0, 1.0, 1e-8);
        EVX_COMPARE_NEAR(m1, mean, 1e-7 * (1 + std::abs(mean)));
        EVX_COMPARE_NEAR(m2, variance, 1e-7 * variance);
    }

    void trueLogLikelihoodIsOnTheReportedScale()
    {
        for (const char* id : {"williams", "goldberg"}) {
            const Dataset d = makeDataset(id, 8);
            double raw = 0;
            for (int i = 0; i < 200; ++i)
                raw += syntheticLogDensity(id, d.test.x(i, 0), d.test.y(i)) / 200;
            const double expected = d.info.reportScale == YScale::Raw ? raw : raw + std::log(d.scaling.ySd);
            EVX_COMPARE_NEAR(syntheticLogLikelihood(d, d.test), expected, 1e-12);
        }
        // Goldberg's truth on standardised y: −0.85 in expectation (oracle_log_likelihood.py);
        // over 200 test points its sd is about 0.05.
        EVX_COMPARE_NEAR(syntheticLogLikelihood(makeDataset("goldberg", 8), makeDataset("goldberg", 8).test),
                         -0.846, 0.25);
        QVERIFY_THROWS_EXCEPTION(
            InvalidParameter,
            syntheticLogLikelihood(makeDataset("lidar", 1, 0, kData + "lidar.csv"), DataSplit{}));
    }

    void syntheticSetsHaveTheirSizesAndAreReproducible()
    {
        for (const DatasetInfo& info : datasets()) {
            if (!info.synthetic)
                continue;
            const Dataset a = makeDataset(info.id, 42, 0), b = makeDataset(info.id, 42, 0),
                          c = makeDataset(info.id, 42, 1);
            QCOMPARE(int(a.train.size()), info.nTrain);
            QCOMPARE(int(a.validation.size()), info.nValidation);
            QCOMPARE(int(a.test.size()), info.nTest);
            QCOMPARE(a.train.x.cols(), Eigen::Index(1));
            QVERIFY(a.train.y == b.train.y && a.test.x == b.test.x);
            QVERIFY(a.train.y != c.train.y);
        }
        const Dataset h = makeDataset("heavy-tail", 1);
        QCOMPARE(h.train.size(), Eigen::Index(300));
        QCOMPARE(makeDataset("depeweg", 1).train.size(), Eigen::Index(750));
    }

    void standardisationUsesTrainingStatisticsOnly()
    {
        const Dataset d = makeDataset("goldberg", 5);
        const double mean = d.train.y.sum() / 200;
        double ss = 0;
        for (int i = 0; i < 200; ++i)
            ss += (d.train.y(i) - mean) * (d.train.y(i) - mean);
        EVX_COMPARE_NEAR(d.scaling.yMean, mean, 1e-14);
        EVX_COMPARE_NEAR(d.scaling.ySd, std::sqrt(ss / 200), 1e-14);
        const DataSplit train = d.scaling.apply(d.train), test = d.scaling.apply(d.test);
        EVX_COMPARE_NEAR(train.y.mean(), 0.0, 1e-14);
        EVX_COMPARE_NEAR(train.y.squaredNorm() / 200, 1.0, 1e-13);
        EVX_COMPARE_NEAR(train.x.col(0).mean(), 0.0, 1e-14);
        // The test split's own mean is not removed: it differs by sampling noise (≈ 0.07 sd).
        QVERIFY2(std::abs(test.y.mean()) > 1e-6, qPrintable(QString::number(test.y.mean())));
        EVX_COMPARE_NEAR(test.y(3), (d.test.y(3) - mean) / std::sqrt(ss / 200), 1e-14);
        EVX_COMPARE_NEAR(test.noiseVariance(3), d.test.noiseVariance(3) / (ss / 200), 1e-14);
        // Back to raw units.
        EVX_COMPARE_NEAR(d.scaling.rawY(test.y)(3, 0), d.test.y(3), 1e-12);
        // The output scale of the reported log-likelihood: sd_y on raw-y sets, 1 otherwise.
        QCOMPARE(d.reportOutputScale(), 1.0);
        const Dataset w = makeDataset("williams", 5);
        QCOMPARE(w.reportOutputScale(), w.scaling.ySd);
    }
};

QTEST_APPLESS_MAIN(TestBnnDatasets)
#include "test_bnn_datasets.moc"
