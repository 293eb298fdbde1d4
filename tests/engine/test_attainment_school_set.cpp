// models::AttainmentSchoolSet (sufficient statistics per verbal score and per school) against
// the weighted sum of models::attainmentSchoolLogLik, the pupil-by-pupil school marginal that
// test_wvo_attainment checks against quadrature: on the real data (the full run's and the
// other schools' sets) and on virtual schools with within-group weights and some weight 0.
#include "models/attainment_school_set.h"
#include "models/scots_attainment.h"

#include <QtTest>
#include <cmath>
#include <random>

using namespace evx;

namespace {

const char* const kData = EVX_SOURCE_DIR "/../shared/data/scots_sec.csv";

// The two sums differ only by reassociation (and the centred residual sum of squares): the
// largest relative difference seen was 1.2e-14 (all schools, 200 θ drawn as below), so 1e-11
// leaves a factor ~1000 while catching any dropped or misweighted term (one pupil of 3435 is
// ~1e-4 of the total; dropping β_f β_c's cross term moved trial 0 by 2e-3 relative).
constexpr double kRelTol = 1e-11;

Eigen::VectorXd randomTheta(std::mt19937_64& rng)
{
    std::normal_distribution<double> z;
    Eigen::VectorXd t(models::kAttainmentDim);
    t << 5 + 2 * z(rng), -1 + z(rng), z(rng), z(rng), z(rng), 0.5 + 0.5 * z(rng), 0.5 * z(rng);
    return t;
}

double reference(const std::vector<const models::Pupils*>& schools, const std::vector<double>& weights,
                 const Eigen::VectorXd& t)
{
    double s = 0;
    for (std::size_t k = 0; k < schools.size(); ++k)
        if (weights[k] > 0)
            s += weights[k] * models::attainmentSchoolLogLik(*schools[k], t);
    return s;
}

// The set against the pupil-by-pupil sum at 50 random θ, to kRelTol.
void matchesAtRandomThetas(const models::AttainmentSchoolSet& set,
                           const std::vector<const models::Pupils*>& schools,
                           const std::vector<double>& weights, std::mt19937_64& rng)
{
    for (int trial = 0; trial < 50; ++trial) {
        const Eigen::VectorXd t = randomTheta(rng);
        const double expected = reference(schools, weights, t), got = set.logLik(t);
        QVERIFY2(
            std::abs(got - expected) <= kRelTol * std::abs(expected),
            qPrintable(
                QString("trial %1: %2 vs %3").arg(trial).arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    }
}

} // namespace

class TestAttainmentSchoolSet : public QObject {
    Q_OBJECT

private slots:
    void realSchoolsMatchPupilByPupil_data()
    {
        QTest::addColumn<int>("leftOut"); // school left out (−1: none), as in the other schools' run
        QTest::newRow("all schools (full run)") << -1;
        QTest::newRow("all but school 1") << 0;
        QTest::newRow("all but school 14") << 13;
    }
    void realSchoolsMatchPupilByPupil()
    {
        QFETCH(int, leftOut);
        const models::AttainmentData d = models::readAttainment(kData);
        std::vector<const models::Pupils*> schools;
        std::vector<double> weights;
        for (int s = 0; s < int(d.schools.size()); ++s) {
            schools.push_back(&d.schools[s]);
            weights.push_back(s == leftOut ? 0.0 : 1.0);
        }
        const models::AttainmentSchoolSet set(schools, weights);
        // 66 distinct verbal scores, 930 (school, score) cells on the whole file.
        QCOMPARE(set.verbalScores(), 66);
        if (leftOut < 0)
            QCOMPARE(set.cells(), 930);
        std::mt19937_64 rng(3);
        matchesAtRandomThetas(set, schools, weights, rng);
    }

    void weightedVirtualSchoolsMatchPupilByPupil()
    {
        // 54 virtual schools of 10 pupils resampled from the data (so verbal scores repeat across
        // schools, as in the scenario), within-group weight 17.9, group weights spread over
        // [0, 2] with some exactly 0, plus one real school of weight 1.
        const models::AttainmentData d = models::readAttainment(kData);
        std::mt19937_64 rng(5);
        std::normal_distribution<double> z;
        std::uniform_int_distribution<int> pickSchool(1, int(d.schools.size()) - 1);
        std::vector<models::Pupils> virt(54);
        std::vector<const models::Pupils*> schools;
        std::vector<double> weights;
        for (std::size_t k = 0; k < virt.size(); ++k) {
            virt[k].withinWeight = 17.9;
            for (int i = 0; i < 10; ++i) {
                const models::Pupils& src = d.schools[pickSchool(rng)];
                const std::size_t j =
                    std::uniform_int_distribution<std::size_t>(0, src.attain.size() - 1)(rng);
                virt[k].verbal.push_back(src.verbal[j]);
                virt[k].female.push_back(src.female[j]);
                virt[k].social.push_back(src.social[j]);
                virt[k].attain.push_back(5 + 2 * z(rng));
            }
            schools.push_back(&virt[k]);
            weights.push_back(k % 7 == 3 ? 0.0 : 2.0 * std::abs(std::sin(double(k))));
        }
        schools.push_back(&d.schools[0]);
        weights.push_back(1);
        const models::AttainmentSchoolSet set(schools, weights);
        matchesAtRandomThetas(set, schools, weights, rng);
    }

    void mismatchedWeightsAreAClearError()
    {
        const models::Pupils p;
        try {
            models::AttainmentSchoolSet({&p, &p}, {1.0});
            QFAIL("accepted two schools with one weight");
        } catch (const std::exception& e) {
            QVERIFY2(QString(e.what()).contains("one weight per school"), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestAttainmentSchoolSet)
#include "test_attainment_school_set.moc"
