#include "exporter.h"

#include "figure_serialiser.h"
#include "plot/plot_view.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QTemporaryFile>
#include <filesystem>

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
    return std::nullopt;
}

QString exportFormatList()
{
    return "png, pdf, svg, csv, json";
}

QString exportFileFilter()
{
    return "PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;"
           "CSV numbers (*.csv);;JSON result (*.json)";
}

QString writeFileAtomically(const QString& path, const QByteArray& data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QString("cannot write %1: %2").arg(path, file.errorString());
    if (file.write(data) != data.size() || !file.commit())
        return QString("cannot write %1: %2").arg(path, file.errorString());
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

    // QCustomPlot writes images straight to a path; give it a temporary one beside the
    // target and rename over the target only once it is complete.
    const QFileInfo target(path);
    QTemporaryFile temp(target.absoluteDir().filePath(".evx-export-XXXXXX." + target.suffix()));
    if (!temp.open())
        return QString("cannot write in %1: %2").arg(target.absolutePath(), temp.errorString());
    const QString tempPath = temp.fileName();
    temp.close();
    bool ok = false;
    switch (*format) {
    case ExportFormat::Png: ok = view.savePng(tempPath, size.width(), size.height()); break;
    case ExportFormat::Pdf: ok = view.savePdf(tempPath, size.width(), size.height()); break;
    case ExportFormat::Svg: ok = view.saveSvg(tempPath, size.width(), size.height()); break;
    default: break;
    }
    if (!ok)
        return QString("could not render %1").arg(path);
    std::error_code error;
    std::filesystem::rename(tempPath.toStdString(), target.absoluteFilePath().toStdString(), error);
    if (error)
        return QString("cannot write %1: %2").arg(path, QString::fromStdString(error.message()));
    temp.setAutoRemove(false);
    return {};
}

}  // namespace evx
