#pragma once
// A paper's table as one command (DESIGN.md "Studies"):
//   evidence-explorer --table ID [--seeds N] [--methods a,b] [--jobs N] [--shard K/N] --export
//   t.json|t.csv|t.md evidence-explorer --merge a.json b.json … --export t.md
// Runs every cell × seed of the study (or the K-th of N interleaved slices of them) on --jobs
// threads, with progress on stderr; Ctrl+C stops after the runs in flight and writes what is
// done. The JSON keeps every run, so slices merge into exactly the table one run would give.

#include "core/study.h"

#include <QString>
#include <QStringList>
#include <variant>

namespace evx {

struct TableCommand {
    Study study; // the cells to run, --methods applied
    int seeds = 50;
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
