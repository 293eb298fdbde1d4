#pragma once
// The command line's links (state_link.h): a link given where a session file may stand, and
// --print-link. Kept apart from command_line.cpp so each can change without the other.

#include "command_line.h"
#include "session.h"

#include <QString>
#include <variant>

namespace evx {

// The session a positional argument names: a link (evx://…), a file: URL (what a desktop's
// %u hands over for a local file) or a session file path. A link to a lesson step puts the
// lesson, step and caption into commandLine.
std::variant<Session, QString> openSessionOrLink(const QString& argument, CommandLine& commandLine);

// Makes a parsed command line print its state's link; throws InvalidParameter when
// --print-link is combined with what it cannot print (no scenario, exports, a sweep, a size,
// a data file).
void checkPrintLink(CommandLine& commandLine, const QString& sweepSpec, bool sizeOptions);

// Prints the link of the parsed state on stdout; returns the exit code.
int printStateLink(const CommandLine& commandLine);

} // namespace evx
