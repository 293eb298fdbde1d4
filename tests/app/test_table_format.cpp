// The table made from a study's runs: the best restart per replicate counts, every metric gets
// its mean (or median) and sd in the study's naming, the provenance travels with the JSON, a
// partial table says so, failed runs are left out of the numbers and named in every format, and a
// study's note is printed with it. Three tables run in-process: cells of different scenarios,
// every run failing, and some runs failing.
#include "table_command.h"
#include "table_format.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace evx;

namespace {

// Two cells × 3 splits × 2 restarts, metrics a and b, selected by "val"; the second restart of
// each split is better except on split 1, where its selection value is not finite.
Study selectingStudy()
{
    Study s;
    s.id = "toy";
    s.title = "Toy";
    s.scenarioId = "none";
    s.metrics = {"a", "b"};
    s.columns = {"dataset"};
    s.replicateKey = "split";
    s.selectBy = "val";
    s.naming = RowNaming::SdSuffix;
    for (const char* d : {"one", "two"}) {
        StudyCell c;
        c.labels = {{"dataset", d}};
        c.paper = {{"a", 1.5}};
        s.cells.push_back(c);
    }
    return s;
}

std::vector<StudyRun> selectingRuns()
{
    std::vector<StudyRun> runs;
    for (int cell = 0; cell < 2; ++cell)
        for (int split = 0; split < 3; ++split)
            for (int restart = 0; restart < 2; ++restart) {
                const double select = split == 1 && restart == 1 ? NAN : double(restart);
                // a = 10·cell + split + 100·restart: which restart won shows in the hundreds.
                runs.push_back(
                    {cell, split, restart, {10.0 * cell + split + 100.0 * restart, -1.0 * split}, select});
            }
    return runs;
}

QJsonArray rowsOf(const QByteArray& json)
{
    return QJsonDocument::fromJson(json).object().value("rows").toArray();
}

} // namespace

class TestTableFormat : public QObject {
    Q_OBJECT

private slots:
    void keepsTheBestRestartOfEachReplicate()
    {
        const Study study = selectingStudy();
        const QJsonArray rows = rowsOf(tableJson(study, selectingRuns()));
        QCOMPARE(rows.size(), 2);
        const QJsonObject first = rows[0].toObject();
        QCOMPARE(first.value("dataset").toString(), QString("one"));
        // Splits 0 and 2 keep restart 1 (a = 100, 102); split 1 keeps restart 0 (a = 1).
        QCOMPARE(first.value("a").toDouble(), (100.0 + 1.0 + 102.0) / 3);
        QCOMPARE(first.value("b").toDouble(), -1.0);
        QCOMPARE(first.value("b_sd").toDouble(), 1.0);
        QCOMPARE(first.value("splits").toInt(), 3);
        QCOMPARE(first.value("paper_a").toDouble(), 1.5);
        QVERIFY(!first.contains("paper_b"));
        QCOMPARE(rows[1].toObject().value("a").toDouble(), (110.0 + 11.0 + 112.0) / 3);
    }

    void failedRunsAreLeftOut()
    {
        Study study = selectingStudy();
        std::vector<StudyRun> runs = selectingRuns();
        for (StudyRun& r : runs)
            if (r.cell == 1)
                r.values = {NAN, NAN};
        const QJsonArray rows = rowsOf(tableJson(study, runs));
        QCOMPARE(rows.size(), 1); // cell "two" failed everywhere: no row
        QVERIFY(tableMarkdown(study, runs).contains("| one | 3 |"));
        QVERIFY(!tableMarkdown(study, runs).contains("| two |"));
    }

    void provenanceTravelsWithTheJson()
    {
        const Study study = selectingStudy();
        TableProvenance p;
        p.options = {{"--splits", 3}, {"--restarts", 2}, {"epochs", 300}};
        p.shard = 2;
        p.shards = 3;
        p.version = "0.1.0 (abc)";
        p.totalRuns = 12;
        const QJsonObject root = QJsonDocument::fromJson(tableJson(study, selectingRuns(), p)).object();
        const auto back = provenanceFromJson(root.value("provenance"));
        QVERIFY(back);
        QCOMPARE(back->options, p.options);
        QCOMPARE(back->shard, 2);
        QCOMPARE(back->shards, 3);
        QCOMPARE(back->version, p.version);
        QCOMPARE(back->totalRuns, qint64(12));
        QVERIFY(!root.contains("partial"));
        // A shard past the count, or a count that is not whole, is no provenance.
        QJsonObject bad = root.value("provenance").toObject();
        bad["shard"] = 4;
        QVERIFY(!provenanceFromJson(bad));
        bad["shard"] = 1.5;
        QVERIFY(!provenanceFromJson(bad));
        QVERIFY(!provenanceFromJson(QJsonValue("text")));
    }

    void aPartialTableSaysSoInEveryFormat()
    {
        const Study study = selectingStudy();
        const TablePartial partial{true, "3 of the 12 runs"};
        const QJsonObject root =
            QJsonDocument::fromJson(tableJson(study, selectingRuns(), std::nullopt, partial)).object();
        QCOMPARE(root.value("partial").toBool(), true);
        QCOMPARE(root.value("partial_why").toString(), QString("3 of the 12 runs"));
        const QByteArray csv = tableCsv(study, selectingRuns(), partial);
        QVERIFY2(csv.startsWith("dataset,a,a_sd,b,b_sd,splits,paper_a,partial\n") && csv.contains(",yes\n"),
                 csv.constData());
        QVERIFY(
            tableMarkdown(study, selectingRuns(), partial).contains("**Partial table**: 3 of the 12 runs\n"));
        QVERIFY(!tableMarkdown(study, selectingRuns()).contains("Partial"));
    }

    void namesFollowTheStudy()
    {
        Study study = selectingStudy();
        study.naming = RowNaming::MeanSdPrefix;
        study.selectBy.clear();
        const QByteArray csv = tableCsv(study, selectingRuns());
        QVERIFY2(csv.startsWith("dataset,mean_a,sd_a,mean_b,sd_b,splits,paper_a\n"), csv.constData());
        // Without a selection key the lower restart counts: a = 0, 1, 2 for cell one.
        QVERIFY2(csv.contains("\none,1,1,-1,1,3,1.5\n"), csv.constData());
    }

    void aNoteReachesTheMarkdownAndTheJson()
    {
        Study study = selectingStudy();
        const std::vector<StudyRun> runs = selectingRuns();
        QVERIFY(!tableMarkdown(study, runs).contains("Read the rows"));
        QVERIFY(!QJsonDocument::fromJson(tableJson(study, runs)).object().contains("note"));
        study.note = "Read the rows swapped.";
        const QByteArray markdown = tableMarkdown(study, runs);
        // Under the heading and its one-line description, before the table.
        QVERIFY2(markdown.contains(".\n\nRead the rows swapped.\n\n| dataset |"), markdown.constData());
        QCOMPARE(QJsonDocument::fromJson(tableJson(study, runs)).object().value("note").toString(),
                 QString("Read the rows swapped."));
    }

    void medianMetricsAreAggregatedAndNamedAsMedians()
    {
        Study study = selectingStudy();
        study.selectBy.clear(); // restart 0 counts: a = 10·cell + split, b = −split
        std::vector<StudyRun> runs = selectingRuns();
        // A fourth split whose a is far off: the mean moves, the median (of 0, 1, 2, 1000) is 1.5.
        runs.push_back({0, 3, 0, {1000, -3}, 0});
        study.medianMetrics = {"a"};
        const QJsonObject first = rowsOf(tableJson(study, runs))[0].toObject();
        QCOMPARE(first.value("a_median").toDouble(), 1.5);
        QVERIFY(!first.contains("a"));
        QCOMPARE(first.value("b").toDouble(), -1.5); // b keeps the mean
        QCOMPARE(QJsonDocument::fromJson(tableJson(study, runs)).object().value("median_metrics").toArray(),
                 QJsonArray{"a"});
        QVERIFY2(tableCsv(study, runs).startsWith("dataset,a_median,a_sd,b,b_sd,splits,paper_a\n"),
                 tableCsv(study, runs).constData());
        const QByteArray markdown = tableMarkdown(study, runs);
        QVERIFY2(markdown.contains("| a (median) |") && markdown.contains("median ± sd for a"),
                 markdown.constData());
        QVERIFY2(markdown.contains("| one | 4 | 1.5000 ± "), markdown.constData());
        study.naming = RowNaming::MeanSdPrefix;
        QVERIFY(rowsOf(tableJson(study, runs))[0].toObject().contains("median_a"));
        // An even count of two: the mean of both.
        QCOMPARE(rowsOf(tableJson(study, {runs[0], runs[2]}))[0].toObject().value("median_a").toDouble(),
                 0.5);
    }

    void aCellRunsItsOwnScenario()
    {
        // Two cells of one table: the first runs the study's scenario, the second its own. The
        // metric tells them apart by a summary key only ue-discrete writes.
        Study study;
        study.id = "toy-scenarios";
        study.title = "Toy";
        study.scenarioId = "ue-gaussian";
        study.metrics = {"discrete"};
        study.columns = {"model"};
        study.replicateValues = [](int, int) { return ParameterValues{}; };
        study.derive = [](const std::string&, const Summary& s) {
            return s.contains("equivalence.max_abs_diff") ? 1.0 : 0.0;
        };
        StudyCell gaussian, discrete;
        gaussian.labels = {{"model", "gaussian"}};
        discrete.labels = {{"model", "discrete"}};
        discrete.scenarioId = "ue-discrete";
        study.cells = {gaussian, discrete};
        QTemporaryDir dir;
        TableCommand command;
        command.study = study;
        command.replicates = 1;
        command.exports = {dir.filePath("t.json"), dir.filePath("t.md")};
        QCOMPARE(runTableCommand(command), 0);
        QFile f(dir.filePath("t.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray rows = rowsOf(f.readAll());
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject().value("mean_discrete").toDouble(), 0.0);
        QCOMPARE(rows[1].toObject().value("mean_discrete").toDouble(), 1.0);
        QFile md(dir.filePath("t.md"));
        QVERIFY(md.open(QIODevice::ReadOnly));
        QVERIFY(md.readAll().contains("discrete of `ue-gaussian`, `ue-discrete` over"));
    }

    void aTableWhoseEveryRunFailsExitsNonZero()
    {
        // A cell the scenario refuses at run time (sigma_x < 0): every run fails, and the
        // command says so instead of writing an empty table with exit 0.
        Study study;
        study.id = "toy-failing";
        study.title = "Toy";
        study.scenarioId = "ue-gaussian";
        study.metrics = {"anything"};
        study.columns = {"model"};
        study.replicateValues = [](int, int) { return ParameterValues{}; };
        StudyCell cell;
        cell.labels = {{"model", "broken"}};
        cell.values = {{"sigma_x", -1}};
        study.cells = {cell};
        QTemporaryDir dir;
        TableCommand command;
        command.study = study;
        command.replicates = 2;
        command.exports = {dir.filePath("t.json")};
        QCOMPARE(runTableCommand(command), 1);
        QVERIFY(!QFile::exists(dir.filePath("t.json")));
    }

    void aTableWithSomeFailedRunsIsWrittenMarkedAndExitsNonZero()
    {
        // Two cells of ue-gaussian, the second refused at run time (sigma_x < 0): the table is
        // written with the first cell's numbers, and every format names the failures.
        Study study;
        study.id = "toy-some-failing";
        study.title = "Toy";
        study.scenarioId = "ue-gaussian";
        study.metrics = {"jeffrey.mean"};
        study.columns = {"model"};
        study.replicateValues = [](int, int) { return ParameterValues{}; };
        StudyCell good, broken;
        good.labels = {{"model", "good"}};
        broken.labels = {{"model", "broken"}};
        broken.values = {{"sigma_x", -1}};
        study.cells = {good, broken};
        QTemporaryDir dir;
        TableCommand command;
        command.study = study;
        command.replicates = 2;
        command.exports = {dir.filePath("t.json"), dir.filePath("t.csv"), dir.filePath("t.md")};
        QCOMPARE(runTableCommand(command), 1);

        QFile f(dir.filePath("t.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(root.value("failed_runs").toInt(), 2);
        const QJsonArray failures = root.value("failures").toArray();
        QCOMPARE(failures.size(), 2);
        QCOMPARE(failures[0].toObject().value("model").toString(), QString("broken"));
        QCOMPARE(failures[1].toObject().value("seed").toInt(), 1);
        QVERIFY2(failures[0].toObject().value("error").toString().contains("sigma_x"),
                 qPrintable(failures[0].toObject().value("error").toString()));
        const QJsonArray rows = root.value("rows").toArray();
        QCOMPARE(rows.size(), 2); // the broken cell keeps a row that counts its failures
        QCOMPARE(rows[0].toObject().value("failed_runs").toInt(), 0);
        QCOMPARE(rows[0].toObject().value("seeds").toInt(), 2);
        QCOMPARE(rows[1].toObject().value("failed_runs").toInt(), 2);
        QCOMPARE(rows[1].toObject().value("seeds").toInt(), 0);
        QCOMPARE(root.value("runs").toArray()[2].toObject().value("error"),
                 failures[0].toObject().value("error"));

        QFile csv(dir.filePath("t.csv")), md(dir.filePath("t.md"));
        QVERIFY(csv.open(QIODevice::ReadOnly) && md.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QVERIFY2(lines[0].endsWith(",failed_runs") && lines[1].endsWith(",0") && lines[2].endsWith(",2"),
                 lines[0].constData());
        const QByteArray markdown = md.readAll();
        QVERIFY2(markdown.contains("**Failed runs**: 2 of the 4 runs failed and are left out of the numbers "
                                   "(broken, seed 0: "),
                 markdown.constData());
    }

    void aCompleteTableHasNoFailureMark()
    {
        const Study study = selectingStudy();
        QVERIFY(!QJsonDocument::fromJson(tableJson(study, selectingRuns())).object().contains("failed_runs"));
        QVERIFY(!tableCsv(study, selectingRuns()).contains("failed_runs"));
        QVERIFY(!tableMarkdown(study, selectingRuns()).contains("Failed runs"));
    }
};

QTEST_GUILESS_MAIN(TestTableFormat)
#include "test_table_format.moc"
