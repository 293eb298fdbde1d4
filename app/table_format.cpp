#include "table_format.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <map>

namespace evx {
namespace {

struct MetricAggregate {
    double mean = NAN, sd = NAN; // `mean` holds the median for Study::medianMetrics
    int count = 0;
};

struct CellAggregate {
    std::vector<MetricAggregate> metrics;
    int replicates = 0;
    int failed = 0; // runs of the cell that failed
};

// The middle value, or the mean of the two middle ones.
double median(std::vector<double> v)
{
    const std::size_t h = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(h), v.end());
    const double upper = v[h];
    if (v.size() % 2 == 1)
        return upper;
    return (*std::max_element(v.begin(), v.begin() + std::ptrdiff_t(h)) + upper) / 2;
}

// Of two restarts of one replicate, the one the study keeps: the larger selection value, ties
// and unselected studies to the lower restart, so the choice never depends on run order.
bool preferred(const StudyRun& a, const StudyRun& b, bool selecting)
{
    if (selecting) {
        const bool fa = std::isfinite(a.select), fb = std::isfinite(b.select);
        if (fa != fb)
            return fa;
        if (fa && a.select != b.select)
            return a.select > b.select;
    }
    return a.restart < b.restart;
}

std::map<int, CellAggregate> aggregate(const Study& study, const std::vector<StudyRun>& runs)
{
    // Ordered by cell, then replicate: sums run in replicate order, so a merged table equals the
    // unsharded one to the last bit.
    std::map<std::pair<int, int>, const StudyRun*> chosen;
    for (const StudyRun& r : runs) {
        const StudyRun*& c = chosen[{r.cell, r.replicate}];
        if (!c || preferred(r, *c, !study.selectBy.empty()))
            c = &r;
    }
    std::map<int, std::vector<std::vector<double>>> byCell; // cell → metric → values
    std::map<int, int> replicates, failed;
    for (const StudyRun& r : runs)
        failed[r.cell] += r.error.empty() ? 0 : 1;
    for (const auto& [key, run] : chosen) {
        auto& columns = byCell[key.first];
        columns.resize(study.metrics.size());
        bool any = false;
        for (std::size_t m = 0; m < study.metrics.size() && m < run->values.size(); ++m)
            if (std::isfinite(run->values[m])) {
                columns[m].push_back(run->values[m]);
                any = true;
            }
        replicates[key.first] += any ? 1 : 0;
    }
    // A cell whose every run failed keeps its row, empty but for the count of failures.
    std::map<int, CellAggregate> out;
    for (const auto& [cell, columns] : byCell) {
        if (replicates[cell] == 0 && failed[cell] == 0)
            continue;
        CellAggregate a;
        a.replicates = replicates[cell];
        a.failed = failed[cell];
        for (const std::vector<double>& v : columns) {
            MetricAggregate m;
            m.count = int(v.size());
            if (!v.empty()) {
                double mean = 0;
                for (double x : v)
                    mean += x / double(v.size());
                double s = 0;
                for (double x : v)
                    s += (x - mean) * (x - mean);
                m.sd = v.size() > 1 ? std::sqrt(s / double(v.size() - 1)) : NAN;
                m.mean = study.isMedian(study.metrics[a.metrics.size()]) ? median(v) : mean;
            }
            a.metrics.push_back(m);
        }
        out[cell] = a;
    }
    return out;
}

// The cells that have results, in table order: rows of another shard or filter, or not
// reached before Ctrl+C, are left out.
std::vector<std::pair<const StudyCell*, CellAggregate>> tableRows(const Study& study,
                                                                  const std::vector<StudyRun>& runs)
{
    const auto agg = aggregate(study, runs);
    std::vector<std::pair<const StudyCell*, CellAggregate>> rows;
    for (std::size_t c = 0; c < study.cells.size(); ++c)
        if (const auto it = agg.find(int(c)); it != agg.end())
            rows.emplace_back(&study.cells[c], it->second);
    return rows;
}

// A median metric says so in its name: "median_m" or "m_median".
QString meanName(const Study& study, const std::string& metric)
{
    const QString m = QString::fromStdString(metric);
    if (study.isMedian(metric))
        return study.naming == RowNaming::MeanSdPrefix ? "median_" + m : m + "_median";
    return study.naming == RowNaming::MeanSdPrefix ? "mean_" + m : m;
}

QString sdName(const Study& study, const std::string& metric)
{
    const QString m = QString::fromStdString(metric);
    return study.naming == RowNaming::MeanSdPrefix ? "sd_" + m : m + "_sd";
}

QString paperName(const Study& study, const std::string& metric)
{
    return study.metrics.size() == 1 ? QString("paper") : "paper_" + QString::fromStdString(metric);
}

QString countName(const Study& study)
{
    return QString::fromStdString(study.replicateKey) + "s";
}

bool anyPaper(const Study& study, const std::string& metric)
{
    for (const StudyCell& c : study.cells)
        if (c.paperValue(metric))
            return true;
    return false;
}

QJsonValue jsonNumber(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

QString number(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', 4) : QString("–");
}

// "mean ± sd", "mean" with one replicate, "–" without any.
QString meanAndSd(double mean, double sd)
{
    if (!std::isfinite(mean))
        return "–";
    return std::isfinite(sd) ? number(mean) + " ± " + number(sd) : number(mean);
}

QString csvNumber(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 10) : QString();
}

// "`a`" or "`a`, `b`": the scenarios the cells run, in table order.
QString scenarioNames(const Study& study)
{
    QStringList ids;
    for (const StudyCell& c : study.cells)
        if (const QString id = "`" + QString::fromStdString(study.scenarioOf(c)) + "`"; !ids.contains(id))
            ids << id;
    if (ids.isEmpty())
        ids << "`" + QString::fromStdString(study.scenarioId) + "`";
    return ids.join(", ");
}

// "two, seed 1" or "two, seed 1, restart 0": a run as the failure lines name it.
QString runName(const Study& study, const StudyRun& r)
{
    QStringList labels;
    for (const std::string& col : study.columns)
        labels << QString::fromStdString(study.cells[std::size_t(r.cell)].label(col));
    QString name = labels.join('/') + ", " + QString::fromStdString(study.replicateKey) + " " +
                   QString::number(r.replicate);
    if (!study.selectBy.empty())
        name += QString(", restart %1").arg(r.restart);
    return name;
}

// The Markdown's line above a table with failed runs: how many, and the first few with why.
QString failureLine(const Study& study, const std::vector<StudyRun>& runs)
{
    const std::size_t failed = failedRunCount(runs);
    constexpr std::size_t kShown = 5;
    QStringList shown;
    for (const StudyRun& r : runs)
        if (!r.error.empty() && std::size_t(shown.size()) < kShown)
            shown << runName(study, r) + ": " + QString::fromStdString(r.error);
    QString line = QString("**Failed runs**: %1 of the %2 runs failed and are left out of the numbers (%3")
                       .arg(failed)
                       .arg(runs.size())
                       .arg(shown.join("; "));
    if (failed > kShown)
        line += QString("; %1 more in the JSON").arg(failed - kShown);
    return line + ").\n\n";
}

} // namespace

std::size_t failedRunCount(const std::vector<StudyRun>& runs)
{
    return std::size_t(
        std::count_if(runs.begin(), runs.end(), [](const StudyRun& r) { return !r.error.empty(); }));
}

QJsonObject provenanceJson(const TableProvenance& p)
{
    return {{"options", p.options},
            {"shard", p.shard},
            {"shards", p.shards},
            {"version", p.version},
            {"total_runs", p.totalRuns}};
}

std::optional<TableProvenance> provenanceFromJson(const QJsonValue& value)
{
    const QJsonObject o = value.toObject();
    auto whole = [&](const char* key, double least, double most) {
        const QJsonValue v = o.value(key);
        return v.isDouble() && std::floor(v.toDouble()) == v.toDouble() && v.toDouble() >= least &&
               v.toDouble() <= most;
    };
    if (!o.value("options").isObject() || !o.value("version").isString() || !whole("shards", 1, 1e6) ||
        !whole("shard", 1, o.value("shards").toDouble()) || !whole("total_runs", 0, 1e12))
        return std::nullopt;
    TableProvenance p;
    p.options = o.value("options").toObject();
    p.shard = o.value("shard").toInt();
    p.shards = o.value("shards").toInt();
    p.version = o.value("version").toString();
    p.totalRuns = qint64(o.value("total_runs").toDouble());
    return p;
}

QByteArray tableJson(const Study& study, const std::vector<StudyRun>& runs,
                     const std::optional<TableProvenance>& provenance, const TablePartial& partial)
{
    const bool anyFailed = failedRunCount(runs) > 0;
    QJsonArray rows, runArray, failures;
    for (const auto& [cell, a] : tableRows(study, runs)) {
        QJsonObject row;
        for (const auto& [k, v] : cell->labels)
            row[QString::fromStdString(k)] = QString::fromStdString(v);
        for (std::size_t m = 0; m < study.metrics.size(); ++m) {
            row[meanName(study, study.metrics[m])] = jsonNumber(a.metrics[m].mean);
            row[sdName(study, study.metrics[m])] = jsonNumber(a.metrics[m].sd);
            if (const auto p = cell->paperValue(study.metrics[m]))
                row[paperName(study, study.metrics[m])] = *p;
        }
        row[countName(study)] = a.replicates;
        if (anyFailed)
            row["failed_runs"] = a.failed;
        rows.append(row);
    }
    for (const StudyRun& r : runs) {
        QJsonObject o;
        for (const auto& [k, v] : study.cells[std::size_t(r.cell)].labels)
            o[QString::fromStdString(k)] = QString::fromStdString(v);
        o[QString::fromStdString(study.replicateKey)] = r.replicate;
        if (!study.selectBy.empty()) {
            o["restart"] = r.restart;
            o[QString::fromStdString(study.selectBy)] = jsonNumber(r.select);
        }
        for (std::size_t m = 0; m < study.metrics.size() && m < r.values.size(); ++m)
            o[QString::fromStdString(study.metrics[m])] = jsonNumber(r.values[m]);
        if (!r.error.empty()) {
            o["error"] = QString::fromStdString(r.error);
            failures.append(o);
        }
        runArray.append(o);
    }
    QJsonArray metrics;
    for (const std::string& m : study.metrics)
        metrics.append(QString::fromStdString(m));
    QJsonObject root{{"table", QString::fromStdString(study.id)},
                     {"title", QString::fromStdString(study.title)},
                     {"metric", QString::fromStdString(study.metrics.front())},
                     {"metrics", metrics},
                     {"rows", rows},
                     {"runs", runArray}};
    if (!study.selectBy.empty())
        root["select_by"] = QString::fromStdString(study.selectBy);
    if (provenance)
        root["provenance"] = provenanceJson(*provenance);
    if (partial.partial) {
        root["partial"] = true;
        root["partial_why"] = partial.why;
    }
    if (anyFailed) {
        root["failed_runs"] = failures.size();
        root["failures"] = failures;
    }
    if (!study.note.empty())
        root["note"] = QString::fromStdString(study.note);
    if (!study.medianMetrics.empty()) {
        QJsonArray medians;
        for (const std::string& m : study.medianMetrics)
            medians.append(QString::fromStdString(m));
        root["median_metrics"] = medians;
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QByteArray tableCsv(const Study& study, const std::vector<StudyRun>& runs, const TablePartial& partial)
{
    QStringList header;
    for (const std::string& c : study.columns)
        header << QString::fromStdString(c);
    for (const std::string& m : study.metrics)
        header << meanName(study, m) << sdName(study, m);
    header << countName(study);
    for (const std::string& m : study.metrics)
        if (anyPaper(study, m) || study.metrics.size() == 1)
            header << paperName(study, m);
    // A partial table carries the mark on every row, where no reader of the numbers can miss
    // it and the file stays plain CSV.
    if (partial.partial)
        header << "partial";
    // Likewise failed runs: each row counts its own, so a row of fewer runs than asked says why.
    const bool anyFailed = failedRunCount(runs) > 0;
    if (anyFailed)
        header << "failed_runs";
    QString out = header.join(',') + "\n";
    for (const auto& [cell, a] : tableRows(study, runs)) {
        QStringList fields;
        for (const std::string& col : study.columns)
            fields << QString::fromStdString(cell->label(col));
        for (const MetricAggregate& m : a.metrics)
            fields << csvNumber(m.mean) << csvNumber(m.sd);
        fields << QString::number(a.replicates);
        for (const std::string& m : study.metrics)
            if (anyPaper(study, m) || study.metrics.size() == 1) {
                const auto p = cell->paperValue(m);
                fields << (p ? csvNumber(*p) : QString());
            }
        if (partial.partial)
            fields << "yes";
        if (anyFailed)
            fields << QString::number(a.failed);
        out += fields.join(',') + "\n";
    }
    return out.toUtf8();
}

QByteArray tableMarkdown(const Study& study, const std::vector<StudyRun>& runs, const TablePartial& partial)
{
    const QString count = countName(study);
    QString out = QString("# %1\n\n").arg(QString::fromStdString(study.title));
    if (partial.partial)
        out += "**Partial table**: " + partial.why + "\n\n";
    if (failedRunCount(runs) > 0)
        out += failureLine(study, runs);
    QStringList names;
    for (const std::string& m : study.metrics)
        names << QString::fromStdString(m);
    QStringList medians;
    for (const std::string& m : study.medianMetrics)
        medians << QString::fromStdString(m);
    const QString centre = medians.isEmpty() ? QString("mean ± sd")
                           : medians.size() == names.size()
                               ? QString("median ± sd")
                               : "mean ± sd; median ± sd for " + medians.join(", ");
    out += QString("%1 of %2 over %3, ours (%4) beside the paper's")
               .arg(names.join(", "), scenarioNames(study), count, centre);
    if (!study.selectBy.empty())
        out += QString("; each %1 keeps the restart with the largest %2")
                   .arg(QString::fromStdString(study.replicateKey), QString::fromStdString(study.selectBy));
    out += ".\n\n";
    if (!study.note.empty())
        out += QString::fromStdString(study.note) + "\n\n";

    QString header = "|", rule = "|";
    for (const std::string& c : study.columns) {
        header += " " + QString::fromStdString(c) + " |";
        rule += "---|";
    }
    const bool single = study.metrics.size() == 1;
    if (single) {
        header += QString(" ours%1 | ").arg(study.isMedian(study.metrics.front()) ? " (median)" : "") +
                  count + " | paper | ours − paper |";
        rule += "---|---|---|---|";
    } else {
        header += " " + count + " |";
        rule += "---|";
        for (const std::string& m : study.metrics) {
            header += " " + QString::fromStdString(m) + (study.isMedian(m) ? " (median)" : "") + " |";
            rule += "---|";
            if (anyPaper(study, m)) {
                header += " paper |";
                rule += "---|";
            }
        }
    }
    out += header + "\n" + rule + "\n";
    for (const auto& [cell, a] : tableRows(study, runs)) {
        out += "|";
        for (const std::string& col : study.columns)
            out += " " + QString::fromStdString(cell->label(col)) + " |";
        if (single) {
            const auto p = cell->paperValue(study.metrics.front());
            const MetricAggregate& m = a.metrics.front();
            out += QString(" %1 | %2 | %3 | %4 |\n")
                       .arg(meanAndSd(m.mean, m.sd))
                       .arg(a.replicates)
                       .arg(p ? number(*p) : QString("–"))
                       .arg(p && std::isfinite(m.mean) ? number(m.mean - *p) : QString("–"));
            continue;
        }
        out += QString(" %1 |").arg(a.replicates);
        for (std::size_t k = 0; k < study.metrics.size(); ++k) {
            out += " " + meanAndSd(a.metrics[k].mean, a.metrics[k].sd) + " |";
            if (anyPaper(study, study.metrics[k])) {
                const auto p = cell->paperValue(study.metrics[k]);
                out += " " + (p ? number(*p) : QString("–")) + " |";
            }
        }
        out += "\n";
    }
    return out.toUtf8();
}

} // namespace evx
