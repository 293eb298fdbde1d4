#include "animation_command.h"

#include "command_line.h"
#include "core/errors.h"
#include "core/input_limits.h"
#include "plot/plot_view.h"

#include <QFileInfo>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace evx {
namespace {

QString quoted(const QString& text, std::size_t maxCharacters = 60)
{
    return QString::fromStdString(quoteForMessage(text.toStdString(), maxCharacters));
}

int wholeNumber(const QString& option, const QString& text)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    if (!ok)
        throw InvalidParameter(
            QString("%1 %2 is not a whole number").arg(option, quoted(text)).toStdString());
    return value;
}

void checkTarget(const QString& path, AnimationFormat format)
{
    const QString shown = quoted(path, kPathCharacters);
    const QFileInfo info(path);
    if (format == AnimationFormat::Frames) {
        // The folder is created if missing; its parent must then be writable.
        const QFileInfo folder(QFileInfo(path + ".").absolutePath());
        if (folder.exists() ? !(folder.isDir() && folder.isWritable())
                            : !QFileInfo(folder.absolutePath()).isWritable())
            throw InvalidParameter(
                QString("--export %1: the folder cannot be created or written").arg(shown).toStdString());
        return;
    }
    if (info.isDir())
        throw InvalidParameter(
            QString("--export %1 is a directory (a folder of frames ends in /)").arg(shown).toStdString());
    if (isReadOnlyFile(path))
        throw InvalidParameter(
            QString("--export %1 is read-only; it is left as it is").arg(shown).toStdString());
    const QFileInfo dir(info.absolutePath());
    if (!dir.isDir() || !dir.isWritable())
        throw InvalidParameter(QString("--export %1: the folder %2 does not exist or is not writable")
                                   .arg(shown, quoted(info.absolutePath(), kPathCharacters))
                                   .toStdString());
}

std::atomic<bool> g_cancel{false};
std::atomic<int> g_signals{0};

extern "C" void onAnimationInterrupt(int signal)
{
    // A second Ctrl+C quits at once; the temporary file beside the target is then left behind.
    if (g_signals.fetch_add(1) > 0) {
        static const char message[] = "\nevidence-explorer: stopped at once\n";
        [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message, sizeof message - 1);
        std::_Exit(128 + signal);
    }
    g_cancel.store(true);
}

} // namespace

bool takeAnimationOption(const QStringList& args, int& i, AnimationOptionsText& text)
{
    const QString& arg = args[i];
    QString* target = arg == "--animate"     ? &text.spec
                      : arg == "--fps"       ? &text.fps
                      : arg == "--hold-ms"   ? &text.holdMs
                      : arg == "--filmstrip" ? &text.filmstrip
                                             : nullptr;
    if (arg == "--no-loop") {
        text.noLoop = true;
        return true;
    }
    if (!target)
        return false;
    if (i + 1 >= args.size() || args[i + 1].startsWith("--"))
        throw InvalidParameter(QString("%1 needs a value").arg(arg).toStdString());
    *target = args[++i];
    return true;
}

void finishAnimationOptions(CommandLine& cl, const AnimationOptionsText& text, bool sizeGiven,
                            const PrintRequest& print)
{
    if (text.spec.isEmpty())
        throw InvalidParameter(
            "--fps, --hold-ms, --no-loop and --filmstrip need --animate NAME=FROM:TO:FRAMES");
    if (!cl.scenario)
        throw InvalidParameter("--animate needs --scenario ID, a session or a link");
    AnimationSettings& s = cl.animation;
    if (!text.filmstrip.isEmpty())
        s.filmstrip = wholeNumber("--filmstrip", text.filmstrip);
    QString spec = text.spec;
    // A filmstrip has K panels: FRAMES may be left out (NAME=FROM:TO) and, if given, must be K.
    if (s.filmstrip > 0 && spec.count(':') == 1)
        spec += ":" + QString::number(s.filmstrip);
    parseAnimationSpec(cl.scenario->schema(), spec, s);
    if (s.filmstrip > 0 && s.frames != s.filmstrip)
        throw InvalidParameter(
            QString("--filmstrip %1 draws %1 panels; --animate gives %2 frames (write NAME=FROM:TO)")
                .arg(s.filmstrip)
                .arg(s.frames)
                .toStdString());
    if (!text.fps.isEmpty())
        s.fps = wholeNumber("--fps", text.fps);
    if (!text.holdMs.isEmpty())
        s.holdMs = wholeNumber("--hold-ms", text.holdMs);
    s.loop = !text.noLoop;
    if (const QString why = checkAnimationSettings(s); !why.isEmpty())
        throw InvalidParameter(why.toStdString());
    if (s.filmstrip > 0 && (!text.fps.isEmpty() || !text.holdMs.isEmpty() || text.noLoop))
        throw InvalidParameter("--fps, --hold-ms and --no-loop apply to an animation, not to a --filmstrip");

    if (cl.exports.size() != 1)
        throw InvalidParameter(QString("--animate writes one file: give one --export (%1)")
                                   .arg(animationFormatList(s.filmstrip > 0))
                                   .toStdString());
    const QString& path = cl.exports.front();
    const auto format = animationFormatFor(path, s.filmstrip > 0);
    if (!format)
        throw InvalidParameter(QString("--export %1: %2 needs %3")
                                   .arg(quoted(path, kPathCharacters),
                                        s.filmstrip > 0 ? "--filmstrip" : "--animate",
                                        animationFormatList(s.filmstrip > 0))
                                   .toStdString());
    checkTarget(path, *format);

    if (print.physical() && sizeGiven)
        throw InvalidParameter(
            "--size gives pixels, --width-mm and --figure-size millimetres: use one of them");
    if (s.filmstrip > 0 && sizeGiven)
        throw InvalidParameter(
            "a --filmstrip is sized in millimetres (--width-mm, --figure-size), not --size");
    if (print.fontPt && !(std::isfinite(*print.fontPt) && *print.fontPt >= 4 && *print.fontPt <= 72))
        throw InvalidParameter(
            QString("--font-pt %1 is not a text size from 4 to 72 pt").arg(*print.fontPt).toStdString());
    const bool raster = *format != AnimationFormat::Filmstrip || QFileInfo(path).suffix().toLower() == "png";
    if (print.physical()) {
        if (const QString why = checkPrintRequest(print, raster); !why.isEmpty())
            throw InvalidParameter(why.toStdString());
        cl.printRequest = print;
    } else if (s.filmstrip > 0 && print.fontPt) {
        PrintRequest page{"double-column", {}, {}, {}, print.fontPt};
        cl.printRequest = page;
    }
    if (!sizeGiven)
        cl.size = kDefaultAnimationSize;
    cl.print = PrintSize::fromPixels(cl.size, print.fontPt.value_or(PlotView::kScreenFontPt));
    cl.mode = CommandLine::Mode::Animate;
}

int runAnimationCommand(const CommandLine& cl)
{
    AnimationJob job;
    job.scenario = cl.scenario.get();
    job.input = cl.input;
    job.settings = cl.animation;
    job.size = cl.print;
    job.print = cl.printRequest;
    PlotView view;
    view.resize(cl.size);
    if (cl.highContrast)
        view.setTheme(PlotView::Theme::HighContrast);
    view.setHiddenSeries(cl.hiddenSeries);

    g_cancel.store(false);
    g_signals.store(0);
    auto previousInt = std::signal(SIGINT, onAnimationInterrupt);
    auto previousTerm = std::signal(SIGTERM, onAnimationInterrupt);
    // About ten progress lines for a long export, none for a short one.
    auto progress = [](const char* stage, int done, int total) {
        if (total >= 20 && (done % std::max(1, total / 10) == 0 || done == total))
            std::fprintf(stderr, "evidence-explorer: %s %d/%d\n", stage, done, total);
    };
    const QString& path = cl.exports.front();
    const QString error = exportAnimation(path, job, view, g_cancel, progress);
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);
    if (error == kAnimationCancelled) {
        std::fprintf(stderr, "evidence-explorer: interrupted; %s is left as it was\n",
                     path.toUtf8().constData());
        return 130;
    }
    if (!error.isEmpty()) {
        std::fprintf(stderr, "evidence-explorer: error: %s\n", error.toUtf8().constData());
        return 1;
    }
    return 0;
}

} // namespace evx
