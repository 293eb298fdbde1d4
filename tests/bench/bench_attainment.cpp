// Where wvo-attainment's sampler time goes (issue 13, item 4): one log-likelihood evaluation of
// the full run's data (19 schools, 3435 pupils) and of the incremental run's (54 virtual schools
// of 10 pupils, within-group weight 16.3, plus school 1's 219 pupils), pupil by pupil
// (models::attainmentSchoolLogLik, one exp per pupil) and from sufficient statistics
// (models::AttainmentSchoolSet), and in the paper's form, real schools' intercepts sampled
// (models::SampledInterceptSchools); the exps alone; and the ensemble sampler's own cost per
// proposal on a trivial density. Run directly: build/tests/bench/bench_attainment
#include "models/attainment_sampled_intercepts.h"
#include "models/attainment_school_set.h"
#include "models/scots_attainment.h"
#include "sampling/ensemble_sampler.h"

#include <QtTest>
#include <cmath>
#include <random>

using namespace evx;

namespace {

const char* const kData = EVX_SOURCE_DIR "/../shared/data/scots_sec.csv";

struct Sets {
    models::AttainmentData data;
    std::vector<models::Pupils> virt;
    std::vector<const models::Pupils*> schools; // by data set: full or incremental
    std::vector<double> weights;
};

// "full": every school, weight 1. "incremental": virtual schools drawn as the scenario does
// (covariates resampled from schools 2..19, weights spread around 18/54), plus school 1.
Sets makeSets(const QString& which)
{
    Sets s;
    s.data = models::readAttainment(kData);
    if (which == "full") {
        for (const auto& p : s.data.schools) {
            s.schools.push_back(&p);
            s.weights.push_back(1);
        }
        return s;
    }
    std::mt19937_64 rng(1);
    std::normal_distribution<double> z;
    s.virt.resize(54);
    for (auto& v : s.virt) {
        v.withinWeight = 3216.0 / 18 / 10;
        for (int i = 0; i < 10; ++i) {
            const auto& src = s.data.schools[std::uniform_int_distribution<int>(1, 18)(rng)];
            const std::size_t j = std::uniform_int_distribution<std::size_t>(0, src.attain.size() - 1)(rng);
            v.verbal.push_back(src.verbal[j]);
            v.female.push_back(src.female[j]);
            v.social.push_back(src.social[j]);
            v.attain.push_back(src.attain[j] + 0.5 * z(rng));
        }
    }
    for (std::size_t k = 0; k < s.virt.size(); ++k) {
        s.schools.push_back(&s.virt[k]);
        s.weights.push_back(18.0 / 54 * (0.5 + std::abs(std::sin(double(k)))));
    }
    s.schools.push_back(&s.data.schools[0]);
    s.weights.push_back(1);
    return s;
}

Eigen::VectorXd typicalTheta()
{
    Eigen::VectorXd t(models::kAttainmentDim);
    t << 5.9, -1.2, 1.9, 0.3, 0.6, 0.35, -0.1;
    return t;
}

} // namespace

class BenchAttainment : public QObject {
    Q_OBJECT

private slots:
    void logLik_data()
    {
        QTest::addColumn<QString>("data");
        QTest::addColumn<QString>("form");
        QTest::newRow("full, pupil by pupil") << "full"
                                              << "pupils";
        QTest::newRow("full, sufficient statistics") << "full"
                                                     << "sufficient";
        QTest::newRow("full, 19 intercepts sampled") << "full"
                                                     << "sampled";
        QTest::newRow("incremental, pupil by pupil") << "incremental"
                                                     << "pupils";
        QTest::newRow("incremental, sufficient statistics") << "incremental"
                                                            << "sufficient";
        QTest::newRow("incremental, school 1's intercept sampled") << "incremental"
                                                                   << "sampled";
    }
    void logLik()
    {
        QFETCH(QString, data);
        QFETCH(QString, form);
        const Sets s = makeSets(data);
        const models::AttainmentSchoolSet set(s.schools, s.weights);
        // In the paper's form the real schools (weight 1, within-group weight 1) are sampled.
        std::vector<const models::Pupils*> sampled, virtual_;
        std::vector<double> virtualWeights;
        for (std::size_t k = 0; k < s.schools.size(); ++k)
            if (s.schools[k]->withinWeight == 1 && s.weights[k] == 1) {
                sampled.push_back(s.schools[k]);
            } else {
                virtual_.push_back(s.schools[k]);
                virtualWeights.push_back(s.weights[k]);
            }
        const models::SampledInterceptSchools paperForm(sampled, virtual_, virtualWeights);
        Eigen::VectorXd t = Eigen::VectorXd::Constant(form == "sampled" ? paperForm.dimension() : 7, 5.9);
        t.head(models::kAttainmentDim) = typicalTheta();
        double sum = 0;
        QBENCHMARK
        {
            for (int r = 0; r < 1000; ++r) {
                t(6) = -0.1 + 1e-6 * r; // defeats hoisting out of the loop
                if (form == "sufficient") {
                    sum += set.logLik(t);
                } else if (form == "sampled") {
                    sum += paperForm.logLik(t);
                } else {
                    for (std::size_t k = 0; k < s.schools.size(); ++k)
                        sum += s.weights[k] * models::attainmentSchoolLogLik(*s.schools[k], t);
                }
            }
        }
        std::size_t pupils = 0;
        for (const auto* p : s.schools)
            pupils += p->attain.size();
        static QSet<QString> told; // QBENCHMARK re-enters the function; say it once per row
        if (!told.contains(QTest::currentDataTag()) && (told.insert(QTest::currentDataTag()), true))
            qInfo("%s: %zu pupils in %zu schools, %d cells, %d verbal scores (per 1000 evaluations)",
                  qPrintable(data), pupils, s.schools.size(), set.cells(), set.verbalScores());
        QVERIFY(std::isfinite(sum));
    }

    void exps_data()
    {
        QTest::addColumn<int>("count");
        QTest::newRow("3435 (full run's pupils)") << 3435;
        QTest::newRow("759 (incremental run's pupils)") << 759;
        QTest::newRow("66 (distinct verbal scores)") << 66;
    }
    void exps()
    {
        // The exps a pupil-by-pupil evaluation does, 1000 times: the transcendental share.
        QFETCH(int, count);
        std::vector<double> x(count);
        for (int i = 0; i < count; ++i)
            x[i] = -1 + 2.0 * i / count;
        double sum = 0;
        QBENCHMARK
        {
            for (int r = 0; r < 1000; ++r)
                for (int i = 0; i < count; ++i)
                    sum += std::exp(-2 * (0.35 + 1e-6 * r + 0.1 * x[i]));
        }
        QVERIFY(std::isfinite(sum));
    }

    void samplerOverhead_data()
    {
        QTest::addColumn<int>("dimension");
        QTest::newRow("7 (intercepts integrated out)") << 7;
        QTest::newRow("8 (incremental, one intercept sampled)") << 8;
        QTest::newRow("26 (full, 19 intercepts sampled)") << 26;
    }
    void samplerOverhead()
    {
        // The scenario's sampler settings (4 d + 4 walkers, 400 + 600 steps) on a standard normal
        // in d dimensions: proposals whose density costs next to nothing.
        QFETCH(int, dimension);
        sampling::EnsembleOptions opt;
        opt.walkers = 4 * dimension + 4;
        opt.steps = 600;
        opt.burnIn = 400;
        opt.progressEvery = 0;
        Eigen::MatrixXd init = Eigen::MatrixXd::Random(opt.walkers, dimension);
        sampling::EnsembleResult r;
        QBENCHMARK
        {
            r = sampling::runEnsemble([](const Eigen::VectorXd& t) { return -0.5 * t.squaredNorm(); }, init,
                                      opt, {});
        }
        QVERIFY(r.samples.rows() == 600 * opt.walkers);
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    BenchAttainment bench;
    QStringList args = app.arguments();
    if (qEnvironmentVariableIsSet("EVX_BENCH_SMOKE"))
        args << "-iterations"
             << "1";
    return QTest::qExec(&bench, args);
}

#include "bench_attainment.moc"
