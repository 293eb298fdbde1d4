#pragma once
// Session files (.evx.json): the scenario, its parameters and view options, with a format
// version. Opening checks everything before anything is applied, so a malformed or newer
// file changes nothing and says why.

#include "core/scenario.h"

#include <QString>
#include <QStringList>
#include <variant>

namespace evx {

struct Session {
    static constexpr int kFormatVersion = 1;

    QString scenarioId;
    RunInput input;            // parameters, clicked points, data file
    QStringList hiddenSeries;  // PlotView keys "plot title/series name"
};

QByteArray sessionToJson(const Session& session, const ParameterSchema& schema);
QString saveSession(const QString& path, const Session& session, const ParameterSchema& schema);

// The session, or a one-line reason why the file cannot be opened.
std::variant<Session, QString> parseSession(const QByteArray& data);
std::variant<Session, QString> loadSession(const QString& path);

}  // namespace evx
