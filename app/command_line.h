#pragma once
// The command line of DESIGN.md. Parsing needs no QApplication, so bad input is reported
// (one line on stderr, exit code 2) before any window system is touched.

#include "animation.h"
#include "core/figure.h"
#include "core/parameters.h"
#include "core/scenario.h"
#include "exporter.h"
#include "plot/print_size.h"
#include "session.h"

#include <QSize>
#include <QString>
#include <QStringList>
#include <memory>
#include <variant>

namespace evx {

// The size of the plot in exports and in --bench-sweep unless --size says otherwise.
inline constexpr QSize kDefaultPlotSize{1200, 800};

struct CommandLine {
    enum class Mode {
        Window,
        List,
        Export,
        BenchSweep,
        Help,
        ListParameters,
        PrintLink,
        ListLessons,
        Animate
    };
    Mode mode = Mode::Window;
    std::shared_ptr<const Scenario> scenario; // null: the window opens its default
    QString presetName;
    QString sessionPath; // a session file given on the command line (FILE.evx.json), or a link (evx://…)
    RunInput input;      // the scenario's defaults overlaid with the preset and every --set; --point; --data
    std::vector<PinnedFigure> pins; // a session's pins and hidden series: its exports show
    QStringList hiddenSeries;       // them as the window's do
    QStringList exports;
    QString lesson;        // --lesson ID|FILE: its step lessonStep (from 0) is the state
    int lessonStep = 0;    // --step K - 1
    QString lessonCaption; // that step's caption, which a JSON export carries
    Figure figure;         // --export: computed while parsing, so the scenario's own input checks
                           // (e.g. parameters that are fine alone but not together) count as bad input
    QSize size = kDefaultPlotSize; // --size: pixels of --bench-sweep and of exports
    PrintSize print;               // images of --export: from --size, or --width-mm, --figure-size, …
    // A print size in millimetres as asked for: runCommandLine resolves it again once the figure's
    // text can be measured (a height the figure chooses, PlotView::naturalHeightMm).
    std::optional<PrintRequest> printRequest;
    bool raster = false;       // some --export is a PNG
    bool highContrast = false; // --theme high-contrast: images of --export in PlotView's high-contrast theme
    AnimationSettings animation; // --animate (animation_command.h)
    std::string sweepParameter;
    double sweepFrom = 0, sweepTo = 0;
    int sweepSteps = 0;
};

// The parsed command line, or the one-line reason it is refused.
std::variant<CommandLine, QString> parseCommandLine(const QStringList& arguments);

QString usageText();

// Every parameter of a scenario with its range, default and unit, and its presets
// (--list-parameters ID, --scenario ID --help).
QString parameterListText(const Scenario& scenario);

// Modes that show nothing run on the offscreen platform, so no display is needed.
bool runsWithoutDisplay(const CommandLine& commandLine);

// Runs --list-scenarios, --export and --bench-sweep; returns the process exit code.
// Needs a QApplication.
int runCommandLine(const CommandLine& commandLine);

} // namespace evx
