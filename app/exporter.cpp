#include "exporter.h"

#include "core/input_limits.h"
#include "figure_serialiser.h"
#include "plot/plot_view.h"

#include <QFileInfo>
#include <QSaveFile>
#include <QStringList>

#include <algorithm>
#include <cmath>

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
        return QString("cannot write %1: %2; the previous file, if any, is unchanged")
            .arg(path, file.errorString());
    return {};
}

QString exportFigure(const QString& path, const ExportSource& source, PlotView& view, const PrintSize& size)
{
    const auto format = exportFormatFor(path);
    if (!format)
        return QString("cannot tell the format of %1: use one of %2").arg(path, exportFormatList());
    if (*format == ExportFormat::Json)
        return writeFileAtomically(path, figureToJson(source.scenarioId, source.schema, source.values,
                                                      source.figure, source.caption));
    if (*format == ExportFormat::Csv)
        return writeFileAtomically(path, figureToCsv(source.figure));
    if (*format == ExportFormat::Markdown)
        return writeFileAtomically(
            path, figureToMarkdown(source.scenarioId, source.schema, source.values, source.figure));

    const auto image = *format == ExportFormat::Png   ? PlotView::ImageFormat::Png
                       : *format == ExportFormat::Pdf ? PlotView::ImageFormat::Pdf
                                                      : PlotView::ImageFormat::Svg;
    const QByteArray bytes = view.encode(image, size);
    if (bytes.isEmpty())
        return QString("could not render %1 at %2 x %3 mm")
            .arg(path)
            .arg(size.widthMm, 0, 'g', 5)
            .arg(size.heightMm, 0, 'g', 5);
    return writeFileAtomically(path, bytes);
}

QString exportFigure(const QString& path, const ExportSource& source, PlotView& view, QSize size)
{
    return exportFigure(path, source, view,
                        PrintSize::fromPixels(size, PlotView::kScreenFontPt * view.fontScale()));
}

const std::vector<FigureSizePreset>& figureSizePresets()
{
    // 89 and 183 mm: the single and double column widths of Nature, Science and Elsevier
    // journals; the slide is 10 in x 5.625 in (16:9), 1920 x 1080 pixels at 192 dpi.
    static const std::vector<FigureSizePreset> presets{
        {"single-column", 89, 0, kDefaultPrintFontPt, kDefaultPrintDpi, "89 mm wide, 8 pt text"},
        {"double-column", 183, 0, kDefaultPrintFontPt, kDefaultPrintDpi, "183 mm wide, 8 pt text"},
        {"slide", 254, 142.875, 16, 192, "254 x 142.9 mm (16:9), 16 pt text, 1920 x 1080 px"},
    };
    return presets;
}

QString figureSizePresetList()
{
    QStringList names;
    for (const FigureSizePreset& p : figureSizePresets())
        names << p.name;
    return names.join(", ");
}

namespace {

// The print size, or why it is refused. Without a figure (the command line checks the request
// before it runs anything) a height that follows the figure is unknown: only what the width
// and the explicit values decide is checked, so that a run is never spent on a size that
// cannot be drawn.
std::variant<PrintSize, QString> resolve(const PrintRequest& request, const Figure* figure, bool raster)
{
    const FigureSizePreset* preset = nullptr;
    if (!request.preset.isEmpty()) {
        for (const FigureSizePreset& p : figureSizePresets())
            if (p.name == request.preset)
                preset = &p;
        if (!preset)
            return QString("--figure-size %1 is not one of %2")
                .arg(QString::fromStdString(quoteForMessage(request.preset.toStdString())),
                     figureSizePresetList());
        if (request.widthMm)
            return QString("--figure-size sets the width; give --width-mm or --figure-size, not both");
    }
    auto inRange = [](const std::optional<double>& v, double lo, double hi) {
        return !v || (std::isfinite(*v) && *v >= lo && *v <= hi);
    };
    if (!inRange(request.widthMm, 10, 1000))
        return QString("--width-mm %1 is not a width from 10 to 1000 mm").arg(*request.widthMm);
    if (!inRange(request.heightMm, 10, 1000))
        return QString("--height-mm %1 is not a height from 10 to 1000 mm").arg(*request.heightMm);
    if (!inRange(request.dpi, 36, kMaxPrintDpi))
        return QString("--dpi %1 is not a resolution from 36 to %2 dpi").arg(*request.dpi).arg(kMaxPrintDpi);
    if (!inRange(request.fontPt, kMinPrintFontPt, 72))
        return QString("--font-pt %1 is not a text size from %2 to 72 pt")
            .arg(*request.fontPt)
            .arg(kMinPrintFontPt);
    if (!request.physical()) {
        return QString("a print size needs --width-mm or --figure-size");
    }
    if (!preset && !request.widthMm)
        return QString("--height-mm and --dpi need --width-mm or --figure-size");

    PrintSize size;
    size.widthMm = preset ? preset->widthMm : *request.widthMm;
    size.fontPt = request.fontPt.value_or(preset ? preset->fontPt : kDefaultPrintFontPt);
    size.dpi = request.dpi.value_or(preset ? preset->dpi : kDefaultPrintDpi);
    bool heightKnown = true;
    if (request.heightMm)
        size.heightMm = *request.heightMm;
    else if (preset && preset->heightMm > 0)
        size.heightMm = preset->heightMm;
    else if (figure)
        size.heightMm =
            std::clamp(PlotView::naturalHeightMm(*figure, size.widthMm, size.fontPt), 10.0, 1000.0);
    else {
        size.heightMm = 1000; // the tallest a figure's own height gets: the most room for text
        heightKnown = false;
    }

    // Ticks, labels and a legend need about 15 em across and 10 em down.
    const double largestFont = std::min(size.widthPt() / 15, size.heightPt() / 10);
    const QString dimensions =
        heightKnown ? QString("%1 x %2 mm").arg(size.widthMm, 0, 'g', 4).arg(size.heightMm, 0, 'g', 4)
                    : QString("%1 mm wide").arg(size.widthMm, 0, 'g', 4);
    if (largestFont < kMinPrintFontPt) {
        // Even the smallest text does not fit: name the size that takes it, not a smaller text.
        constexpr double mmPerPt = 25.4 / 72;
        const double widthMm = std::ceil(kMinPrintFontPt * 15 * mmPerPt * 10) / 10;
        const double heightMm = std::ceil(kMinPrintFontPt * 10 * mmPerPt * 10) / 10;
        return QString("a %1 figure is too small for text of %2 pt, the smallest drawn: use at least %3 mm "
                       "wide%4")
            .arg(dimensions)
            .arg(kMinPrintFontPt)
            .arg(widthMm)
            .arg(heightKnown ? QString(" and %1 mm high").arg(heightMm) : QString());
    }
    if (size.fontPt > largestFont)
        return QString("%1 pt text does not fit a %2 figure: use at most %3 pt, or a larger size")
            .arg(size.fontPt)
            .arg(dimensions)
            .arg(std::floor(largestFont * 10) / 10);
    const QSize pixels = size.pixels();
    if (heightKnown && raster && double(pixels.width()) * pixels.height() > kMaxPrintPixels)
        return QString(
                   "%1 x %2 mm at %3 dpi is %4 x %5 pixels, more than %6 million: lower --dpi or the size")
            .arg(size.widthMm, 0, 'g', 4)
            .arg(size.heightMm, 0, 'g', 4)
            .arg(size.dpi)
            .arg(pixels.width())
            .arg(pixels.height())
            .arg(kMaxPrintPixels / 1e6);
    return size;
}

} // namespace

std::variant<PrintSize, QString> resolvePrintSize(const PrintRequest& request, const Figure& figure,
                                                  bool raster)
{
    return resolve(request, &figure, raster);
}

QString checkPrintRequest(const PrintRequest& request, bool raster)
{
    const auto resolved = resolve(request, nullptr, raster);
    const auto* why = std::get_if<QString>(&resolved);
    return why ? *why : QString();
}

} // namespace evx
