#pragma once
// Session files (.evx.json): the scenario, its parameters and view options, with a format
// version. Opening checks everything before anything is applied, so a malformed or newer
// file changes nothing and says why.

#include "core/figure.h"
#include "core/scenario.h"

#include <QString>
#include <QStringList>
#include <variant>

namespace evx {

// A pinned figure ("before and after"): the parameters it was computed with, for its label,
// and its line, step and scatter curves by plot (title, axes and series; nothing else).
// Sessions store the curves rather than recomputing them from the parameters: a pin then shows
// exactly what was pinned (a run also depends on clicked points, a data file that may have
// changed, sampler seeds), opening stays immediate with no extra runs, and the file alone says
// what the ghosts were. The cost is size: a few hundred kilobytes for four pins of a large figure.
struct PinnedFigure {
    ParameterValues values;
    Figure figure;
};

struct Session {
    static constexpr int kFormatVersion = 1; // "pins" is optional: older files still open
    static constexpr int kMaxPins = 4;       // the window keeps at most this many, oldest dropped

    QString scenarioId;
    RunInput input;                      // parameters, clicked points, data file
    QStringList hiddenSeries;            // PlotView keys "plot title/series name"
    std::vector<PinnedFigure> pins = {}; // oldest first
};

QByteArray sessionToJson(const Session& session, const ParameterSchema& schema);
QString saveSession(const QString& path, const Session& session, const ParameterSchema& schema);

// The session, or a one-line reason why the file cannot be opened.
std::variant<Session, QString> parseSession(const QByteArray& data);
std::variant<Session, QString> loadSession(const QString& path);

} // namespace evx
