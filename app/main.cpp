#include "command_line.h"
#include "main_window.h"
#include "params/parameter_panel.h"
#include "state_link.h"
#include "table_command.h"

#include <QApplication>
#include <QIcon>
#include <QUrl>
#include <cstdio>

int main(int argc, char** argv)
{
    QStringList arguments;
    for (int i = 1; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (evx::isTableCommand(arguments)) {
        const auto table = evx::parseTableCommand(arguments);
        if (const auto* why = std::get_if<QString>(&table)) {
            std::fprintf(stderr, "evidence-explorer: error: %s\n", why->toUtf8().constData());
            return 2;
        }
        return evx::runTableCommand(std::get<evx::TableCommand>(table));
    }
    // Bad input is refused before any window system is touched.
    const auto parsed = evx::parseCommandLine(arguments);
    if (const auto* why = std::get_if<QString>(&parsed)) {
        std::fprintf(stderr, "evidence-explorer: error: %s\n", why->toUtf8().constData());
        return 2;
    }
    const evx::CommandLine& commandLine = std::get<evx::CommandLine>(parsed);
    if (evx::runsWithoutDisplay(commandLine) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName("Evidence Explorer");
    QApplication::setOrganizationName("Evidence Explorer");
    QApplication::setWindowIcon(QIcon(":/icons/evidence-explorer.svg"));
    QGuiApplication::setDesktopFileName("evidence-explorer");
    if (evx::runsWithoutDisplay(commandLine))
        return evx::runCommandLine(commandLine);

    evx::MainWindow window;
    const QString& path = commandLine.sessionPath;
    if (!commandLine.lesson.isEmpty()) {
        window.openLessonFile(commandLine.lesson, commandLine.lessonStep);
        window.parameterPanel()->setValues(commandLine.input.values); // the step's, with any --set over them
    } else if (!path.isEmpty() && !evx::isStateLink(path) && !arguments.contains("--set"))
        // With its hidden series; a failure shows in the window. A desktop's %u gives file: URLs.
        window.openSessionFile(path.startsWith("file:", Qt::CaseInsensitive) ? QUrl(path).toLocalFile()
                                                                             : path);
    else if (commandLine.scenario)
        window.openScenario(QString::fromStdString(commandLine.scenario->info().id), commandLine.input);
    window.show();
    return app.exec();
}
