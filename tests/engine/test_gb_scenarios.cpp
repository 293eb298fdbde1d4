// The generalised-Bayes scenarios: the reference update recomputed from the figure's own
// data with the true g, summary keys and data of every model, tempering that only rescales,
// and refusals of bad input.
#include "compare_near.h"
#include "core/errors.h"
#include "genbayes/gb_inference.h"
#include "gp/gp_regression.h"
#include "scenarios/genbayes/gb_scenario.h"
#include "scenarios/registry.h"

#include <QtTest>

#include <cmath>
#include <optional>

using namespace evx;

namespace {

Figure runScenario(const std::string& id, ParameterValues values)
{
    const auto s = ScenarioRegistry::instance().find(id);
    for (const auto& [k, v] : s->schema().defaults())
        values.emplace(k, v);
    return s->runChecked({values, {}, {}}, {});
}

const std::vector<double>& dataColumn(const Figure& f, const std::string& name)
{
    for (const auto& [key, values] : f.data)
        if (key == name)
            return values;
    throw std::runtime_error("no data column " + name);
}

} // namespace

class TestGbScenarios : public QObject {
    Q_OBJECT

private slots:
    void referenceRecomputesFromTheExportedData()
    {
        // gb-poisson, NB(10, 0.8) data, squared Hellinger: recompute exp(−n D) on λ's grid
        // from Figure::data with the NB pmf and clip(log r) ∈ [−5, 3], by hand.
        const Figure f = runScenario("gb-poisson", {{"method", 4}, {"divergence", 1}});
        const std::vector<double>& x = dataColumn(f, "x");
        QCOMPARE(int(x.size()), 90);
        std::vector<double> logPost;
        double top = -INFINITY;
        for (int g = 0; g <= 1000; ++g) {
            const double lambda = 0.01 * g;
            double d = 0;
            for (double k : x) {
                const double logP = lambda > 0 ? -lambda + k * std::log(lambda) - std::lgamma(k + 1)
                                               : (k == 0 ? 0 : -INFINITY);
                const double logG = std::lgamma(k + 10) - std::lgamma(10.0) - std::lgamma(k + 1) +
                                    10 * std::log(0.8) + k * std::log(0.2);
                d += 1 - std::exp(0.5 * std::clamp(logP - logG, -5.0, 3.0));
            }
            logPost.push_back(-d); // −n · (d / n)
            top = std::max(top, logPost.back());
        }
        double z = 0, m1 = 0, m2 = 0;
        for (int g = 0; g <= 1000; ++g) {
            const double w = std::exp(logPost[std::size_t(g)] - top);
            z += w;
            m1 += w * 0.01 * g;
            m2 += w * 0.0001 * g * g;
        }
        const double mean = m1 / z, sd = std::sqrt(m2 / z - mean * mean);
        QVERIFY2(std::fabs(f.summary.value("reference.lambda.mean") - mean) < 1e-9,
                 qPrintable(QString("%1 vs %2")
                                .arg(f.summary.value("reference.lambda.mean"), 0, 'g', 12)
                                .arg(mean, 0, 'g', 12)));
        QVERIFY(std::fabs(f.summary.value("reference.lambda.sd") - sd) < 1e-9);
        QCOMPARE(f.summary.value("evaluations"), 1001.0);
    }

    void everyModelReportsItsKeysAndData_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QStringList>("parameters");
        QTest::addColumn<QStringList>("data");
        QTest::newRow("poisson") << "gb-poisson" << QStringList{"lambda"} << QStringList{"x"};
        QTest::newRow("gaussian") << "gb-gaussian" << QStringList{"mu", "log_sigma2"} << QStringList{"x"};
        QTest::newRow("regression") << "gb-regression" << QStringList{"beta0", "beta1", "log_sigma2"}
                                    << QStringList{"x", "y"};
    }

    void everyModelReportsItsKeysAndData()
    {
        QFETCH(QString, id);
        QFETCH(QStringList, parameters);
        QFETCH(QStringList, data);
        // A short run: 10 initial points and 5 acquisitions with the VB classifier.
        const Figure f = runScenario(id.toStdString(), {{"acquisitions", 5}, {"n_obs", 40}});
        for (const QString& p : parameters)
            for (const char* who : {"reference", "method"})
                for (const char* stat : {"mean", "sd"})
                    QVERIFY2(f.summary.contains(QString("%1.%2.%3").arg(who, p, stat).toStdString()),
                             qPrintable(p));
        QCOMPARE(f.summary.value("evaluations"), 15.0);
        const double jsd = f.summary.value("jsd");
        QVERIFY(jsd >= 0 && jsd <= std::sqrt(std::log(2.0)));
        for (const QString& d : data)
            QCOMPARE(int(dataColumn(f, d.toStdString()).size()), 40);
        QCOMPARE(int(f.plots.size()), 2 + int(parameters.size()));
    }

    void temperingOnlyRescalesTheLogPosterior()
    {
        // Evaluations do not depend on τ, so the method's log posterior at τ = 0.5 is half
        // the one at τ = 1 up to a constant; on Gen grid that holds exactly, and the means
        // must differ (the comparison can fail).
        const Figure one = runScenario("gb-gaussian", {{"method", 4}, {"tempering", 1}});
        const Figure half = runScenario("gb-gaussian", {{"method", 4}, {"tempering", 0.5}});
        QVERIFY(half.summary.value("method.mu.sd") > one.summary.value("method.mu.sd") * 1.2);
        QCOMPARE(half.summary.value("evaluations"), one.summary.value("evaluations"));
    }

    void revisitedSettingsReplayTheirSurfaces()
    {
        // Surfaces are cached per setting: going back to a divergence, or changing only τ,
        // must give exactly what a fresh scenario computes. A new divergence first shows the
        // previous loop's 30 evaluations rescored, before its own loop reaches 10.
        const auto fresh = [] { return scenarios::makeGbPoissonScenario(); };
        auto with = [&fresh](ParameterValues v) {
            for (const auto& [k, x] : fresh()->schema().defaults())
                v.emplace(k, x);
            return RunInput{v, {}, {}};
        };
        const ParameterValues kl{{"method", 2}, {"divergence", 7}, {"acquisitions", 20}};
        ParameterValues hellinger = kl, halfKl = kl;
        hellinger["divergence"] = 1;
        halfKl["tempering"] = 0.5;

        const auto shared = fresh();
        const Figure first = shared->runChecked(with(kl), {});
        std::vector<std::string> seriesOfFirstPartial;
        const std::atomic<bool> cancel{false};
        const RunContext watched(&cancel, [&](const Figure& partial, double) {
            // After the data alone, shown while the new divergence's reference is computed.
            if (seriesOfFirstPartial.empty() && partial.plots.size() > 1)
                for (const auto& series : partial.plots.at(1).series)
                    seriesOfFirstPartial.push_back(series.name);
        });
        const Figure other = shared->runChecked(with(hellinger), watched);
        QVERIFY(std::find(seriesOfFirstPartial.begin(), seriesOfFirstPartial.end(), "evaluations (30)") !=
                seriesOfFirstPartial.end());
        QVERIFY(other.summary.value("jsd") != first.summary.value("jsd"));

        const Figure again = shared->runChecked(with(kl), {});
        const Figure half = shared->runChecked(with(halfKl), {});
        const Figure halfFresh = fresh()->runChecked(with(halfKl), {});
        for (const char* key : {"jsd", "method.lambda.mean", "method.lambda.sd", "reference.lambda.sd"}) {
            QCOMPARE(again.summary.value(key), first.summary.value(key));
            QCOMPARE(half.summary.value(key), halfFresh.summary.value(key));
        }
        QVERIFY(half.summary.value("method.lambda.sd") > first.summary.value("method.lambda.sd") * 1.2);
    }

    void genGridShowsTheReferenceBeforeItsOwnSurface()
    {
        // Gen grid has no loop to publish from: on a fresh data set the data come first, then
        // the reference posterior while the KDE's divergence is computed, which the final
        // figure then shows unchanged beside the method's.
        const auto scenario = scenarios::makeGbRegressionScenario();
        ParameterValues v{{"method", 4}};
        for (const auto& [k, x] : scenario->schema().defaults())
            v.emplace(k, x);
        std::vector<Figure> partials;
        const std::atomic<bool> cancel{false};
        const RunContext watched(&cancel, [&](const Figure& f, double) { partials.push_back(f); });
        const Figure final = scenario->runChecked({v, {}, {}}, watched);
        QCOMPARE(int(partials.size()), 2);
        QCOMPARE(int(partials[0].plots.size()), 1); // the data alone
        const Figure& second = partials[1];
        QCOMPARE(second.plots.size(), final.plots.size());
        QVERIFY(!second.warnings.empty() && second.warnings.back().rfind("Still computing", 0) == 0);
        for (std::size_t k = 2; k < final.plots.size(); ++k) { // the posteriors of β₀, β₁, log σ²
            QCOMPARE(int(second.plots[k].series.size()), 1);
            QCOMPARE(second.plots[k].series[0].name, std::string("reference (true g)"));
            QVERIFY(second.plots[k].series[0].y == final.plots[k].series[0].y);
            QCOMPARE(int(final.plots[k].series.size()), 2);
        }
    }

    void aNewDivergenceFirstShowsTheLastFitRescored()
    {
        // The stand-in for a new divergence is the last loop's final GP — its lengthscales and
        // noise and constant relative to σ² — given the rescored values and σ² refitted in
        // closed form. With no acquisitions that GP is a fresh fit to the 10 initial points,
        // which smoothEvaluations reproduces from the figure's own evaluations; the stand-in
        // is recomputed here by GpRegression at those hyperparameters and must match the
        // partial figure's curve and band. The final figure must not depend on the stand-in.
        const auto fresh = [] { return scenarios::makeGbPoissonScenario(); };
        auto with = [&fresh](ParameterValues v) {
            for (const auto& [k, x] : fresh()->schema().defaults())
                v.emplace(k, x);
            return RunInput{v, {}, {}};
        };
        const ParameterValues kl{{"method", 2}, {"divergence", 7}, {"acquisitions", 0}};
        ParameterValues hellinger = kl;
        hellinger["divergence"] = 1;
        const auto shared = fresh();
        const std::atomic<bool> cancel{false};
        // As in the window: a loop whose figures someone watches prepares the stand-ins.
        const Figure first = shared->runChecked(with(kl), RunContext(&cancel, [](const Figure&, double) {}));
        std::optional<Plot> standIn;
        const RunContext watched(&cancel, [&](const Figure& partial, double) {
            if (!standIn && partial.plots.size() > 1) // after the data alone
                standIn = partial.plots.at(1);
        });
        const Figure other = shared->runChecked(with(hellinger), watched);
        QVERIFY(standIn);
        QCOMPARE(standIn->series.size(), std::size_t(3)); // with the true g, GP mean, evaluations
        QCOMPARE(standIn->bands.size(), std::size_t(1));
        const Series& evaluated = first.plots.at(1).series.at(2);
        const Series& rescored = standIn->series.at(2);
        QCOMPARE(rescored.name, std::string("evaluations (10)"));
        QVERIFY(rescored.x == evaluated.x);
        QVERIFY(rescored.y != evaluated.y);

        const genbayes::ParameterBox box = genbayes::poissonModel()->box();
        const Eigen::MatrixXd grid = box.grid();
        const Eigen::Map<const Eigen::VectorXd> thetas(evaluated.x.data(), Eigen::Index(evaluated.x.size()));
        const Eigen::Map<const Eigen::VectorXd> klValues(evaluated.y.data(),
                                                         Eigen::Index(evaluated.y.size()));
        const Eigen::Map<const Eigen::VectorXd> y(rescored.y.data(), Eigen::Index(rescored.y.size()));
        Eigen::VectorXd h = genbayes::smoothEvaluations(box, grid, thetas, klValues, gp::KernelKind::Matern52)
                                .logHyperparameters;
        const Eigen::MatrixXd unitThetas = thetas / 10, unitGrid = grid / 10; // λ ∈ [0, 10]
        gp::GpRegression gp(gp::Kernel(gp::KernelKind::Matern52, 1, Eigen::VectorXd::Ones(1)), y.mean());
        gp.setData(unitThetas, y);
        gp.enableNoise(1);
        gp.enableConstant(1);
        gp.setLogHyperparameters(h);
        // σ̂² = (y − m)ᵀ K₁⁻¹ (y − m)/n with K = σ² K₁: shift all three log variances by log(σ̂²/σ²).
        const double logShift = std::log((y.array() - y.mean()).matrix().dot(gp.alpha()) / double(y.size()));
        h(0) += logShift;
        h(2) += logShift;
        h(3) += logShift;
        gp.setLogHyperparameters(h);
        Eigen::VectorXd mean, variance;
        gp.predict(unitGrid, mean, variance);
        const Series& curve = standIn->series.at(1);
        const Band& band = standIn->bands.at(0);
        QCOMPARE(curve.y.size(), std::size_t(grid.rows()));
        const double scale = y.cwiseAbs().maxCoeff();
        for (Eigen::Index g = 0; g < grid.rows(); g += 50) {
            // Two routes to one formula: rounding only.
            EVX_COMPARE_NEAR(curve.y[std::size_t(g)], mean(g), 1e-9 * scale);
            EVX_COMPARE_NEAR(band.upper[std::size_t(g)] - band.lower[std::size_t(g)],
                             4 * std::sqrt(variance(g)), 1e-9 * scale);
        }
        const Figure otherFresh = fresh()->runChecked(with(hellinger), {});
        for (const char* key : {"jsd", "method.lambda.mean", "method.lambda.sd", "reference.lambda.sd"})
            QCOMPARE(other.summary.value(key), otherFresh.summary.value(key));
    }

    void simulationDesignAndFeatureBasisReachTheClassifier()
    {
        // Defaults: the auto design (stratified for VB, independent for CV and EB); the
        // principal feature basis only for the regression (where the paper's basis loses the
        // scale signal).
        for (const char* id : {"gb-poisson", "gb-gaussian", "gb-regression"}) {
            const ParameterValues d = ScenarioRegistry::instance().find(id)->schema().defaults();
            QCOMPARE(d.at("simulation"), 2.0);
            QCOMPARE(d.at("feature_basis"), std::string(id) == "gb-regression" ? 1.0 : 0.0);
        }
        // A short VB loop on NB data: the sd of the evaluations' distances to D with the true
        // g (their bias changes slowly along λ, their noise does not) shows the design
        // (measured 0.042 stratified, 0.205 independent, 0.058 stratified on other seeds).
        auto scatter = [](const Figure& f) {
            const auto& series = f.plots.at(1).series;
            const Series& truth = series.at(0);
            const Series& evaluations = series.at(2);
            std::vector<double> r;
            for (std::size_t i = 0; i < evaluations.x.size(); ++i)
                r.push_back(evaluations.y[i] - truth.y[std::size_t(std::lround(evaluations.x[i] / 0.01))]);
            double mean = 0, sum = 0;
            for (double v : r)
                mean += v / double(r.size());
            for (double v : r)
                sum += (v - mean) * (v - mean);
            return std::sqrt(sum / double(r.size()));
        };
        const ParameterValues base{{"method", 2}, {"divergence", 7}, {"acquisitions", 20}};
        ParameterValues independent = base, principal = base;
        independent["simulation"] = 1;
        principal["feature_basis"] = 1;
        const Figure standard = runScenario("gb-poisson", base);
        QCOMPARE(standard.plots.at(1).series.at(2).x.size(), std::size_t(30));
        const double stratifiedScatter = scatter(standard),
                     independentScatter = scatter(runScenario("gb-poisson", independent));
        QVERIFY2(2.5 * stratifiedScatter < independentScatter,
                 qPrintable(QString("sd of evaluations − D: stratified %1, independent %2")
                                .arg(stratifiedScatter)
                                .arg(independentScatter)));
        QVERIFY(runScenario("gb-poisson", principal).summary.value("jsd") != standard.summary.value("jsd"));
        // Auto is stratified for VB and independent for EB: the same run as the explicit choice,
        // and not the other one.
        ParameterValues stratified = base;
        stratified["simulation"] = 0;
        QCOMPARE(runScenario("gb-poisson", stratified).summary.value("jsd"), standard.summary.value("jsd"));
        ParameterValues eb = base;
        eb["method"] = 1;
        ParameterValues ebIndependent = eb, ebStratified = eb;
        ebIndependent["simulation"] = 1;
        ebStratified["simulation"] = 0;
        const double ebAuto = runScenario("gb-poisson", eb).summary.value("jsd");
        QCOMPARE(ebAuto, runScenario("gb-poisson", ebIndependent).summary.value("jsd"));
        QVERIFY(ebAuto != runScenario("gb-poisson", ebStratified).summary.value("jsd"));
    }

    // Why CV and EB are not stratified by default (docs/gb-tables.md): on stratified
    // simulations the held-out loss and the evidence shrink δ towards 0 near the optimum, D̂
    // comes out flat and the posterior wide (seeds 0–9 under KL: sd 1.36–1.94 times the
    // reference's); with the penalty fixed it is not (EB 0.94–1.08), and auto then stratifies.
    // Seed 0: EB 1.44 and 1.04 (JSD 0.265 and 0.034), CV 1.49 and 1.02 (JSD 0.263 and 0.035).
    void fixedPenaltiesKeepThePosteriorsWidth_data()
    {
        QTest::addColumn<double>("method");
        QTest::addColumn<QString>("penalty");
        QTest::addColumn<double>("value");
        QTest::newRow("eb") << 1.0 << "eb_precision" << 1.0;
        QTest::newRow("cv") << 0.0 << "cv_c" << 10.0;
    }
    void fixedPenaltiesKeepThePosteriorsWidth()
    {
        QFETCH(double, method);
        QFETCH(QString, penalty);
        QFETCH(double, value);
        const std::string name = penalty.toStdString();
        ParameterValues adaptive{{"method", method}, {"divergence", 7}, {"simulation", 0}};
        ParameterValues fixed{{"method", method}, {"divergence", 7}, {name, value}};
        auto widthRatio = [](const Figure& f) {
            return f.summary.value("method.lambda.sd") / f.summary.value("reference.lambda.sd");
        };
        const Figure shrunk = runScenario("gb-poisson", adaptive), kept = runScenario("gb-poisson", fixed);
        QVERIFY2(widthRatio(shrunk) > 1.3, qPrintable(QString::number(widthRatio(shrunk))));
        QVERIFY2(std::fabs(widthRatio(kept) - 1) < 0.1, qPrintable(QString::number(widthRatio(kept))));
        QVERIFY2(
            kept.summary.value("jsd") < 0.5 * shrunk.summary.value("jsd"),
            qPrintable(
                QString("%1 against %2").arg(kept.summary.value("jsd")).arg(shrunk.summary.value("jsd"))));
        // Auto stratifies a fixed penalty; the penalty changes nothing for VB.
        fixed["simulation"] = 0;
        QCOMPARE(runScenario("gb-poisson", fixed).summary.value("jsd"), kept.summary.value("jsd"));
        ParameterValues vb{{"method", 2}, {"divergence", 7}, {"acquisitions", 20}}, vbFixed = vb;
        vbFixed[name] = value;
        QCOMPARE(runScenario("gb-poisson", vbFixed).summary.value("jsd"),
                 runScenario("gb-poisson", vb).summary.value("jsd"));
    }

    // generative_g reaches Gen grid: with the paper's literal g (generative_density.h) every log r is
    // clipped, so the posterior is the uniform prior on the 51³ grid, whose moments are closed
    // form: mean (a + b)/2 and sd (b − a)/2 · √(52/(3·50)) for 51 equally spaced points on
    // [a, b]. With the default (noise) g it is not.
    void paperGenerativeGGivesThePrior()
    {
        const Figure paper = runScenario("gb-regression", {{"method", 4}, {"truth", 0}, {"generative_g", 1}});
        const double lower[3] = {-1, -2, -3}, upper[3] = {1, 0, 1};
        const char* names[3] = {"beta0", "beta1", "log_sigma2"};
        for (int k = 0; k < 3; ++k) {
            const std::string key = std::string("method.") + names[k];
            const double half = (upper[k] - lower[k]) / 2;
            EVX_COMPARE_NEAR(paper.summary.value(key + ".mean"), (upper[k] + lower[k]) / 2, 1e-12);
            EVX_COMPARE_NEAR(paper.summary.value(key + ".sd"), half * std::sqrt(52.0 / 150.0), 1e-12);
        }
        // The default g: the posterior of log σ² (Hellinger, seed 0: sd 0.52) well inside the
        // prior's (1.18).
        const Figure noise = runScenario("gb-regression", {{"method", 4}, {"truth", 0}});
        const double priorSd = 2 * std::sqrt(52.0 / 150.0);
        QVERIFY2(noise.summary.value("method.log_sigma2.sd") < 0.75 * priorSd,
                 qPrintable(QString("noise g: sd of log σ² %1, prior %2")
                                .arg(noise.summary.value("method.log_sigma2.sd"))
                                .arg(priorSd)));
        // The held-out g ignores x, so it is far from the truth and Gen grid with it far from the
        // reference (seed 0, Hellinger: JSD 0.58 against the noise g's 0.31).
        const Figure heldOut =
            runScenario("gb-regression", {{"method", 4}, {"truth", 0}, {"generative_g", 2}});
        QVERIFY2(heldOut.summary.value("jsd") > noise.summary.value("jsd") + 0.15,
                 qPrintable(QString("JSD with the held-out g %1, with the noise g %2")
                                .arg(heldOut.summary.value("jsd"))
                                .arg(noise.summary.value("jsd"))));
    }

    void badInputIsRefused()
    {
        try {
            runScenario("gb-poisson", {{"n_obs", 15}, {"folds", 20}});
            QFAIL("n_obs < folds accepted");
        } catch (const InvalidParameter& e) {
            QVERIFY2(QString(e.what()).contains("at least the number of folds"), e.what());
        }
        // Cross-validated classifiers on 1000 regression points would train for minutes.
        try {
            runScenario("gb-regression", {{"method", 0}, {"n_obs", 1000}});
            QFAIL("a run beyond the work budget was accepted");
        } catch (const InvalidParameter& e) {
            QVERIFY2(QString(e.what()).contains("use the vb or eb classifier"), e.what());
        }
        const auto s = ScenarioRegistry::instance().find("gb-poisson");
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, s->schema().parse("divergence", "jensen"));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, s->schema().parse("method", "mcmc"));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, s->schema().parse("seed", "-1"));
    }
};

QTEST_GUILESS_MAIN(TestGbScenarios)
#include "test_gb_scenarios.moc"
