#pragma once
// A paper's table as one command (DESIGN.md "Studies"):
//   evidence-explorer --table ID [--seeds N | --splits N] [--restarts N] [--methods a,b]
//                     [--set name=value …] [--jobs N] [--shard K/N] --export t.json|t.csv|t.md
//   evidence-explorer --merge a.json b.json … [--allow-partial] --export t.md
// Runs every cell × replicate × restart of the study (or the K-th of N interleaved slices of
// them) on --jobs threads, with progress on stderr. Everything is checked before the first run:
// the options against what the scenarios accept, the export targets, the shards of a merge.
// Ctrl+C (or SIGTERM) cancels the runs in flight and writes what is done beside the targets,
// as t.partial.json, marked partial; the targets keep what they held. A second Ctrl+C quits at
// once. The JSON keeps every run and the options they were made with, so slices merge into
// exactly the table one run would give. The options a study takes beyond these (filters such
// as --methods, parameters such as --epochs) are declared by the study itself.

#include "core/study.h"
#include "table_format.h"

#include <QString>
#include <QStringList>
#include <variant>

namespace evx {

struct TableCommand {
    Study study; // the cells to run, filters and --set applied
    int replicates = 50;
    int restarts = 1;
    int jobs = 1;
    int shard = 1, shards = 1; // --shard K/N
    QStringList exports;
    // What the runs are made with, written into the JSON (shard K/N; for a merge, 1/1).
    TableProvenance provenance;
    // --merge: the shards' runs, read and checked by parseTableCommand; no runs are made.
    bool merge = false;
    int mergedFiles = 0;
    std::vector<StudyRun> mergedRuns;
    TablePartial mergedPartial;
};

// True when the arguments ask for --table or --merge.
bool isTableCommand(const QStringList& arguments);
std::variant<TableCommand, QString> parseTableCommand(const QStringList& arguments);
// 0 on success; 1 when a file cannot be written or any run failed (the table is written, its
// failed runs marked, unless every run failed); 130 after SIGINT and 143
// after SIGTERM (what was done is written as a partial table beside the targets).
int runTableCommand(const TableCommand& command);
// Where an interrupted run writes its partial table instead of `path`: t.json → t.partial.json.
QString partialPath(const QString& path);
// The program version a table records: the project's, and the commit it was built from.
QString programVersion();

} // namespace evx
