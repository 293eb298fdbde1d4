#pragma once
// Animations (issue 40, DESIGN.md "Animations"): one numeric parameter swept from FROM to TO in
// FRAMES steps, every frame rendered at the export size with every plot's axes held at the
// union of the sweep's ranges, so that what moves is the data, not the axes. Frames are
// rendered and handed to a FrameSink one at a time (animation_encoders.h); a filmstrip
// instead draws K values of the sweep's first plot side by side on one page, for print.

#include "animation_encoders.h"
#include "core/figure.h"
#include "core/parameters.h"
#include "core/scenario.h"
#include "exporter.h"
#include "plot/print_size.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace evx {

class PlotView;

inline constexpr int kMinAnimationFrames = 2, kMaxAnimationFrames = 1000;
inline constexpr int kDefaultAnimationFps = 12, kMaxAnimationFps = 60;
inline constexpr int kMaxAnimationHoldMs = 10000;
inline constexpr int kMinFilmstrip = 2, kMaxFilmstrip = 24;
// Without --size or a print size: 720p, the smallest size that fills a projector or a
// video player without scaling up, and fast enough to render at 30 frames a second.
inline constexpr QSize kDefaultAnimationSize{1280, 720};

struct AnimationSettings {
    std::string parameter;
    double from = 0, to = 0;
    int frames = 0;
    int fps = kDefaultAnimationFps;
    int holdMs = 0; // added to the last frame's delay
    bool loop = true;
    int filmstrip = 0; // K > 0: a filmstrip of K values instead of an animation
};

// WebP, GIF, a folder of frames (a path ending in /), or with a filmstrip a PDF, PNG or SVG.
std::optional<AnimationFormat> animationFormatFor(const QString& path, bool filmstrip);
QString animationFormatList(bool filmstrip);

// NAME=FROM:TO:FRAMES checked against the schema: NAME a real or integer parameter, FROM and
// TO finite and in its range (integers rounded), FRAMES 2..1000. Throws InvalidParameter.
void parseAnimationSpec(const ParameterSchema& schema, const QString& spec, AnimationSettings& settings);
// --fps, --hold-ms and --filmstrip in range; "" or the one-line reason.
QString checkAnimationSettings(const AnimationSettings& settings);

// The swept values: std::lerp from `from` to `to` (ending exactly at `to`), integers rounded.
std::vector<double> sweepValues(const ParameterSpec& spec, double from, double to, int count);
// The delay of frame `index` (from 0) of `frames`: 1000 / fps, the last one plus the hold.
int frameDelayMs(const AnimationSettings& settings, int index, int frames);

struct AnimationJob {
    const Scenario* scenario = nullptr;
    RunInput input; // the state the sweep starts from: preset, --set, session
    AnimationSettings settings;
    PrintSize size; // of every frame (pixels: PrintSize::pixels), unless `print` is given
    // A print size (--width-mm, --figure-size, …), resolved once the figures exist (a height
    // may follow the figure at FROM; a filmstrip's, the page of small multiples). A filmstrip
    // without one is double-column wide.
    std::optional<PrintRequest> print;
    FrameSinkOptions sinkOptions; // its loop is settings.loop
};

// What has been done: stage "compute" while the figures are computed, "frame" while frames
// are rendered and encoded.
using AnimationProgress = std::function<void(const char* stage, int done, int total)>;

// The figure of every value of the sweep (K of them for a filmstrip), or the one-line reason
// a run failed (kAnimationCancelled when `cancel` was set). Safe on any thread.
std::variant<std::vector<Figure>, QString> computeAnimationFigures(const AnimationJob& job,
                                                                   const std::atomic<bool>& cancel,
                                                                   const AnimationProgress& progress = {});
// Renders and writes the figures computeAnimationFigures returned; on the GUI thread.
QString writeAnimation(const QString& path, const AnimationJob& job, const std::vector<Figure>& figures,
                       PlotView& view, const std::atomic<bool>& cancel,
                       const AnimationProgress& progress = {});

// Both: writes the animation (or filmstrip) of `job` to `path`; "" on success, else the one-line
// reason, with any old file left as it was. `cancel` is polled between frames and inside the
// scenario's runs. The view is used offscreen and keeps the last frame.
QString exportAnimation(const QString& path, const AnimationJob& job, PlotView& view,
                        const std::atomic<bool>& cancel, const AnimationProgress& progress = {});
inline constexpr const char* kAnimationCancelled = "cancelled";

// Holds every plot of `view` still over `figures` (per plot index): each frame fits the union
// of all frames' data as the widest frame fits its own, and the ranges that leaves once laid
// out at `size` (legend headroom included; skipped for an empty size) are united and locked
// like a user's zoom. The view shows figures.front() after; resetView() and setFitExtents({})
// release it.
void holdUnionRanges(PlotView& view, const std::vector<Figure>& figures, const PrintSize& size = {});

} // namespace evx
