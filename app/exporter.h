#pragma once
// Writes the current figure to a file whose suffix names the format. Every write is
// atomic: the file appears complete or not at all, and an existing file is only replaced
// once the new one is fully written.

#include "core/figure.h"
#include "core/parameters.h"

#include <QSize>
#include <QString>
#include <optional>

namespace evx {

class PlotView;

enum class ExportFormat { Png, Pdf, Svg, Csv, Json, Markdown };

std::optional<ExportFormat> exportFormatFor(const QString& path);
QString exportFormatList();  // "png, pdf, svg, csv, json", for messages
QString exportFileFilter();  // for file dialogs

struct ExportSource {
    QString scenarioId;
    const ParameterSchema& schema;
    const ParameterValues& values;
    const Figure& figure;
};

// The view must already show source.figure; images are rendered at `size` without
// changing what is on screen. Returns an empty string on success, else why it failed.
QString exportFigure(const QString& path, const ExportSource& source, PlotView& view, QSize size);

// Writes to a temporary file beside path, checks every write and the flush, then renames
// over path; on failure the old file is untouched and the reason returned. A read-only
// target is refused. New files get the umask's mode.
QString writeFileAtomically(const QString& path, const QByteArray& data);

// An existing file nobody may write (no write bit set), or that this user may not write;
// the bits matter because root may write anything.
bool isReadOnlyFile(const QString& path);

}  // namespace evx
