#pragma once
// Runs the application binary as a user would, in a process, for the command-line suites.
#include <QDir>
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

} // namespace evx::testing
