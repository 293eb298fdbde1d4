#include "animation.h"
#include "exporter.h"

#include "core/errors.h"
#include "core/input_limits.h"
#include "core/run_context.h"
#include "plot/plot_view.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace evx {

QString renderFilmstrip(const QString& path, const AnimationJob& job, const std::vector<double>& values,
                        const std::vector<Figure>& figures, PlotView& view); // animation_filmstrip.cpp

namespace {

QString quoted(const QString& text)
{
    return QString::fromStdString(quoteForMessage(text.toStdString()));
}

} // namespace

std::optional<AnimationFormat> animationFormatFor(const QString& path, bool filmstrip)
{
    if (filmstrip) { // a still figure: the exporter's image formats
        const std::optional<ExportFormat> f = exportFormatFor(path);
        return f == ExportFormat::Png || f == ExportFormat::Pdf || f == ExportFormat::Svg
                   ? std::optional(AnimationFormat::Filmstrip)
                   : std::nullopt;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (path.endsWith('/'))
        return AnimationFormat::Frames;
    if (suffix == "webp")
        return AnimationFormat::WebP;
    if (suffix == "gif")
        return AnimationFormat::Gif;
    return std::nullopt;
}

QString animationFormatList(bool filmstrip)
{
    return filmstrip ? "a .pdf, .png or .svg file"
                     : "a .webp or .gif file, or a folder ending in / for PNG frames";
}

void parseAnimationSpec(const ParameterSchema& schema, const QString& spec, AnimationSettings& settings)
{
    static const QRegularExpression pattern("^([A-Za-z0-9_]+)=([^:]+):([^:]+):([^:]+)$");
    const auto m = pattern.match(spec);
    if (!m.hasMatch())
        throw InvalidParameter(QString("--animate %1 is not NAME=FROM:TO:FRAMES (e.g. n=2:50:60)")
                                   .arg(quoted(spec))
                                   .toStdString());
    const std::string name = m.captured(1).toStdString();
    const ParameterSpec* p = schema.find(name);
    if (!p)
        throw InvalidParameter(QString("--animate: unknown parameter %1 (see --list-parameters)")
                                   .arg(quoted(m.captured(1)))
                                   .toStdString());
    if (p->kind == ParameterKind::Choice || p->kind == ParameterKind::Boolean)
        throw InvalidParameter("--animate: '" + name + "' is a " +
                               (p->kind == ParameterKind::Choice ? "choice" : "switch") +
                               "; only a number can be swept smoothly");
    auto endpoint = [&](const QString& text, const char* which) {
        bool ok = false;
        double v = text.toDouble(&ok);
        if (!ok || !std::isfinite(v))
            throw InvalidParameter(
                QString("--animate: %1 %2 is not a finite number").arg(which, quoted(text)).toStdString());
        if (p->kind == ParameterKind::Integer)
            v = std::round(v);
        if (const auto why = schema.check(name, v))
            throw InvalidParameter("--animate: " + std::string(which) + ": " + *why);
        return v;
    };
    settings.parameter = name;
    settings.from = endpoint(m.captured(2), "FROM");
    settings.to = endpoint(m.captured(3), "TO");
    bool ok = false;
    settings.frames = m.captured(4).toInt(&ok);
    if (!ok || settings.frames < kMinAnimationFrames || settings.frames > kMaxAnimationFrames)
        throw InvalidParameter(QString("--animate: FRAMES %1 is not a whole number from %2 to %3")
                                   .arg(quoted(m.captured(4)))
                                   .arg(kMinAnimationFrames)
                                   .arg(kMaxAnimationFrames)
                                   .toStdString());
}

QString checkAnimationSettings(const AnimationSettings& s)
{
    if (s.fps < 1 || s.fps > kMaxAnimationFps)
        return QString("--fps %1 is not a whole number from 1 to %2").arg(s.fps).arg(kMaxAnimationFps);
    if (s.holdMs < 0 || s.holdMs > kMaxAnimationHoldMs)
        return QString("--hold-ms %1 is not a whole number from 0 to %2")
            .arg(s.holdMs)
            .arg(kMaxAnimationHoldMs);
    if (s.filmstrip != 0 && (s.filmstrip < kMinFilmstrip || s.filmstrip > kMaxFilmstrip))
        return QString("--filmstrip %1 is not a whole number from %2 to %3")
            .arg(s.filmstrip)
            .arg(kMinFilmstrip)
            .arg(kMaxFilmstrip);
    return {};
}

std::vector<double> sweepValues(const ParameterSpec& spec, double from, double to, int count)
{
    std::vector<double> values;
    for (int k = 0; k < count; ++k) {
        // std::lerp ends exactly at `to`: from + (to − from)·k/(count − 1) can overshoot it by an ulp.
        const double v = count == 1 ? from : std::lerp(from, to, double(k) / (count - 1));
        values.push_back(spec.kind == ParameterKind::Real ? v : std::round(v));
    }
    return values;
}

int frameDelayMs(const AnimationSettings& settings, int index, int frames)
{
    const int delay = int(std::lround(1000.0 / settings.fps));
    return index == frames - 1 ? delay + settings.holdMs : delay;
}

void holdUnionRanges(PlotView& view, const std::vector<Figure>& figures, const PrintSize& size)
{
    if (figures.empty())
        return;
    view.setHoldRanges(false);
    view.setFitExtents({});
    view.resetView(); // forget any earlier zoom: each figure fits its own data
    std::vector<PlotView::DataExtent> all;
    for (const Figure& figure : figures) {
        view.setFigure(figure);
        const std::vector<PlotView::DataExtent>& own = view.dataExtents();
        all.resize(std::max(all.size(), figure.plots.size()));
        for (std::size_t i = 0; i < figure.plots.size() && i < own.size(); ++i) {
            if (!own[i].valid)
                continue;
            PlotView::DataExtent& u = all[i];
            u = u.valid ? PlotView::DataExtent{true, std::min(u.xLo, own[i].xLo), std::max(u.xHi, own[i].xHi),
                                               std::min(u.yLo, own[i].yLo), std::max(u.yHi, own[i].yHi)}
                        : own[i];
        }
    }
    // Every frame now fits the union as the widest frame fits its own data; but each frame's
    // legend takes the headroom its own data leave it, so the ranges as laid out at the export
    // size still differ a little (a band under the legend in one frame only). Their union,
    // locked as a user's zoom is, holds the axes still; the legends stay where the first frame
    // put them.
    const std::size_t plots = all.size();
    std::vector<QCPRange> xs(plots), ys(plots);
    std::vector<bool> seen(plots, false);
    view.setFitExtents(std::move(all));
    auto settle = [&](const Figure& figure) {
        view.setFigure(figure);
        if (size.widthMm > 0)
            view.exportLayout(PlotView::ImageFormat::Png, size);
    };
    for (const Figure& figure : figures) {
        settle(figure);
        for (std::size_t i = 0; i < plots && i < figure.plots.size(); ++i) {
            const QCPAxisRect* rect = view.axisRect(int(i));
            if (!rect)
                continue;
            const QCPRange x = rect->axis(QCPAxis::atBottom)->range(),
                           y = rect->axis(QCPAxis::atLeft)->range();
            xs[i] = seen[i] ? QCPRange(std::min(xs[i].lower, x.lower), std::max(xs[i].upper, x.upper)) : x;
            ys[i] = seen[i] ? QCPRange(std::min(ys[i].lower, y.lower), std::max(ys[i].upper, y.upper)) : y;
            seen[i] = true;
        }
    }
    settle(figures.front());
    for (std::size_t i = 0; i < plots; ++i) {
        QCPAxisRect* rect = view.axisRect(int(i));
        if (!rect || !seen[i])
            continue;
        rect->axis(QCPAxis::atBottom)->setRange(xs[i]);
        rect->axis(QCPAxis::atLeft)->setRange(ys[i]);
        view.markUserZoomed(int(i)); // later figures with the same axes keep these ranges
    }
}

std::variant<std::vector<Figure>, QString> computeAnimationFigures(const AnimationJob& job,
                                                                   const std::atomic<bool>& cancel,
                                                                   const AnimationProgress& progress)
{
    const AnimationSettings& s = job.settings;
    const ParameterSpec* spec = job.scenario ? job.scenario->schema().find(s.parameter) : nullptr;
    if (!spec)
        return QString("unknown parameter '%1'").arg(QString::fromStdString(s.parameter));
    if (const QString why = checkAnimationSettings(s); !why.isEmpty())
        return why;
    const int count = s.filmstrip > 0 ? s.filmstrip : s.frames;
    const std::vector<double> values = sweepValues(*spec, s.from, s.to, count);
    std::vector<Figure> figures;
    figures.reserve(values.size());
    RunInput input = job.input;
    const RunContext context(&cancel, {});
    for (std::size_t k = 0; k < values.size(); ++k) {
        if (cancel.load())
            return QString(kAnimationCancelled);
        input.values[s.parameter] = values[k];
        try {
            figures.push_back(job.scenario->runChecked(input, context));
        } catch (const Cancelled&) {
            return QString(kAnimationCancelled);
        } catch (const std::exception& e) {
            return QString("at %1 = %2: %3")
                .arg(QString::fromStdString(s.parameter),
                     QString::fromStdString(job.scenario->schema().format(s.parameter, values[k])),
                     QString::fromUtf8(e.what()));
        }
        if (figures.back().plots.empty())
            return QString("at %1 = %2 the scenario drew no plot")
                .arg(QString::fromStdString(s.parameter))
                .arg(values[k]);
        if (progress)
            progress("compute", int(k) + 1, int(values.size()));
    }
    return figures;
}

QString writeAnimation(const QString& path, const AnimationJob& job, const std::vector<Figure>& figures,
                       PlotView& view, const std::atomic<bool>& cancel, const AnimationProgress& progress)
{
    const AnimationSettings& s = job.settings;
    const auto format = animationFormatFor(path, s.filmstrip > 0);
    if (!format)
        return QString("cannot tell the format of %1: use %2")
            .arg(path, animationFormatList(s.filmstrip > 0));
    if (figures.empty())
        return "there are no frames";
    if (*format == AnimationFormat::Filmstrip) {
        const ParameterSpec* spec = job.scenario->schema().find(s.parameter);
        return renderFilmstrip(path, job, sweepValues(*spec, s.from, s.to, int(figures.size())), figures,
                               view);
    }
    PrintSize size = job.size;
    if (job.print) {
        auto resolved = resolvePrintSize(*job.print, figures.front(), true);
        if (const auto* why = std::get_if<QString>(&resolved))
            return *why;
        size = std::get<PrintSize>(resolved);
    }
    holdUnionRanges(view, figures, size);
    const QSize pixels = size.pixels();
    QString error;
    FrameSinkOptions options = job.sinkOptions;
    options.loop = s.loop;
    auto sink = openFrameSink(*format, path, pixels, options, error);
    if (!sink)
        return error;
    const int count = int(figures.size());
    for (int k = 0; k < count; ++k) {
        if (cancel.load())
            return kAnimationCancelled; // the sink's destructor drops the temporary file
        view.setFigure(figures[std::size_t(k)]);
        const QImage frame = view.renderImage(size);
        if (frame.isNull())
            return QString("could not render frame %1 at %2 x %3 pixels")
                .arg(k + 1)
                .arg(pixels.width())
                .arg(pixels.height());
        if (const QString why = sink->add(frame, frameDelayMs(s, k, count)); !why.isEmpty())
            return why;
        if (progress)
            progress("frame", k + 1, count);
    }
    return sink->finish();
}

QString exportAnimation(const QString& path, const AnimationJob& job, PlotView& view,
                        const std::atomic<bool>& cancel, const AnimationProgress& progress)
{
    if (!animationFormatFor(path, job.settings.filmstrip > 0))
        return QString("cannot tell the format of %1: use %2")
            .arg(path, animationFormatList(job.settings.filmstrip > 0));
    auto figures = computeAnimationFigures(job, cancel, progress);
    if (const auto* why = std::get_if<QString>(&figures))
        return *why;
    return writeAnimation(path, job, std::get<std::vector<Figure>>(figures), view, cancel, progress);
}

} // namespace evx
