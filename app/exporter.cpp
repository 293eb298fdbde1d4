#include "exporter.h"

#include "figure_serialiser.h"
#include "plot/plot_view.h"

#include <QFileInfo>
#include <QSaveFile>

namespace evx {

std::optional<ExportFormat> exportFormatFor(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png")
        return ExportFormat::Png;
    if (suffix == "pdf")
        return ExportFormat::Pdf;
    if (suffix == "svg")
        return ExportFormat::Svg;
    if (suffix == "csv")
        return ExportFormat::Csv;
    if (suffix == "json")
        return ExportFormat::Json;
    if (suffix == "md")
        return ExportFormat::Markdown;
    return std::nullopt;
}

QString exportFormatList()
{
    return "png, pdf, svg, csv, json, md";
}

QString exportFileFilter()
{
    return "PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;"
           "CSV numbers (*.csv);;JSON result (*.json);;Markdown summary and tables (*.md)";
}

bool isReadOnlyFile(const QString& path)
{
    const QFileInfo info(path);
    constexpr auto anyWrite = QFileDevice::WriteOwner | QFileDevice::WriteGroup | QFileDevice::WriteOther;
    return info.exists() && !info.isDir() && (!info.isWritable() || !(info.permissions() & anyWrite));
}

QString writeFileAtomically(const QString& path, const QByteArray& data)
{
    if (isReadOnlyFile(path))
        return QString("cannot write %1: the file is read-only; it is left as it is").arg(path);
    // QSaveFile writes a temporary file beside the target, created with the umask's mode
    // (or the target's, when it exists), and renames it over the target in commit().
    // The write is checked, then the flush, then commit's own fsync and rename: a full
    // disk fails one of them and cancels the save, leaving any old file as it was.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QString("cannot write %1: %2").arg(path, file.errorString());
    if (file.write(data) != data.size() || !file.flush() || file.error() != QFileDevice::NoError) {
        const QString why = file.errorString();
        file.cancelWriting();
        return QString("cannot write %1: %2; the previous file, if any, is unchanged").arg(path, why);
    }
    if (!file.commit())
        return QString("cannot write %1: %2; the previous file, if any, is unchanged").arg(path, file.errorString());
    return {};
}

QString exportFigure(const QString& path, const ExportSource& source, PlotView& view, QSize size)
{
    const auto format = exportFormatFor(path);
    if (!format)
        return QString("cannot tell the format of %1: use one of %2").arg(path, exportFormatList());
    if (*format == ExportFormat::Json)
        return writeFileAtomically(path, figureToJson(source.scenarioId, source.schema, source.values, source.figure));
    if (*format == ExportFormat::Csv)
        return writeFileAtomically(path, figureToCsv(source.figure));
    if (*format == ExportFormat::Markdown)
        return writeFileAtomically(path, figureToMarkdown(source.scenarioId, source.schema, source.values, source.figure));

    const auto image = *format == ExportFormat::Png   ? PlotView::ImageFormat::Png
                       : *format == ExportFormat::Pdf ? PlotView::ImageFormat::Pdf
                                                      : PlotView::ImageFormat::Svg;
    const QByteArray bytes = view.encode(image, size.width(), size.height());
    if (bytes.isEmpty())
        return QString("could not render %1 at %2x%3").arg(path).arg(size.width()).arg(size.height());
    return writeFileAtomically(path, bytes);
}

}  // namespace evx
