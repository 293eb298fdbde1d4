#include "table_merge.h"

#include "core/input_limits.h"
#include "scenarios/studies.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace evx {
namespace {

// Every refusal is one line that starts with the file it is about.
struct Refusal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A file as a message names it: quoted, cut if very long.
QString named(const QString& path)
{
    return QString::fromStdString(quoteForMessage(path.toStdString(), kPathCharacters));
}

[[noreturn]] void refuse(const QString& path, const QString& why)
{
    throw Refusal(QString("--merge: %1 %2").arg(named(path), why).toStdString());
}

// A JSON value as a message shows it: 3, gen-grid, "text", null.
QString shown(const QJsonValue& value)
{
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 10);
    if (value.isUndefined())
        return "nothing";
    // Compact JSON escapes control characters; a long value is cut.
    const QByteArray json = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    const QString text = QString::fromUtf8(json.mid(1, json.size() - 2));
    return text.size() > 60 ? text.left(60) + "…" : text;
}

// How an option reads in a message: "--seeds 3", "n_obs = 90", or that it was not given.
QString describe(const QString& key, const QJsonValue& value)
{
    if (value.isUndefined())
        return key.startsWith("--") ? key + " not given" : key + " at its default";
    if (key == "cells")
        return "other cells";
    const QString text = value.isString() ? value.toString() : shown(value);
    return key.startsWith("--") ? key + " " + text : key + " = " + text;
}

// The first option two shards disagree on, as "--seeds 5, where a.json has --seeds 3".
QString difference(const QJsonObject& mine, const QJsonObject& first, const QString& firstPath)
{
    QStringList keys = mine.keys() + first.keys();
    keys.sort();
    keys.removeDuplicates();
    for (const QString& k : keys)
        if (k == "cells" && mine.value(k) != first.value(k))
            return QString("runs other cells than %1").arg(named(firstPath));
        else if (mine.value(k) != first.value(k))
            return QString("was run with %1, where %2 has %3")
                .arg(describe(k, mine.value(k)), named(firstPath), describe(k, first.value(k)));
    return {};
}

// A JSON value as a whole number in [least, most], or nullopt.
std::optional<int> wholeNumber(const QJsonValue& v, int least, int most)
{
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    if (!(d >= least && d <= most) || std::floor(d) != d)
        return std::nullopt;
    return int(d);
}

QJsonObject readObject(const QString& path)
{
    try {
        checkDataFile(path.toStdString(), std::uintmax_t(kMaxTableFileBytes), "table file");
    } catch (const std::exception& e) {
        throw Refusal(QString("--merge: %1").arg(QString::fromUtf8(e.what())).toStdString());
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        refuse(path, "cannot be opened: " + file.errorString());
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.read(kMaxTableFileBytes), &error);
    if (error.error != QJsonParseError::NoError)
        refuse(path, QString("did not parse as JSON (%1 at byte %2): a table file cut short, or not one")
                         .arg(error.errorString())
                         .arg(error.offset));
    if (!document.isObject())
        refuse(path, "did not parse as JSON object: it is not a table file");
    return document.object();
}

// The study as the shards ran it: the registered one with the cells the provenance lists.
Study studyOf(const QString& path, const QJsonObject& root, const TableProvenance& provenance)
{
    const Study* registered = findStudy(root.value("table").toString().toStdString());
    if (!registered)
        refuse(path, QString("is not a table file of this program (table %1)")
                         .arg(QString::fromStdString(
                             quoteForMessage(root.value("table").toString().toStdString()))));
    Study study = *registered;
    study.cells.clear();
    const QJsonValue cells = provenance.options.value("cells");
    if (!cells.isArray())
        refuse(path, "does not list the cells it ran");
    for (const QJsonValue& name : cells.toArray()) {
        const StudyCell* found = nullptr;
        for (const StudyCell& c : registered->cells)
            if (cellKey(*registered, c) == name.toString())
                found = &c;
        if (!found)
            refuse(path, QString("lists a cell %1 that %2 does not have")
                             .arg(QString::fromStdString(quoteForMessage(name.toString().toStdString())),
                                  QString::fromStdString(registered->id)));
        study.cells.push_back(*found);
    }
    return study;
}

int optionInt(const QString& path, const TableProvenance& p, const QString& key, int fallback)
{
    const QJsonValue v = p.options.value(key);
    if (v.isUndefined())
        return fallback;
    const auto n = wholeNumber(v, 1, 1000000);
    if (!n)
        refuse(path, QString("records %1 as %2, not a whole number").arg(key, describe(key, v)));
    return *n;
}

} // namespace

QString cellKey(const Study& study, const StudyCell& cell)
{
    QStringList parts;
    for (const std::string& col : study.columns)
        parts << QString::fromStdString(cell.label(col));
    return parts.join('/');
}

std::variant<MergedTable, QString> mergeTableFiles(const QStringList& paths, bool allowPartial)
{
    try {
        MergedTable merged;
        QString firstPath;
        std::map<int, QString> shardFile;         // K → the file that holds it
        std::set<std::tuple<int, int, int>> seen; // (cell, replicate, restart)
        int replicates = 0, restarts = 1;
        QStringList incomplete;
        for (const QString& path : paths) {
            const QJsonObject root = readObject(path);
            const auto provenance = provenanceFromJson(root.value("provenance"));
            if (!provenance)
                refuse(path, "does not record the options its runs were made with (a table written "
                             "before shards kept them, or not a shard): run it again");
            if (firstPath.isEmpty()) {
                firstPath = path;
                merged.study = studyOf(path, root, *provenance);
                merged.provenance = *provenance; // its shard becomes 1/1 once all are read
                replicates =
                    optionInt(path, *provenance, QString::fromStdString(merged.study.replicateOption),
                              merged.study.defaultReplicates);
                restarts = merged.study.selectBy.empty() ? 1 : optionInt(path, *provenance, "--restarts", 1);
                const qint64 total = qint64(merged.study.cells.size()) * replicates * restarts;
                if (provenance->totalRuns != total)
                    refuse(path, QString("records %1 runs where its options make %2")
                                     .arg(provenance->totalRuns)
                                     .arg(total));
            } else {
                const QString table = root.value("table").toString();
                if (table != QString::fromStdString(merged.study.id))
                    refuse(path, QString("is a %1 table, where %2 is a %3 table")
                                     .arg(QString::fromStdString(quoteForMessage(table.toStdString())),
                                          named(firstPath), QString::fromStdString(merged.study.id)));
                if (const QString d = difference(provenance->options, merged.provenance.options, firstPath);
                    !d.isEmpty())
                    refuse(path, d);
                if (provenance->shards != merged.provenance.shards ||
                    provenance->totalRuns != merged.provenance.totalRuns)
                    refuse(path, QString("is shard %1/%2 of %3 runs, where %4 is one of %5 shards of %6 runs")
                                     .arg(provenance->shard)
                                     .arg(provenance->shards)
                                     .arg(provenance->totalRuns)
                                     .arg(named(firstPath))
                                     .arg(merged.provenance.shards)
                                     .arg(merged.provenance.totalRuns));
                if (provenance->version != merged.provenance.version)
                    refuse(path, QString("was written by version %1, where %2 was written by %3")
                                     .arg(provenance->version, named(firstPath), merged.provenance.version));
            }
            const int k = provenance->shard, n = provenance->shards;
            if (shardFile.count(k))
                refuse(path, QString("is shard %1/%2 again: %3 holds it already")
                                 .arg(k)
                                 .arg(n)
                                 .arg(named(shardFile[k])));
            shardFile[k] = path;

            const Study& study = merged.study;
            const QString replicateKey = QString::fromStdString(study.replicateKey);
            const QJsonValue runsValue = root.value("runs");
            if (!runsValue.isArray())
                refuse(path, "holds no list of runs");
            const QJsonArray runs = runsValue.toArray();
            const qint64 expected = shardRunCount(provenance->totalRuns, k, n);
            if (runs.size() > expected)
                refuse(path, QString("holds %1 runs, more than the %2 of shard %3/%4")
                                 .arg(runs.size())
                                 .arg(expected)
                                 .arg(k)
                                 .arg(n));
            std::map<QString, int> cellOf;
            for (std::size_t c = 0; c < study.cells.size(); ++c)
                cellOf[cellKey(study, study.cells[c])] = int(c);
            qint64 failedHere = 0;
            for (qsizetype i = 0; i < runs.size(); ++i) {
                const QJsonObject o = runs[i].toObject();
                const QString where = QString("run %1").arg(i + 1);
                QStringList labels;
                for (const std::string& col : study.columns)
                    labels << o.value(QString::fromStdString(col)).toString();
                const auto cell = cellOf.find(labels.join('/'));
                if (cell == cellOf.end())
                    refuse(path, QString("%1 is not a cell of the table (%2)")
                                     .arg(where, QString::fromStdString(
                                                     quoteForMessage(labels.join('/').toStdString()))));
                const auto replicate = wholeNumber(o.value(replicateKey), 0, replicates - 1);
                if (!replicate)
                    refuse(path, QString("%1 has %2 %3: not a whole number from 0 to %4")
                                     .arg(where, replicateKey, shown(o.value(replicateKey)))
                                     .arg(replicates - 1));
                const QJsonValue restartValue = study.selectBy.empty() ? QJsonValue(0) : o.value("restart");
                const auto restart = wholeNumber(restartValue, 0, restarts - 1);
                if (!restart)
                    refuse(path, QString("%1 has restart %2: not a whole number from 0 to %3")
                                     .arg(where, shown(restartValue))
                                     .arg(restarts - 1));
                StudyRun run{cell->second, *replicate, *restart, {}, NAN};
                if (runIndex(run, replicates, restarts) % n != k - 1)
                    refuse(path, QString("%1 (%2 %3 %4, restart %5) belongs to another shard than %6/%7")
                                     .arg(where, labels.join('/'), replicateKey)
                                     .arg(run.replicate)
                                     .arg(run.restart)
                                     .arg(k)
                                     .arg(n));
                if (!seen.insert({run.cell, run.replicate, run.restart}).second)
                    refuse(path, QString("%1 repeats %2 %3 %4, restart %5")
                                     .arg(where, labels.join('/'), replicateKey)
                                     .arg(run.replicate)
                                     .arg(run.restart));
                // A value is a finite number, or empty where the run failed or the cell lacks it.
                auto value = [&](const std::string& name) {
                    const QJsonValue v = o.value(QString::fromStdString(name));
                    if (v.isNull())
                        return double(NAN);
                    if (!v.isDouble() || !std::isfinite(v.toDouble()))
                        refuse(path, QString("%1 has %2 %3: not a finite number")
                                         .arg(where, QString::fromStdString(name), shown(v)));
                    return v.toDouble();
                };
                for (const std::string& m : study.metrics)
                    run.values.push_back(value(m));
                if (!study.selectBy.empty())
                    run.select = value(study.selectBy);
                // A run that failed in its shard stays marked failed in the merged table.
                if (const QJsonValue error = o.value("error"); !error.isUndefined()) {
                    if (!error.isString() || error.toString().isEmpty())
                        refuse(path, QString("%1 has error %2: not a message").arg(where, shown(error)));
                    run.error = error.toString().toStdString();
                    ++failedHere;
                }
                merged.runs.push_back(std::move(run));
            }
            // The count a shard states and the runs it marks agree, or one of them was edited away.
            if (const QJsonValue stated = root.value("failed_runs");
                !(stated.isUndefined() ? failedHere == 0
                                       : stated.isDouble() && stated.toDouble() == failedHere))
                refuse(path, QString("marks %1 runs failed, where its failed_runs is %2")
                                 .arg(failedHere)
                                 .arg(shown(stated)));
            if (runs.size() < expected || root.value("partial").toBool()) {
                if (!allowPartial)
                    refuse(path, QString("holds %1 of the %2 runs of shard %3/%4 (an interrupted run?); "
                                         "--allow-partial merges it and marks the table partial")
                                     .arg(runs.size())
                                     .arg(expected)
                                     .arg(k)
                                     .arg(n));
                incomplete
                    << QString("shard %1/%2 has %3 of %4 runs").arg(k).arg(n).arg(runs.size()).arg(expected);
            }
        }
        QStringList missing;
        for (int k = 1; k <= merged.provenance.shards; ++k)
            if (!shardFile.count(k))
                missing << QString::number(k);
        if (!missing.isEmpty()) {
            if (!allowPartial)
                refuse(firstPath, QString("is one of %1 shards, and shard%2 %3 %4 missing; --allow-partial "
                                          "merges what there is and marks the table partial")
                                      .arg(merged.provenance.shards)
                                      .arg(missing.size() > 1 ? "s" : "")
                                      .arg(missing.join(", "))
                                      .arg(missing.size() > 1 ? "are" : "is"));
            incomplete.prepend(QString("shard%1 %2 of %3 missing")
                                   .arg(missing.size() > 1 ? "s" : "", missing.join(", "))
                                   .arg(merged.provenance.shards));
        }
        merged.provenance.shard = merged.provenance.shards = 1;
        if (!incomplete.isEmpty())
            merged.partial = {true, QString("%1 of its %2 runs (%3)")
                                        .arg(merged.runs.size())
                                        .arg(merged.provenance.totalRuns)
                                        .arg(incomplete.join("; "))};
        return merged;
    } catch (const Refusal& e) {
        return QString::fromUtf8(e.what());
    }
}

} // namespace evx
