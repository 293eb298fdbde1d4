#pragma once
// The command line's lessons (lesson.h): --list-lessons, and --lesson ID|FILE [--step K] as a
// state to open, export or link. Kept apart from command_line.cpp so each can change alone.

#include "command_line.h"

#include <QString>

namespace evx {

// Loads the lesson and puts step K's (1-based text, "" for 1) scenario, values, points and
// caption into the command line; throws InvalidParameter when the lesson is refused or K is
// not one of its steps. Returns the step's scenario id.
QString applyLessonStep(CommandLine& commandLine, const QString& lesson, const QString& stepText);

// A lesson step's pins with their figures, for an export (the window computes its own).
void computeLessonPins(CommandLine& commandLine);

// "ID  TITLE  (N steps)" per shipped lesson; returns the exit code.
int printLessonList();

} // namespace evx
