#pragma once
// Runs the application binary as a user would, in a process, for the command-line suites.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace evx::testing {

struct AppResult {
    int exitCode; // -1 when it crashed or timed out
    QString out;
    QString err;
};

inline AppResult runApp(const QStringList& args, int timeoutMs = 300000)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_RUNTIME_DIR", QDir::tempPath());
    p.setProcessEnvironment(env);
    p.start(EVX_APP_BINARY, args);
    if (!p.waitForFinished(timeoutMs))
        return {-1, {}, "timed out"};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

// Writes data to path, replacing it; false if it cannot be written. The tests that check an export
// keeps the old file start from one.
inline bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

// The top-level object of a JSON file the application wrote; empty if it cannot be read.
inline QJsonObject readJsonFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

} // namespace evx::testing
