#pragma once
// A paper's table as one command (DESIGN.md "Studies"):
//   evidence-explorer --table ID [--seeds N | --splits N] [--restarts N] [--methods a,b]
//                     [--set name=value …] [--jobs N] [--shard K/N] --export t.json|t.csv|t.md
//   evidence-explorer --merge a.json b.json … --export t.md
// Runs every cell × replicate × restart of the study (or the K-th of N interleaved slices of
// them) on --jobs threads, with progress on stderr; Ctrl+C stops after the runs in flight and
// writes what is done. The JSON keeps every run, so slices merge into exactly the table one run
// would give. The options a study takes beyond these (filters such as --methods, parameters
// such as --epochs) are declared by the study itself.

#include "core/study.h"

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
    QStringList mergeInputs;   // --merge: no runs, combine these
    QStringList exports;
};

// True when the arguments ask for --table or --merge.
bool isTableCommand(const QStringList& arguments);
std::variant<TableCommand, QString> parseTableCommand(const QStringList& arguments);
// 0 on success, 1 when a file cannot be written or read, 130 after Ctrl+C (what was done is written).
int runTableCommand(const TableCommand& command);

} // namespace evx
