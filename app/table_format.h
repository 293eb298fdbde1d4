#pragma once
// The runs of a study and the tables made from them: JSON (every run kept, so slices merge into
// exactly the table one run would give), CSV and Markdown beside the paper's numbers.

#include "core/study.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace evx {

struct StudyRun {
    int cell = 0;
    int replicate = 0;
    int restart = 0;
    std::vector<double> values; // one per Study::metrics, NaN when the run failed
    double select = 0;          // Study::selectBy's value (NaN when failed or unused)
    std::string error = {};     // why the run failed; empty when it did not
};

// Failed runs stay in a table's runs (their values empty) and every format names them: the JSON
// counts them ("failed_runs") and lists each with its message ("failures", and "error" on the
// run), the CSV gives each row its count, the Markdown a line above the table. A script or a
// merge never mistakes such a table for a complete one.
std::size_t failedRunCount(const std::vector<StudyRun>& runs);

// Run i of a table (cell-major, then replicate, then restart) is shard (i mod N) + 1's.
inline qint64 runIndex(const StudyRun& run, int replicates, int restarts)
{
    return (qint64(run.cell) * replicates + run.replicate) * restarts + run.restart;
}

// What a table's runs were computed with, kept in its JSON ("provenance") so that --merge
// combines only shards of one table: `options` holds every option that changes a number
// (replicates, restarts, the cells kept, parameter values), each under the name a user types.
struct TableProvenance {
    QJsonObject options;
    int shard = 1, shards = 1; // --shard K/N
    QString version;           // the program that ran them
    qint64 totalRuns = 0;      // runs of the whole table, every shard together
};

// A table with fewer runs than its options ask for (interrupted, or merged from some of its
// shards with --allow-partial) says so in every format; `why` says what is missing.
struct TablePartial {
    bool partial = false;
    QString why;
};

QByteArray tableJson(const Study& study, const std::vector<StudyRun>& runs,
                     const std::optional<TableProvenance>& provenance = {}, const TablePartial& partial = {});
QByteArray tableCsv(const Study& study, const std::vector<StudyRun>& runs, const TablePartial& partial = {});
QByteArray tableMarkdown(const Study& study, const std::vector<StudyRun>& runs,
                         const TablePartial& partial = {});

// The "provenance" object of a table JSON, and back (nullopt when missing or malformed).
QJsonObject provenanceJson(const TableProvenance& provenance);
std::optional<TableProvenance> provenanceFromJson(const QJsonValue& value);

} // namespace evx
