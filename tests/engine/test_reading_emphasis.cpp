// The `emphasis` parameter every ue-* scenario declares (issue 3, item 6): +1 on the chosen
// reading's series, −1 on the other readings', 0 on priors and evidence; nothing with "none".
#include "scenarios/registry.h"
#include "scenarios/uncertain_evidence/evidence_figure.h"

#include <QtTest>

using namespace evx;

namespace {

// Small sampler settings keep ue-kepler fast; other scenarios ignore unknown keys here.
ParameterValues valuesFor(const Scenario& s, double emphasis)
{
    ParameterValues v;
    for (const auto& [name, value] : std::vector<std::pair<std::string, double>>{
             {"steps", 200}, {"jr_steps", 50}, {"n_e", 2}, {"burn_in", 50}})
        if (s.schema().find(name))
            v[name] = value;
    v["emphasis"] = emphasis;
    return v;
}

int readingOf(const std::string& name)
{
    const char* legends[] = {"Jeffrey's rule", "Virtual evidence", "Distributional evidence"};
    for (int r = 0; r < 3; ++r)
        if (name.rfind(legends[r], 0) == 0)
            return r + 1;
    return 0;
}

} // namespace

class TestReadingEmphasis : public QObject {
    Q_OBJECT

private slots:
    void everyScenario_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<int>("emphasis");
        for (const auto& s : ScenarioRegistry::instance().all()) {
            const std::string id = s->info().id;
            if (id.rfind("ue-", 0) != 0)
                continue;
            for (int e = 0; e <= 3; ++e)
                QTest::newRow(qPrintable(QString::fromStdString(id) + "/" + QString::number(e)))
                    << QString::fromStdString(id) << e;
        }
    }
    void everyScenario()
    {
        QFETCH(QString, id);
        QFETCH(int, emphasis);
        const auto s = ScenarioRegistry::instance().find(id.toStdString());
        const ParameterSpec* spec = s->schema().find("emphasis");
        QVERIFY(spec);
        QCOMPARE(int(spec->kind), int(ParameterKind::Choice));
        QCOMPARE(spec->choices, (std::vector<std::string>{"none", "jeffrey", "virtual", "distributional"}));
        QCOMPARE(spec->defaultValue, 0.0);
        const Figure f = s->run(valuesFor(*s, emphasis), {});
        bool chosenPresent = false;
        for (const Plot& p : f.plots)
            for (const Series& series : p.series)
                chosenPresent = chosenPresent || (emphasis > 0 && readingOf(series.name) == emphasis);
        int bold = 0, faded = 0;
        for (const Plot& p : f.plots)
            for (const Series& series : p.series) {
                const int r = readingOf(series.name);
                const int expected = (!chosenPresent || r == 0) ? 0 : (r == emphasis ? 1 : -1);
                QVERIFY2(series.emphasis == expected, series.name.c_str());
                bold += series.emphasis > 0;
                faded += series.emphasis < 0;
            }
        if (chosenPresent) {
            QVERIFY(bold > 0);
            QVERIFY(faded > 0);
        } else {
            QCOMPARE(bold + faded, 0);
        }
        // Jeffrey's rule and virtual evidence are in every ue-* scenario.
        if (emphasis == 1 || emphasis == 2)
            QVERIFY(chosenPresent);
    }
};

QTEST_APPLESS_MAIN(TestReadingEmphasis)
#include "test_reading_emphasis.moc"
