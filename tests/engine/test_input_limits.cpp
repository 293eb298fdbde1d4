// The one validation path (core/input_limits.h): user text in messages, points, data files,
// work budgets and non-finite summaries, each with the hostile input that once got through.
#include "core/errors.h"
#include "core/input_limits.h"
#include "core/scenario.h"
#include "models/scots_attainment.h"
#include "scenario_inputs.h"
#include "scenarios/registry.h"

#include <QTemporaryDir>
#include <QtTest>
#include <sys/stat.h>

#include <cmath>
#include <fstream>

using namespace evx;

namespace {

// A scenario whose summary holds whatever "value" says, and which declares a budget of
// "work" ≤ 1000 and a point box of [-1, 1]².
class ProbeScenario final : public Scenario {
public:
    ProbeScenario()
        : m_schema({realParameter("value", "value", "", -1, 1, 0, ""),
                    realParameter("work", "work", "", 0, 1e6, 0, "")})
    {
    }
    ScenarioInfo info() const override { return {"probe", "Probe", "Tests", ""}; }
    const ParameterSchema& schema() const override { return m_schema; }
    ScenarioInputs inputs() const override
    {
        ScenarioInputs in;
        in.userPoints = true;
        in.maxPoints = 3;
        in.pointMin = {-1, -1};
        in.pointMax = {1, 1};
        in.dataFile = true;
        in.maxDataBytes = 100;
        return in;
    }
    std::vector<WorkBudget> workBudget(const RunInput& input) const override
    {
        return {{"probe steps", input.values.count("work") ? input.values.at("work") : 0, 1000, "work"}};
    }
    Figure run(const ParameterValues& values, const RunContext&) const override
    {
        Figure f;
        f.summary.set("probe.ok", 1);
        const double v = values.count("value") ? values.at("value") : 0;
        f.summary.set("probe.value", v == 1 ? NAN : v == -1 ? -INFINITY : v);
        return f;
    }

private:
    ParameterSchema m_schema;
};

QString refusal(const Scenario& s, const RunInput& input)
{
    try {
        validateRunInput(s, input);
    } catch (const InvalidParameter& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

void writeFile(const QString& path, const std::string& text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

// A valid ScotsSec-like CSV of 20 pupils in 2 schools, with `row` replaced when given.
std::string attainmentCsv(const std::string& lastRow = {})
{
    std::string csv = "attain,verbal,sex,social,second\n";
    for (int i = 0; i < 20; ++i)
        csv += std::to_string(1 + i % 9) + "," + std::to_string(i - 10) + "," + (i % 2 ? "F" : "M") + "," +
               std::to_string(i % 4) + "," + std::to_string(1 + i % 2) + "\n";
    return csv + lastRow;
}

QString attainmentRefusal(const QString& path)
{
    try {
        models::readAttainment(path.toStdString());
    } catch (const InvalidParameter& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestInputLimits : public QObject {
    Q_OBJECT

private slots:
    void messagesQuoteUserTextEscapedAndCut()
    {
        QCOMPARE(QString::fromStdString(quoteForMessage("abc")), QString("'abc'"));
        QCOMPARE(QString::fromStdString(quoteForMessage("a\x1b[31m\nb")), QString("'a\\x1b[31m\\x0ab'"));
        const std::string huge(100000, '7');
        const std::string quoted = quoteForMessage(huge);
        QVERIFY2(quoted.size() < 120, quoted.c_str());
        QVERIFY(QString::fromStdString(quoted).endsWith("(100000 bytes in all)"));
        // Cutting never splits a UTF-8 character: 61 two-byte σ's keep 60 whole.
        std::string sigmas;
        for (int i = 0; i < 61; ++i)
            sigmas += "σ";
        QCOMPARE(QString::fromStdString(quoteForMessage(sigmas)).count(QChar(0x03c3)), 60);
    }

    void pointsParseOrAreRefused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("y");
        QTest::newRow("x") << "0.5" << true << 0.5 << 0.0;
        QTest::newRow("x,y") << " 1.5, -2" << true << 1.5 << -2.0;
        QTest::newRow("three") << "1,2,3" << false << 0.0 << 0.0;
        QTest::newRow("nan") << "nan,1" << false << 0.0 << 0.0;
        QTest::newRow("inf") << "1,inf" << false << 0.0 << 0.0;
        QTest::newRow("overflow") << "1e400" << false << 0.0 << 0.0;
        QTest::newRow("empty y") << "1," << false << 0.0 << 0.0;
        QTest::newRow("words") << "one" << false << 0.0 << 0.0;
    }

    void pointsParseOrAreRefused()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(double, x);
        QFETCH(double, y);
        try {
            const auto p = parsePoint(text.toStdString());
            QVERIFY2(ok, qPrintable(text));
            QCOMPARE(p[0], x);
            QCOMPARE(p[1], y);
        } catch (const InvalidParameter&) {
            QVERIFY2(!ok, qPrintable(text));
        }
    }

    void pointsBeyondTheirCountOrBoxAreRefused()
    {
        const ProbeScenario s;
        QCOMPARE(refusal(s, {{}, {{0.5, -0.5}}, {}}), QString());
        QVERIFY(refusal(s, {{}, {{1e300, -1e300}}, {}}).contains("x must lie from -1 to 1"));
        QVERIFY(refusal(s, {{}, {{0, NAN}}, {}}).contains("y must lie"));
        QVERIFY(refusal(s, {{}, {{0, 0}, {0, 0}, {0, 0}, {0, 0}}, {}}).contains("at most 3"));
        // The real scenarios that take points declare boxes: bq-1d refuses the point that
        // once looped in the plot's dash splitter.
        const auto bq = ScenarioRegistry::instance().find("bq-1d");
        QVERIFY(refusal(*bq, {bq->schema().defaults(), {{1e300, -1e300}}, {}}).contains("x must lie"));
        for (const char* id : {"bq-evidence", "bq-2d-marginal", "bq-1d"}) {
            const auto scenario = ScenarioRegistry::instance().find(id);
            RunInput many{scenario->schema().defaults(), {}, {}};
            many.points.assign(101, {1, 1});
            QVERIFY2(refusal(*scenario, many).contains("at most 100"), id);
        }
    }

    void dataFilesMustBeSmallRegularFiles()
    {
        const ProbeScenario s;
        QTemporaryDir dir;
        const QString small = dir.filePath("small.csv"), big = dir.filePath("big.csv"),
                      fifo = dir.filePath("fifo");
        writeFile(small, "a\n1\n");
        writeFile(big, std::string(101, 'x'));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QCOMPARE(refusal(s, {{}, {}, small.toStdString()}), QString());
        QVERIFY(refusal(s, {{}, {}, big.toStdString()}).contains("at most 100 are read"));
        // A FIFO would block the reader forever, /dev/zero would fill memory, a folder
        // cannot be read: all are refused before anything is opened.
        QVERIFY(refusal(s, {{}, {}, fifo.toStdString()}).contains("not a regular file"));
        QVERIFY(refusal(s, {{}, {}, "/dev/zero"}).contains("not a regular file"));
        QVERIFY(refusal(s, {{}, {}, dir.path().toStdString()}).contains("not a regular file"));
        QVERIFY(refusal(s, {{}, {}, dir.filePath("none").toStdString()}).contains("does not exist"));
        // The CSV reader checks for itself too.
        QVERIFY(attainmentRefusal(fifo).contains("not a regular file"));
        QVERIFY(attainmentRefusal("/dev/zero").contains("not a regular file"));
    }

    void attainmentDataOfInsaneMagnitudeIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("scots.csv");
        writeFile(path, attainmentCsv());
        QCOMPARE(attainmentRefusal(path), QString());
        // A school code of 2^31 once overflowed the index arithmetic (segfault) and 1e9
        // allocated a 10 GB school table; such codes are refused as numbers no column of
        // this data holds, and smaller ones beyond the pupil count as codes.
        for (const char* code : {"2147483648", "1000000000"}) {
            writeFile(path, attainmentCsv(std::string("5,1,M,1,") + code + "\n"));
            const QString why = attainmentRefusal(path);
            QVERIFY2(why.contains("column 'second' holds '" + QString(code) + "', beyond the ±10000"),
                     qPrintable(why));
        }
        for (const char* code : {"9999", "22"}) {
            writeFile(path, attainmentCsv(std::string("5,1,M,1,") + code + "\n"));
            const QString why = attainmentRefusal(path);
            QVERIFY2(why.contains("school code from 1 to the number of pupils (21)"), qPrintable(why));
        }
        writeFile(path, attainmentCsv("5,1e200,M,1,1\n"));
        QVERIFY2(attainmentRefusal(path).contains("beyond the ±10000"), qPrintable(attainmentRefusal(path)));
    }

    void workBeyondTheBudgetIsRefusedUpFront()
    {
        const ProbeScenario s;
        QCOMPARE(refusal(s, {{{"work", 1000}}, {}, {}}), QString());
        const QString why = refusal(s, {{{"work", 1001}}, {}, {}});
        QVERIFY2(why.contains("this run needs 1e+03 probe steps; at most 1e+03 fit in one run: lower work"),
                 qPrintable(why));
        // ue-kepler at its largest settings once ran for minutes; now it is refused at once.
        const auto kepler = ScenarioRegistry::instance().find("ue-kepler");
        ParameterValues v = kepler->schema().defaults();
        v["n_e"] = 400;
        v["walkers"] = 128;
        v["jr_steps"] = 5000;
        QVERIFY(refusal(*kepler, {v, {}, {}}).contains("lower n_e, walkers"));
    }

    void heavyScenariosRefuseTheirLargestSettings_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("lower");
        // Each of these ran for more than 30 s (or minutes) with every count at its maximum.
        QTest::newRow("ue-kepler") << "ue-kepler"
                                   << "n_e, walkers";
        QTest::newRow("wvo-rats") << "wvo-rats"
                                  << "virtual_count or posterior_draws";
        QTest::newRow("wvo-normal-hyper") << "wvo-normal-hyper"
                                          << "mc_draws";
        QTest::newRow("wvo-attainment") << "wvo-attainment"
                                        << "steps or burn_in";
    }

    void heavyScenariosRefuseTheirLargestSettings()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, lower);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        RunInput input = testing::exampleInput(*s, s->schema().defaults());
        for (const ParameterSpec& p : s->schema().specs())
            if (p.kind == ParameterKind::Integer && p.name.find("seed") == std::string::npos)
                input.values[p.name] = p.maximum;
        const QString why = refusal(*s, input);
        QVERIFY2(why.contains("this run needs") && why.contains(lower), qPrintable(why));
    }

    void everyDefaultAndPresetFitsItsBudget()
    {
        for (const auto& s : ScenarioRegistry::instance().all()) {
            std::vector<ParameterValues> sets{s->schema().defaults()};
            for (const Preset& p : s->presets())
                sets.push_back(s->presetValues(p.name));
            for (const ParameterValues& values : sets) {
                const QString why = refusal(*s, testing::exampleInput(*s, values));
                QVERIFY2(why.isEmpty(), qPrintable(QString::fromStdString(s->info().id) + ": " + why));
            }
        }
    }

    void nonFiniteSummariesAreErrorsThatNameThem()
    {
        const ProbeScenario s;
        QCOMPARE(s.runChecked({{{"value", 0.5}}, {}, {}}, {}).summary.value("probe.value"), 0.5);
        for (double value : {1.0, -1.0}) {
            try {
                s.runChecked({{{"value", value}}, {}, {}}, {});
                QFAIL("a non-finite summary passed");
            } catch (const NumericalError& e) {
                const QString why = QString::fromUtf8(e.what());
                QVERIFY2(why.contains(value == 1 ? "probe.value = NaN" : "probe.value = -inf"),
                         qPrintable(why));
                QVERIFY(!why.contains("probe.ok"));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestInputLimits)
#include "test_input_limits.moc"
