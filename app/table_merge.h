#pragma once
// --merge: the shards of one table (--shard K/N), checked before they are combined. Every
// shard must be one table run with the same options by the same program, each shard once and
// all of them there, every run a cell of the table, a replicate and restart the options allow
// and of the shard's own slice, every value a finite number or empty. The first thing wrong is
// refused in one line naming the file. With allowPartial, missing shards and shards with missing
// runs (interrupted) are merged, and the table says it is partial. Runs that failed in their
// shard (an "error" on the run) stay marked failed in the merged table.

#include "table_format.h"

#include <QStringList>
#include <variant>

namespace evx {

struct MergedTable {
    Study study; // its cells as the shards ran them (their filters applied)
    std::vector<StudyRun> runs;
    TableProvenance provenance; // shard 1/1
    TablePartial partial;
};

// The largest table file --merge reads. A run takes about 180 bytes, so a whole table of
// 16 cells × 10 000 seeds is about 29 MB; a 65 MB file took 1.2 s and 320 MB to read here.
inline constexpr qint64 kMaxTableFileBytes = qint64(64) << 20;

std::variant<MergedTable, QString> mergeTableFiles(const QStringList& paths, bool allowPartial);

// The runs of shard K of N out of `total` (run i is shard (i mod N) + 1's).
inline qint64 shardRunCount(qint64 total, int shard, int shards)
{
    return total >= shard ? (total - shard) / shards + 1 : 0;
}

// "a/b/c": a cell's labels in column order, as the provenance lists the cells kept.
QString cellKey(const Study& study, const StudyCell& cell);

} // namespace evx
