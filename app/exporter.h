#pragma once
// Writes the current figure to a file whose suffix names the format. Every write is
// atomic: the file appears complete or not at all, and an existing file is only replaced
// once the new one is fully written.

#include "core/figure.h"
#include "core/parameters.h"
#include "plot/print_size.h"

#include <QSize>
#include <QString>
#include <optional>
#include <variant>
#include <vector>

namespace evx {

class PlotView;

enum class ExportFormat { Png, Pdf, Svg, Csv, Json, Markdown };

std::optional<ExportFormat> exportFormatFor(const QString& path);
QString exportFormatList(); // "png, pdf, svg, csv, json", for messages
QString exportFileFilter(); // for file dialogs

struct ExportSource {
    QString scenarioId;
    const ParameterSchema& schema;
    const ParameterValues& values;
    const Figure& figure;
    QString caption = {}; // a lesson step's caption: JSON exports carry it as "caption"
};

// The view must already show source.figure; images are rendered at `size` without
// changing what is on screen. Returns an empty string on success, else why it failed.
QString exportFigure(const QString& path, const ExportSource& source, PlotView& view, const PrintSize& size);
// Pixels at 96 per inch, with the text size the view has on screen.
QString exportFigure(const QString& path, const ExportSource& source, PlotView& view, QSize size);

// Named print sizes (--figure-size): a journal's column widths and a 16:9 slide. A height of 0
// follows the figure (PlotView::naturalHeightMm).
struct FigureSizePreset {
    QString name;
    double widthMm;
    double heightMm;
    double fontPt;
    double dpi;
    QString description;
};
const std::vector<FigureSizePreset>& figureSizePresets();
QString figureSizePresetList(); // "single-column, double-column, slide"

// A print size as asked for: any field may be left out. Without a preset, a size in
// millimetres takes 8 pt text at 300 dpi.
struct PrintRequest {
    QString preset;
    std::optional<double> widthMm, heightMm, dpi, fontPt;
    bool physical() const { return !preset.isEmpty() || widthMm || heightMm || dpi; }
};
inline constexpr double kDefaultPrintFontPt = 8;
inline constexpr double kMinPrintFontPt = 4;
inline constexpr double kDefaultPrintDpi = 300;
inline constexpr double kMaxPrintDpi = 2400;
inline constexpr double kMaxPrintPixels = 64e6; // a 256 MB image in memory

// The print size for `figure`, or the one-line reason the request is refused. Every value
// must be finite and in range, a height needs a width, the text must fit the page, and for a
// raster image (PNG) the pixels must fit in memory.
std::variant<PrintSize, QString> resolvePrintSize(const PrintRequest& request, const Figure& figure,
                                                  bool raster);
// What of the request can be checked before the figure exists (all but a height that follows
// the figure, and the pixels that depend on it): "" when nothing is wrong yet, else the reason.
QString checkPrintRequest(const PrintRequest& request, bool raster);

// Writes to a temporary file beside path, checks every write and the flush, then renames
// over path; on failure the old file is untouched and the reason returned. A read-only
// target is refused. New files get the umask's mode.
QString writeFileAtomically(const QString& path, const QByteArray& data);

// An existing file nobody may write (no write bit set), or that this user may not write;
// the bits matter because root may write anything.
bool isReadOnlyFile(const QString& path);

} // namespace evx
