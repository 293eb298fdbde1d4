// A filmstrip: K values of a sweep as small multiples of its first plot on one page, for print
// where an animation cannot go. Every panel shares the axes (the union of the K ranges) and
// one legend, and is titled "LABEL = value" (the parameter's label).
#include "animation.h"

#include "plot/plot_view.h"

#include <QFileInfo>
#include <qcustomplot.h>

#include <cmath>

namespace evx {

QString renderFilmstrip(const QString& path, const AnimationJob& job, const std::vector<double>& values,
                        const std::vector<Figure>& figures, PlotView& view)
{
    const int count = int(figures.size());
    // Up to four across (a double column holds four readable panels); more go on further rows.
    const int columns = count <= 4 ? count : int(std::ceil(std::sqrt(double(count))));
    // The parameter's label, as the panel shows it: titles are rich text, where the name's
    // underscores would become subscripts (n_samples as n with "samples" below it).
    const QString name = QString::fromStdString(job.scenario->schema().find(job.settings.parameter)->label);
    Figure strip;
    std::vector<Figure> firstPlots;
    for (int k = 0; k < count; ++k) {
        Plot plot = figures[std::size_t(k)].plots.front();
        plot.title = QString("%1 = %2")
                         .arg(name, QString::fromStdString(job.scenario->schema().format(
                                        job.settings.parameter, values[std::size_t(k)])))
                         .toStdString();
        Figure alone;
        alone.plots.push_back(plot);
        firstPlots.push_back(alone);
        plot.row = k / columns;
        plot.column = k % columns;
        plot.legend = LegendPlace::Shared;
        plot.showTitle = true;
        strip.plots.push_back(std::move(plot));
    }
    // The union of the panels' ranges, measured one panel at a time in a view of its own, then
    // given to every panel as a zoom lock.
    PlotView measure;
    measure.resize(view.size());
    holdUnionRanges(measure, firstPlots);
    const QCPAxisRect* source = measure.axisRect(0);
    view.setHoldRanges(false);
    view.setFitExtents({});
    view.resetView();
    view.setFigure(strip);
    for (int k = 0; k < count && source; ++k)
        if (QCPAxisRect* rect = view.axisRect(k)) {
            rect->axis(QCPAxis::atBottom)->setRange(source->axis(QCPAxis::atBottom)->range());
            rect->axis(QCPAxis::atLeft)->setRange(source->axis(QCPAxis::atLeft)->range());
            view.markUserZoomed(k);
        }

    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool raster = suffix == "png";
    const PrintRequest request = job.print.value_or(PrintRequest{"double-column", {}, {}, {}, {}});
    auto resolved = resolvePrintSize(request, strip, raster);
    if (const auto* why = std::get_if<QString>(&resolved))
        return *why;
    const auto format = suffix == "pdf"   ? PlotView::ImageFormat::Pdf
                        : suffix == "svg" ? PlotView::ImageFormat::Svg
                                          : PlotView::ImageFormat::Png;
    const QByteArray bytes = view.encode(format, std::get<PrintSize>(resolved));
    if (bytes.isEmpty())
        return QString("could not render the filmstrip %1").arg(path);
    return writeFileAtomically(path, bytes);
}

} // namespace evx
