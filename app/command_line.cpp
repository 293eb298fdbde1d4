#include "command_line.h"
#include "session.h"

#include "animation_command.h"
#include "bench_sweep.h"
#include "core/errors.h"
#include "core/input_limits.h"
#include "exporter.h"
#include "lesson_command.h"
#include "link_command.h"
#include "pin_labels.h"
#include "plot/plot_view.h"
#include "run_progress.h"
#include "scenarios/registry.h"
#include "scenarios/studies.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace evx {
namespace {

// User text quoted for a message: escaped and cut (core/input_limits.h).
QString quoted(const QString& text, std::size_t maxCharacters = 60)
{
    return QString::fromStdString(quoteForMessage(text.toStdString(), maxCharacters));
}

QString takeValue(const QStringList& args, int& i, const QString& option)
{
    if (i + 1 >= args.size() || args[i + 1].startsWith("--"))
        throw InvalidParameter(QString("%1 needs a value").arg(quoted(option)).toStdString());
    return args[++i];
}

QSize parseSize(const QString& text)
{
    static const QRegularExpression pattern("^(\\d{2,5})x(\\d{2,5})$");
    const auto m = pattern.match(text);
    const int w = m.hasMatch() ? m.captured(1).toInt() : 0;
    const int h = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (w < 200 || h < 150 || w > 10000 || h > 10000)
        throw InvalidParameter(QString("--size %1 is not WIDTHxHEIGHT between 200x150 and 10000x10000")
                                   .arg(quoted(text))
                                   .toStdString());
    return {w, h};
}

// --option=value becomes --option value; done once up front, so ten thousand of them
// cost a loop, not ten thousand nested calls.
QStringList splitOptionValues(const QStringList& args)
{
    QStringList out;
    out.reserve(args.size());
    for (const QString& arg : args) {
        const int eq = arg.indexOf('=');
        if (arg.startsWith("--") && eq > 2)
            out << arg.left(eq) << arg.mid(eq + 1);
        else
            out << arg;
    }
    return out;
}

double parseNumber(const QString& option, const QString& text)
{
    bool ok = false;
    const double value = text.toDouble(&ok); // C locale: 8.5, never 8,5
    if (!ok)
        throw InvalidParameter(QString("%1 %2 is not a number").arg(option, quoted(text)).toStdString());
    return value;
}

void checkExportPath(const QString& path)
{
    if (!exportFormatFor(path))
        throw InvalidParameter(QString("--export %1: unknown format; use one of %2")
                                   .arg(quoted(path, kPathCharacters), exportFormatList())
                                   .toStdString());
    const QFileInfo info(path);
    if (info.isDir())
        throw InvalidParameter(
            QString("--export %1 is a directory").arg(quoted(path, kPathCharacters)).toStdString());
    if (isReadOnlyFile(path))
        throw InvalidParameter(QString("--export %1 is read-only; it is left as it is")
                                   .arg(quoted(path, kPathCharacters))
                                   .toStdString());
    const QFileInfo dir(info.absolutePath());
    if (!dir.isDir() || !dir.isWritable())
        throw InvalidParameter(
            QString("--export %1: the folder %2 does not exist or is not writable")
                .arg(quoted(path, kPathCharacters), quoted(info.absolutePath(), kPathCharacters))
                .toStdString());
}

void parseSweep(CommandLine& cl, const QString& spec)
{
    static const QRegularExpression pattern("^([a-z0-9_]+)=([^:]+):([^:]+):([^:]+)$");
    const auto m = pattern.match(spec);
    if (!m.hasMatch())
        throw InvalidParameter(
            QString("--bench-sweep %1 is not name=from:to:steps").arg(quoted(spec)).toStdString());
    const ParameterSchema& schema = cl.scenario->schema();
    cl.sweepParameter = m.captured(1).toStdString();
    const ParameterSpec* spec_ = schema.find(cl.sweepParameter);
    if (!spec_)
        throw InvalidParameter("--bench-sweep: unknown parameter '" + cl.sweepParameter + "'");
    if (spec_->kind == ParameterKind::Boolean)
        throw InvalidParameter("--bench-sweep: '" + cl.sweepParameter +
                               "' is a switch; sweep a number or a choice");
    cl.sweepFrom = schema.parse(cl.sweepParameter, m.captured(2).toStdString());
    cl.sweepTo = schema.parse(cl.sweepParameter, m.captured(3).toStdString());
    bool ok = false;
    cl.sweepSteps = m.captured(4).toInt(&ok);
    if (!ok || cl.sweepSteps < 2 || cl.sweepSteps > 100000)
        throw InvalidParameter(QString("--bench-sweep: steps %1 is not a whole number from 2 to 100000")
                                   .arg(quoted(m.captured(4)))
                                   .toStdString());
}

} // namespace

// One line per table with the options it takes beyond the common ones.
QString tableListText()
{
    QString out = "Tables:\n";
    for (const Study& study : allStudies()) {
        QString options = QString::fromStdString(study.replicateOption) + " N";
        if (!study.selectBy.empty())
            options += " --restarts N";
        for (const auto& [option, column] : study.filters)
            options += QString(" %1 a,b").arg(QString::fromStdString(option));
        for (const auto& [option, parameter] : study.parameterOptions)
            options += QString(" %1 N").arg(QString::fromStdString(option));
        out += QString("  %1  %2\n      %3\n")
                   .arg(QString::fromStdString(study.id), QString::fromStdString(study.title), options);
    }
    return out;
}

QString usageText()
{
    return "Usage:\n"
           "  evidence-explorer [--scenario ID [--preset NAME] [--set name=value ...]]\n"
           "  evidence-explorer --list-scenarios\n"
           "  evidence-explorer --list-lessons\n"
           "  evidence-explorer --lesson ID|FILE [--step K] [--set name=value ...] [--export FILE ...]\n"
           "  evidence-explorer --list-parameters ID         (also: --scenario ID --help)\n"
           "  evidence-explorer FILE.evx.json [--set name=value ...] [--export FILE ...]\n"
           "  evidence-explorer evx://ID?name=value&... [--set name=value ...] [--export FILE ...]\n"
           "  evidence-explorer (--scenario ID [--preset NAME] [--set ...] | FILE.evx.json) --print-link\n"
           "  evidence-explorer --scenario ID [--preset NAME] [--set name=value ...]\n"
           "                    [--point x[,y] ...] [--data FILE]\n"
           "                    --export FILE [--export FILE ...] [--size WIDTHxHEIGHT | PRINT SIZE]\n"
           "  evidence-explorer --scenario ID --bench-sweep name=from:to:steps [--size WIDTHxHEIGHT]\n"
           "  evidence-explorer --table ID [--seeds N] [--jobs N] [--shard K/N] [--set name=value ...]\n"
           "                    --export t.json|t.csv|t.md     (each table's own options below)\n"
           "  evidence-explorer --merge a.json b.json ... --export t.md\n"
           "  evidence-explorer --scenario ID [--set ...] --animate NAME=FROM:TO:FRAMES [--fps N]\n"
           "                    [--hold-ms N] [--no-loop] --export out.webp|out.gif|frames/\n"
           "                    [--size WIDTHxHEIGHT | PRINT SIZE]   (default 1280x720)\n"
           "  evidence-explorer --scenario ID [--set ...] --animate NAME=FROM:TO --filmstrip K\n"
           "                    --export strip.pdf|strip.png|strip.svg [PRINT SIZE]\n"
           "Animations: a real or integer parameter NAME swept in FRAMES (2 to 1000) steps with the axes\n"
           "  held, --fps 1 to 60 (default 12), --hold-ms 0 to 10000 on the last frame, looping unless\n"
           "  --no-loop; WebP is lossless, GIF has 256 colours, frames/ gets frame-0001.png, ...;\n"
           "  --filmstrip K (2 to 24) draws K values side by side (default double-column wide)\n"
           "Export formats: " +
           exportFormatList() +
           "\n"
           "Print size of PNG, PDF and SVG exports (instead of --size in pixels):\n"
           "  --figure-size NAME    " +
           figureSizePresetList() +
           "\n"
           "  --width-mm W          [--height-mm H] (default: the figure's own aspect, e.g. 0.75 W)\n"
           "  --dpi D               PNG pixels per inch (default 300; at most 2400)\n"
           "  --font-pt F           tick and legend text in points (default 8; also with --size)\n"
           "  --theme high-contrast thicker lines, hatched bands, black on white (for projectors)\n" +
           tableListText();
}

QString parameterListText(const Scenario& scenario)
{
    const ScenarioInfo info = scenario.info();
    QString out = QString("%1 — %2\n%3\n\nParameters (--set name=value):\n")
                      .arg(QString::fromStdString(info.id), QString::fromStdString(info.title),
                           QString::fromStdString(info.summary));
    for (const ParameterSpec& p : scenario.schema().specs()) {
        const QString unit = p.unit.empty() ? QString() : " " + QString::fromStdString(p.unit);
        QString range, fallback;
        switch (p.kind) {
        case ParameterKind::Choice: {
            QStringList names;
            for (const std::string& c : p.choices)
                names << QString::fromStdString(c);
            range = "one of " + names.join(", ");
            fallback = QString::fromStdString(p.choices.at(std::size_t(p.defaultValue)));
            break;
        }
        case ParameterKind::Boolean:
            range = "true or false";
            fallback = p.defaultValue != 0 ? "true" : "false";
            break;
        case ParameterKind::Integer:
            range = QString("whole number %1 … %2").arg(p.minimum).arg(p.maximum);
            fallback = QString::number(p.defaultValue);
            break;
        case ParameterKind::Real:
            range = QString("%1 … %2%3").arg(p.minimum).arg(p.maximum).arg(unit);
            fallback = QString::number(p.defaultValue, 'g', 6) + unit;
            break;
        }
        out += QString("  %1  %2\n      %3; default %4\n      %5\n")
                   .arg(QString::fromStdString(p.name), QString::fromStdString(p.label), range, fallback,
                        QString::fromStdString(p.tooltip));
    }
    const std::vector<Preset> presets = scenario.presets();
    if (!presets.empty()) {
        out += "\nPresets (--preset NAME):\n";
        for (const Preset& preset : presets)
            out += QString("  %1  %2\n")
                       .arg(QString::fromStdString(preset.name), QString::fromStdString(preset.description));
    }
    return out;
}

std::variant<CommandLine, QString> parseCommandLine(const QStringList& givenArgs)
{
    const QStringList args = splitOptionValues(givenArgs);
    CommandLine cl;
    QString scenarioId, sweepSpec, parametersOf;
    QStringList sets, pointTexts;
    QString dataPath;
    PrintRequest print;
    bool list = false, help = false, sizeGiven = false, printLink = false, listLessons = false;
    QString lessonArgument, lessonStepText;
    AnimationOptionsText animation;
    try {
        for (int i = 0; i < args.size(); ++i) {
            const QString& arg = args[i];
            if (arg == "--list-scenarios")
                list = true;
            else if (arg == "--list-parameters")
                parametersOf = takeValue(args, i, arg);
            else if (arg == "--help" || arg == "-h")
                help = true;
            else if (arg == "--scenario")
                scenarioId = takeValue(args, i, arg);
            else if (arg == "--preset")
                cl.presetName = takeValue(args, i, arg);
            else if (arg == "--set")
                sets << takeValue(args, i, arg);
            else if (arg == "--point")
                pointTexts << takeValue(args, i, arg);
            else if (arg == "--data")
                dataPath = takeValue(args, i, arg);
            else if (arg == "--export")
                cl.exports << takeValue(args, i, arg);
            else if (arg == "--size") {
                cl.size = parseSize(takeValue(args, i, arg));
                sizeGiven = true;
            } else if (arg == "--width-mm")
                print.widthMm = parseNumber(arg, takeValue(args, i, arg));
            else if (arg == "--height-mm")
                print.heightMm = parseNumber(arg, takeValue(args, i, arg));
            else if (arg == "--dpi")
                print.dpi = parseNumber(arg, takeValue(args, i, arg));
            else if (arg == "--font-pt")
                print.fontPt = parseNumber(arg, takeValue(args, i, arg));
            else if (arg == "--figure-size")
                print.preset = takeValue(args, i, arg);
            else if (arg == "--theme") {
                const QString theme = takeValue(args, i, arg);
                if (theme != "high-contrast" && theme != "standard")
                    throw InvalidParameter(QString("--theme %1 is not a theme (standard or high-contrast)")
                                               .arg(quoted(theme))
                                               .toStdString());
                cl.highContrast = theme == "high-contrast";
            } else if (arg == "--bench-sweep")
                sweepSpec = takeValue(args, i, arg);
            else if (arg == "--print-link")
                printLink = true;
            else if (arg == "--list-lessons")
                listLessons = true;
            else if (arg == "--lesson")
                lessonArgument = takeValue(args, i, arg);
            else if (arg == "--step")
                lessonStepText = takeValue(args, i, arg);
            else if (takeAnimationOption(args, i, animation))
                continue;
            else if (!arg.startsWith('-') && cl.sessionPath.isEmpty())
                cl.sessionPath = arg;
            else
                throw InvalidParameter(
                    QString("unknown argument %1 (try --help)").arg(quoted(arg)).toStdString());
        }
        if (!parametersOf.isEmpty() || (help && !scenarioId.isEmpty())) {
            const QString id = parametersOf.isEmpty() ? scenarioId : parametersOf;
            cl.scenario = ScenarioRegistry::instance().find(id.toStdString());
            if (!cl.scenario)
                throw InvalidParameter(
                    QString("unknown scenario %1 (see --list-scenarios)").arg(quoted(id)).toStdString());
            cl.mode = CommandLine::Mode::ListParameters;
            return cl;
        }
        if (help) {
            cl.mode = CommandLine::Mode::Help;
            return cl;
        }
        if (listLessons) {
            if (args.size() != 1)
                throw InvalidParameter("--list-lessons takes no other option");
            cl.mode = CommandLine::Mode::ListLessons;
            return cl;
        }
        if (!lessonStepText.isEmpty() && lessonArgument.isEmpty())
            throw InvalidParameter("--step K needs --lesson ID|FILE");
        if (!lessonArgument.isEmpty()) {
            // A lesson step names its own state, as a session does; --set may still change it.
            if (!scenarioId.isEmpty() || !cl.presetName.isEmpty() || !pointTexts.isEmpty() ||
                !dataPath.isEmpty() || !cl.sessionPath.isEmpty())
                throw InvalidParameter("a lesson step names its own scenario, preset and points; --scenario, "
                                       "--preset, --point, --data and a session cannot be added to it");
            scenarioId = applyLessonStep(cl, lessonArgument, lessonStepText);
        }
        if (!cl.sessionPath.isEmpty()) {
            // A session names its scenario, parameters, points and data file; --set may
            // still change parameters, --export writes what it computes.
            if (!scenarioId.isEmpty() || !cl.presetName.isEmpty() || !pointTexts.isEmpty() ||
                !dataPath.isEmpty())
                throw InvalidParameter(
                    "a session file or link names its own scenario, preset, points and data; "
                    "--scenario, --preset, --point and --data cannot be added to it");
            auto loaded = openSessionOrLink(cl.sessionPath, cl);
            if (const auto* why = std::get_if<QString>(&loaded))
                throw InvalidParameter(why->toStdString());
            const Session& session = std::get<Session>(loaded);
            scenarioId = session.scenarioId;
            cl.input = session.input;
            cl.pins = session.pins;
            cl.hiddenSeries = session.hiddenSeries;
        }
        if (list) {
            if (!scenarioId.isEmpty() || !cl.exports.isEmpty() || !sweepSpec.isEmpty() || printLink)
                throw InvalidParameter("--list-scenarios takes no other option");
            cl.mode = CommandLine::Mode::List;
            return cl;
        }
        if (!cl.exports.isEmpty() && !sweepSpec.isEmpty())
            throw InvalidParameter("--export and --bench-sweep cannot be combined");
        if (scenarioId.isEmpty()) {
            if (!cl.exports.isEmpty() || !sweepSpec.isEmpty() || !cl.presetName.isEmpty() ||
                !sets.isEmpty() || !pointTexts.isEmpty() || !dataPath.isEmpty())
                throw InvalidParameter("--scenario ID is required (see --list-scenarios)");
        } else {
            cl.scenario = ScenarioRegistry::instance().find(scenarioId.toStdString());
            if (!cl.scenario)
                throw InvalidParameter(QString("unknown scenario %1 (see --list-scenarios)")
                                           .arg(quoted(scenarioId))
                                           .toStdString());
            const ParameterSchema& schema = cl.scenario->schema();
            ParameterValues& values = cl.input.values;
            if (cl.sessionPath.isEmpty() && cl.lesson.isEmpty())
                values = cl.presetName.isEmpty() ? schema.defaults()
                                                 : cl.scenario->presetValues(cl.presetName.toStdString());
            for (const QString& set : sets) {
                const int eq = set.indexOf('=');
                if (eq <= 0)
                    throw InvalidParameter(
                        QString("--set %1 is not name=value").arg(quoted(set)).toStdString());
                const std::string name = set.left(eq).toStdString();
                values[name] = schema.parse(name, set.mid(eq + 1).toStdString());
            }
            const ScenarioInputs accepts = cl.scenario->inputs();
            if (!pointTexts.isEmpty() && !accepts.userPoints)
                throw InvalidParameter(
                    QString("scenario '%1' takes no --point").arg(scenarioId).toStdString());
            for (const QString& text : pointTexts)
                cl.input.points.push_back(parsePoint(text.toStdString()));
            if (!dataPath.isEmpty()) {
                if (!accepts.dataFile)
                    throw InvalidParameter(
                        QString("scenario '%1' takes no --data").arg(scenarioId).toStdString());
                cl.input.dataPath = QFileInfo(dataPath).absoluteFilePath().toStdString();
            }
            validateRunInput(*cl.scenario, cl.input);
        }
        if (printLink) {
            checkPrintLink(cl, sweepSpec, sizeGiven || print.physical() || print.fontPt);
            return cl;
        }
        if (animation.any()) {
            if (!sweepSpec.isEmpty())
                throw InvalidParameter("--animate and --bench-sweep cannot be combined");
            finishAnimationOptions(cl, animation, sizeGiven, print);
            return cl;
        }
        for (const QString& path : cl.exports)
            checkExportPath(path);
        const bool printOptions = print.physical() || print.fontPt;
        if (printOptions && cl.exports.isEmpty())
            throw InvalidParameter(
                "--width-mm, --height-mm, --dpi, --font-pt and --figure-size apply only to --export");
        if (cl.highContrast && cl.exports.isEmpty())
            throw InvalidParameter(
                "--theme applies only to --export (in the window: View → High-Contrast Theme)");
        if (print.physical() && sizeGiven)
            throw InvalidParameter(
                "--size gives pixels, --width-mm and --figure-size millimetres: use one of them");
        if (!cl.exports.isEmpty()) {
            cl.mode = CommandLine::Mode::Export;
            if (print.fontPt && !print.physical() &&
                !(std::isfinite(*print.fontPt) && *print.fontPt >= 4 && *print.fontPt <= 72))
                throw InvalidParameter(QString("--font-pt %1 is not a text size from 4 to 72 pt")
                                           .arg(*print.fontPt)
                                           .toStdString());
            const bool raster = std::any_of(cl.exports.begin(), cl.exports.end(), [](const QString& path) {
                return exportFormatFor(path) == ExportFormat::Png;
            });
            // Everything the size decides without the figure, before the run it would waste.
            if (print.physical())
                if (const QString why = checkPrintRequest(print, raster); !why.isEmpty())
                    throw InvalidParameter(why.toStdString());
            cl.figure = runWithProgressLines(*cl.scenario, cl.input);
            if (!cl.lesson.isEmpty())
                computeLessonPins(cl);
            if (print.physical()) {
                auto resolved = resolvePrintSize(print, cl.figure, raster);
                if (const auto* why = std::get_if<QString>(&resolved))
                    throw InvalidParameter(why->toStdString());
                cl.print = std::get<PrintSize>(resolved);
                cl.printRequest = print;
                cl.raster = raster;
            } else {
                cl.print = PrintSize::fromPixels(cl.size, print.fontPt.value_or(PlotView::kScreenFontPt));
            }
        } else if (!sweepSpec.isEmpty()) {
            parseSweep(cl, sweepSpec);
            cl.mode = CommandLine::Mode::BenchSweep;
        } else if (sizeGiven)
            throw InvalidParameter("--size applies only to --export and --bench-sweep");
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return cl;
}

bool runsWithoutDisplay(const CommandLine& cl)
{
    return cl.mode != CommandLine::Mode::Window;
}

int runCommandLine(const CommandLine& cl)
{
    switch (cl.mode) {
    case CommandLine::Mode::Help:
        std::fputs(usageText().toUtf8().constData(), stdout);
        return 0;
    case CommandLine::Mode::List: {
        size_t idWidth = 0, topicWidth = 0;
        for (const auto& s : ScenarioRegistry::instance().all()) {
            idWidth = std::max(idWidth, s->info().id.size());
            topicWidth = std::max(topicWidth, s->info().topic.size());
        }
        for (const auto& s : ScenarioRegistry::instance().all()) {
            const ScenarioInfo info = s->info();
            std::printf("%-*s  %-*s  %s\n", int(idWidth), info.id.c_str(), int(topicWidth),
                        info.topic.c_str(), info.title.c_str());
        }
        return 0;
    }
    case CommandLine::Mode::ListParameters:
        std::fputs(parameterListText(*cl.scenario).toUtf8().constData(), stdout);
        return 0;
    case CommandLine::Mode::BenchSweep:
        return runBenchSweep(cl);
    case CommandLine::Mode::PrintLink:
        return printStateLink(cl);
    case CommandLine::Mode::ListLessons:
        return printLessonList();
    case CommandLine::Mode::Animate:
        return runAnimationCommand(cl);
    case CommandLine::Mode::Export:
        break;
    case CommandLine::Mode::Window:
        return 0;
    }

    const Figure& figure = cl.figure;
    PlotView view;
    view.resize(cl.size);
    if (cl.highContrast)
        view.setTheme(PlotView::Theme::HighContrast);
    // A session's pins and hidden curves, as the window shows and exports them.
    const QStringList labels = pinLabels(cl.scenario->schema(), cl.pins, cl.input.values);
    std::vector<PlotView::Pin> pins;
    for (std::size_t i = 0; i < cl.pins.size(); ++i)
        pins.push_back({labels[qsizetype(i)], cl.pins[i].figure});
    view.setPins(std::move(pins));
    view.setHiddenSeries(cl.hiddenSeries);
    view.setFigure(figure);
    PrintSize print = cl.print;
    if (cl.printRequest) {
        auto resolved = resolvePrintSize(*cl.printRequest, figure, cl.raster);
        if (const auto* why = std::get_if<QString>(&resolved)) {
            std::fprintf(stderr, "evidence-explorer: error: %s\n", why->toUtf8().constData());
            return 2;
        }
        print = std::get<PrintSize>(resolved);
    }
    const QString id = QString::fromStdString(cl.scenario->info().id);
    for (const QString& path : cl.exports) {
        const QString error = exportFigure(
            path, {id, cl.scenario->schema(), cl.input.values, figure, cl.lessonCaption}, view, print);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "evidence-explorer: error: %s\n", error.toUtf8().constData());
            return 1;
        }
    }
    for (const std::string& w : figure.warnings)
        std::fprintf(stderr, "evidence-explorer: warning: %s\n", w.c_str());
    return 0;
}

} // namespace evx
