// core/summary_labels: readable names for every scenario's summary keys, units from parameters
// and scenario hints, and numbers that parse back to the value they stand for.

#include "core/summary_labels.h"
#include "scenario_inputs.h"
#include "scenarios/registry.h"

#include <QTest>

#include <cmath>
#include <set>
#include <string>

using namespace evx;

namespace {

// The number a shown text stands for, read independently of formatSummaryNumber: "d.dd×10ⁿ"
// is rewritten as "d.dde n" for strtod, digit by digit from the superscripts.
double parseShown(const QString& text)
{
    if (text == "–")
        return std::nan("");
    if (text == "∞")
        return INFINITY;
    if (text == "-∞")
        return -INFINITY;
    const QString superscripts = "⁰¹²³⁴⁵⁶⁷⁸⁹⁻";
    int first = 0;
    while (first < text.size() && !superscripts.contains(text[first]))
        ++first;
    if (first == text.size())
        return text.toDouble();
    QString mantissa = text.left(first);
    mantissa.chop(2); // "10"
    if (mantissa.endsWith(QChar(0x00D7)))
        mantissa.chop(1);
    if (mantissa.isEmpty() || mantissa == "-")
        mantissa += '1';
    QString exponent;
    for (QChar c : text.mid(first))
        exponent += c == QChar(0x207B) ? QChar('-') : QChar(char16_t('0' + superscripts.indexOf(c)));
    return (mantissa + 'e' + exponent).toDouble();
}

} // namespace

class TestSummaryLabels : public QObject {
    Q_OBJECT

private slots:
    void namesFromTheBrief_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("name");
        QTest::newRow("prior") << "prior.mean"
                               << "Prior: mean";
        QTest::newRow("jeffrey") << "jeffrey.sd"
                                 << "Jeffrey's rule: sd";
        // Not "Exact posterior: log evidence": the BQ scenarios' exact value is an evidence.
        QTest::newRow("exact evidence") << "exact.log_evidence"
                                        << "Exact: log evidence";
        QTest::newRow("test ll") << "test_ll"
                                 << "Test log-likelihood";
        QTest::newRow("mi") << "mi_x_z"
                            << "MI(x; μ_z)";
        QTest::newRow("hz") << "hz"
                            << "Henze–Zirkler statistic";
        QTest::newRow("jsd") << "jsd"
                             << "Jensen–Shannon distance";
        QTest::newRow("speed-up") << "time.speedup"
                                  << "Speed-up";
        QTest::newRow("kl") << "kl.incremental_vs_full"
                            << "KL: incremental vs full";
        QTest::newRow("time") << "time.wvo_construction_ms"
                              << "Time: WVO construction";
        QTest::newRow("abs") << "equivalence.max_abs_diff"
                             << "Equivalence: max |difference|";
        QTest::newRow("probability") << "virtual.p_y3"
                                     << "Virtual evidence: P(y3)";
        QTest::newRow("index") << "equivalence.lambda_2"
                               << "Equivalence: λ2";
        QTest::newRow("subsample") << "subsample.kl.k15"
                                   << "Subsample: KL k = 15";
        QTest::newRow("greek") << "reference.log_sigma2.sd"
                               << "Reference: sd of log σ²";
        QTest::newRow("mean of") << "distributional.omega_plus_m.mean"
                                 << "Distributional evidence: mean of ω + M";
        QTest::newRow("entropy") << "mfvi.epistemic.mean"
                                 << "MFVI: mean of epistemic entropy";
        QTest::newRow("n as the thing") << "n.virtual"
                                        << "Observations: virtual";
        QTest::newRow("n as the statistic") << "samples.n"
                                            << "Samples: n";
        QTest::newRow("unknown") << "foo_bar.baz_qux"
                                 << "Foo bar: baz qux";
    }
    void namesFromTheBrief()
    {
        QFETCH(QString, key);
        QFETCH(QString, name);
        QCOMPARE(QString::fromStdString(summaryDisplayName(key.toStdString())), name);
    }

    // Every scenario's default summary reads without a '_' and with one name per key.
    void everyScenarioReads_data()
    {
        QTest::addColumn<QString>("id");
        for (const auto& s : ScenarioRegistry::instance().all())
            QTest::newRow(s->info().id.c_str()) << QString::fromStdString(s->info().id);
    }
    void everyScenarioReads()
    {
        QFETCH(QString, id);
        const auto scenario = ScenarioRegistry::instance().find(id.toStdString());
        const RunInput input = testing::exampleInput(*scenario, scenario->schema().defaults());
        const Figure figure = scenario->runChecked(input, {});
        QVERIFY(!figure.summary.empty());
        const auto rows = presentSummary(figure.summary, &scenario->schema(), scenario->summaryUnits());
        QCOMPARE(rows.size(), figure.summary.entries().size());
        std::set<std::string> names;
        for (const SummaryRow& row : rows) {
            // Read without presentSummary's fallback, which appends the key to a repeated name.
            const QString name = QString::fromStdString(summaryDisplayName(row.key));
            QCOMPARE(QString::fromStdString(row.name), name);
            // "μ_z" is the paper's notation (the latents' posterior means), not a key's '_'.
            QVERIFY2(!QString(name).remove("μ_z").contains('_'),
                     qPrintable(QString::fromStdString(row.key) + " → " + name));
            QVERIFY2(names.insert(row.name).second, qPrintable("two keys read alike: " + name));
            // The shown text stands for the value it shows, to 6 significant digits.
            {
                const double shown = parseShown(QString::fromStdString(row.text));
                QVERIFY2(
                    std::fabs(shown - row.value) <= 5e-6 * std::fabs(row.value),
                    qPrintable(QString("%1: shown %2 = %3, value %4")
                                   .arg(QString::fromStdString(row.key), QString::fromStdString(row.text))
                                   .arg(shown, 0, 'g', 17)
                                   .arg(row.value, 0, 'g', 17)));
            }
        }
    }

    void unitsOfRealScenarios_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("unit");
        QTest::newRow("drop-ball posterior") << "ue-drop-ball"
                                             << "jeffrey.mean"
                                             << "m/s²";
        QTest::newRow("drop-ball variance of y") << "ue-drop-ball"
                                                 << "jeffrey.var_y"
                                                 << "s²";
        QTest::newRow("drop-ball flag") << "ue-drop-ball"
                                        << "jeffrey.consistent"
                                        << "";
        QTest::newRow("bq evidence") << "bq-evidence"
                                     << "evidence.mean"
                                     << "1/s";
        QTest::newRow("bq relative error") << "bq-evidence"
                                           << "evidence.rel_error"
                                           << "";
        QTest::newRow("bq posterior") << "bq-evidence"
                                      << "posterior_true.sd"
                                      << "m/s²";
        QTest::newRow("kepler ω from its parameter") << "ue-kepler"
                                                     << "virtual.omega.mean"
                                                     << "deg";
        QTest::newRow("kepler ω + M") << "ue-kepler"
                                      << "jeffrey.omega_plus_m.sd"
                                      << "deg";
        QTest::newRow("kepler period") << "ue-kepler"
                                       << "distributional.P.mean"
                                       << "d";
        QTest::newRow("kepler period sd in minutes, as σ_e") << "ue-kepler"
                                                             << "jeffrey.P.sd"
                                                             << "min";
        QTest::newRow("kepler variance of t in min²") << "ue-kepler"
                                                      << "jeffrey.var_y"
                                                      << "min²";
        QTest::newRow("kepler E[var] in min²") << "ue-kepler"
                                               << "jeffrey.expected_var_given_zeta"
                                               << "min²";
        QTest::newRow("kepler e") << "ue-kepler"
                                  << "distributional.e.mean"
                                  << "";
        QTest::newRow("identifiability gain") << "bnn-identifiability"
                                              << "log_density_gain"
                                              << "nats";
        QTest::newRow("identifiability C") << "bnn-identifiability"
                                           << "c_star"
                                           << "";
        QTest::newRow("uncertainty entropy") << "bnn-uncertainty"
                                             << "hmc.epistemic.mean"
                                             << "nats";
        QTest::newRow("uncertainty rms") << "bnn-uncertainty"
                                         << "ncai.aleatoric.rms_vs_truth"
                                         << "nats";
        QTest::newRow("uncertainty acceptance") << "bnn-uncertainty"
                                                << "hmc.acceptance"
                                                << "";
        QTest::newRow("ncai MI") << "bnn-ncai"
                                 << "mi_x_z"
                                 << "nats";
        QTest::newRow("ncai HZ") << "bnn-ncai"
                                 << "hz"
                                 << "";
        QTest::newRow("gaussian: none") << "ue-gaussian"
                                        << "jeffrey.mean"
                                        << "";
    }
    void unitsOfRealScenarios()
    {
        QFETCH(QString, id);
        QFETCH(QString, key);
        QFETCH(QString, unit);
        const auto scenario = ScenarioRegistry::instance().find(id.toStdString());
        QVERIFY(scenario);
        QCOMPARE(QString::fromStdString(
                     summaryUnit(key.toStdString(), &scenario->schema(), scenario->summaryUnits())),
                 unit);
    }

    // A hint's factor scales the shown value, not the stored one: Kepler's sd of P, stored in
    // days, shows in minutes (1 d = 24 · 60 min), its variances in min²; the mean stays in days.
    void keplerShowsMinutes()
    {
        const auto scenario = ScenarioRegistry::instance().find("ue-kepler");
        QVERIFY(scenario);
        Summary summary;
        summary.set("jeffrey.P.mean", 210.6);
        summary.set("jeffrey.P.sd", 0.01);
        summary.set("jeffrey.var_y", 2e-4);
        const auto rows = presentSummary(summary, &scenario->schema(), scenario->summaryUnits());
        QCOMPARE(rows.size(), std::size_t(3));
        const double minutesPerDay = 24.0 * 60.0;
        for (const SummaryRow& row : rows) {
            if (row.key == "jeffrey.P.mean") {
                QCOMPARE(row.value, 210.6);
                QCOMPARE(QString::fromStdString(row.unit), QString("d"));
            } else if (row.key == "jeffrey.P.sd") {
                QCOMPARE(row.value, 0.01 * minutesPerDay);
                QCOMPARE(QString::fromStdString(row.text), QString("14.4"));
                QCOMPARE(row.raw, 0.01);
            } else {
                QCOMPARE(row.value, 2e-4 * minutesPerDay * minutesPerDay);
                QCOMPARE(QString::fromStdString(row.text), QString("414.72"));
                QCOMPARE(row.raw, 2e-4);
            }
        }
    }

    void unitPatterns()
    {
        QVERIFY(summaryUnitMatches("*.mean", "jeffrey.mean"));
        QVERIFY(!summaryUnitMatches("*.mean", "jeffrey.mean_abs"));
        QVERIFY(summaryUnitMatches("posterior.*", "posterior.sd"));
        QVERIFY(!summaryUnitMatches("posterior.*", "posterior_true.sd"));
        QVERIFY(summaryUnitMatches("evidence.mean", "evidence.mean"));
        QVERIFY(!summaryUnitMatches("evidence.mean", "mc.evidence.mean"));
    }

    // Over 40 decades, with 7 to 9 significant digits: the text parses back to the value
    // within half a unit in the 6th digit, and has an exponent exactly outside [1e-4, 1e6).
    void numbersParseBack()
    {
        for (double exponent = -20; exponent <= 20; exponent += 0.0137) {
            for (double sign : {1.0, -1.0}) {
                const double value = sign * std::pow(10.0, exponent);
                const QString text = QString::fromStdString(formatSummaryNumber(value));
                const double shown = parseShown(text);
                QVERIFY2(std::fabs(shown - value) <= 5e-6 * std::fabs(value),
                         qPrintable(QString("%1 shown as %2 = %3")
                                        .arg(value, 0, 'g', 17)
                                        .arg(text)
                                        .arg(shown, 0, 'g', 17)));
                const double rounded = std::fabs(shown);
                const bool exponentShown = parseShown(text) != text.toDouble(); // toDouble fails on ×10ⁿ
                const bool count = value == std::round(value) && std::fabs(value) < 1e15; // in full
                QVERIFY2(exponentShown == ((rounded < 1e-4 || rounded >= 1e6) && !count),
                         qPrintable(QString("%1 shown as %2").arg(value, 0, 'g', 17).arg(text)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestSummaryLabels)
#include "test_summary_labels.moc"
