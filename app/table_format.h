#pragma once
// The runs of a study and the tables made from them: JSON (every run kept, so slices merge into
// exactly the table one run would give), CSV and Markdown beside the paper's numbers.

#include "core/study.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace evx {

struct StudyRun {
    int cell = 0;
    int replicate = 0;
    int restart = 0;
    std::vector<double> values; // one per Study::metrics, NaN when the run failed
    double select = 0;          // Study::selectBy's value (NaN when failed or unused)
};

QByteArray tableJson(const Study& study, const std::vector<StudyRun>& runs);
QByteArray tableCsv(const Study& study, const std::vector<StudyRun>& runs);
QByteArray tableMarkdown(const Study& study, const std::vector<StudyRun>& runs);

// Appends the runs of a table JSON written by tableJson, matched to the study's cells by their
// labels; returns why it cannot ("" on success).
QString readTableRuns(const QString& path, const Study& study, std::vector<StudyRun>& runs);

} // namespace evx
