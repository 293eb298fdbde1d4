// The parameter schema: parsing, range checks and the errors a user sees.
#include "core/errors.h"
#include "core/grid.h"
#include "core/parameters.h"
#include "evidence/base_model.h"
#include "models/drop_ball_model.h"
#include "models/linear_gaussian_model.h"

#include <QtTest>
#include <cmath>
#include <limits>

using namespace evx;

namespace {

ParameterSchema sampleSchema()
{
    ParameterSpec n;
    n.name = "n";
    n.kind = ParameterKind::Integer;
    n.minimum = 1;
    n.maximum = 100;
    n.defaultValue = 10;
    ParameterSpec c;
    c.name = "method";
    c.kind = ParameterKind::Choice;
    c.choices = {"bq", "log-gp-bq", "mc"};
    ParameterSpec b;
    b.name = "flag";
    b.kind = ParameterKind::Boolean;
    return ParameterSchema({realParameter("sigma", "σ", "s", 0.01, 5, 1, "an sd"), n, c, b});
}

} // namespace

class TestParameters : public QObject {
    Q_OBJECT

private slots:
    void defaults()
    {
        const auto d = sampleSchema().defaults();
        QCOMPARE(d.at("sigma"), 1.0);
        QCOMPARE(d.at("n"), 10.0);
        QCOMPARE(d.at("method"), 0.0);
        QCOMPARE(d.at("flag"), 0.0);
    }

    void realParameterStepAndDecimals()
    {
        const ParameterSpec s = realParameter("x", "x", "", 0.001, 0.05, 0.005, "");
        QCOMPARE(s.step, 0.0001);
        QCOMPARE(s.decimals, 4);
        const ParameterSpec wide = realParameter("m", "m", "", -20, 20, -10, "");
        QCOMPARE(wide.step, 0.1);
        QCOMPARE(wide.decimals, 1);
    }

    void parseAccepts_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("value");
        QTest::newRow("real") << "sigma"
                              << "0.25" << 0.25;
        QTest::newRow("real exponent") << "sigma"
                                       << "2e-2" << 0.02;
        QTest::newRow("real at max") << "sigma"
                                     << "5" << 5.0;
        QTest::newRow("integer") << "n"
                                 << "42" << 42.0;
        QTest::newRow("choice by name") << "method"
                                        << "mc" << 2.0;
        QTest::newRow("choice by index") << "method"
                                         << "1" << 1.0;
        QTest::newRow("bool") << "flag"
                              << "true" << 1.0;
    }

    void parseAccepts()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(double, value);
        QCOMPARE(sampleSchema().parse(name.toStdString(), text.toStdString()), value);
    }

    void parseRefuses_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason");
        QTest::newRow("unknown") << "nope"
                                 << "1"
                                 << "unknown parameter";
        QTest::newRow("not a number") << "sigma"
                                      << "abc"
                                      << "not a number";
        QTest::newRow("trailing junk") << "sigma"
                                       << "1.5x"
                                       << "not a number";
        QTest::newRow("empty") << "sigma"
                               << ""
                               << "not a number";
        QTest::newRow("nan") << "sigma"
                             << "nan"
                             << "not a finite number";
        QTest::newRow("inf") << "sigma"
                             << "inf"
                             << "not a finite number";
        QTest::newRow("below range") << "sigma"
                                     << "0"
                                     << "outside the range";
        QTest::newRow("above range") << "sigma"
                                     << "5.01"
                                     << "outside the range";
        QTest::newRow("negative sd") << "sigma"
                                     << "-1"
                                     << "outside the range";
        QTest::newRow("fractional integer") << "n"
                                            << "2.5"
                                            << "whole number";
        QTest::newRow("bad choice") << "method"
                                    << "gp"
                                    << "not one of bq, log-gp-bq, mc";
        QTest::newRow("choice index out of range") << "method"
                                                   << "3"
                                                   << "not one of the choices";
        QTest::newRow("bad bool") << "flag"
                                  << "yes"
                                  << "not true or false";
    }

    void parseRefuses()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(QString, reason);
        try {
            sampleSchema().parse(name.toStdString(), text.toStdString());
            QFAIL("accepted a bad value");
        } catch (const InvalidParameter& e) {
            QVERIFY2(QString(e.what()).contains(reason), e.what());
        }
    }

    void checkNamesTheRangeAndUnit()
    {
        const auto why = sampleSchema().check("sigma", 7);
        QVERIFY(why);
        QCOMPARE(QString::fromStdString(*why), QString("sigma: 7 is outside the range 0.01 to 5 s"));
        QVERIFY(!sampleSchema().check("sigma", 0.5));
    }

    void completeRefusesUnknownAndFillsDefaults()
    {
        const auto v = sampleSchema().complete({{"sigma", 2}});
        QCOMPARE(v.at("sigma"), 2.0);
        QCOMPARE(v.at("n"), 10.0);
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, sampleSchema().complete({{"bogus", 1}}));
        QVERIFY_THROWS_EXCEPTION(
            InvalidParameter, sampleSchema().complete({{"sigma", std::numeric_limits<double>::quiet_NaN()}}));
    }

    void duplicateOrBadDeclarationsAreProgrammerErrors()
    {
        const ParameterSpec a = realParameter("a", "a", "", 0, 1, 0.5, "");
        QVERIFY_THROWS_EXCEPTION(std::logic_error, ParameterSchema({a, a}));
        const ParameterSpec badDefault = realParameter("b", "b", "", 0, 1, 2, "");
        QVERIFY_THROWS_EXCEPTION(std::logic_error, ParameterSchema({badDefault}));
    }

    void modelsRefuseNonPositiveScales_data()
    {
        QTest::addColumn<double>("sd");
        QTest::newRow("zero") << 0.0;
        QTest::newRow("negative") << -1.0;
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("inf") << std::numeric_limits<double>::infinity();
    }

    void modelsRefuseNonPositiveScales()
    {
        QFETCH(double, sd);
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, models::LinearGaussianModel(0, sd, 1));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, models::LinearGaussianModel(0, 1, sd));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, evidence::GaussianEvidence(0, sd));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, models::DropBallModel(1, sd, 10, 1));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, models::DropBallModel(sd, 0.01, 10, 1));
    }

    void emptyRangesAreRefused()
    {
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, UniformGrid(1, 1, 10));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, UniformGrid(2, 1, 10));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, UniformGrid(0, std::nan(""), 10));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, UniformGrid(0, 1, 2));
    }
};

QTEST_APPLESS_MAIN(TestParameters)
#include "test_parameters.moc"
