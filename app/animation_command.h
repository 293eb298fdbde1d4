#pragma once
// The command line of animations: --animate NAME=FROM:TO:FRAMES [--fps N] [--hold-ms N]
// [--no-loop] [--filmstrip K] --export out.webp|out.gif|frames/|strip.pdf. Parsed and checked
// whole before any run (one line, exit 2), then run offscreen with progress on stderr; Ctrl+C
// stops between frames and leaves any old file as it was.

#include "animation.h"

#include <QString>
#include <QStringList>

namespace evx {

struct CommandLine;

// The animation options as typed, collected while the command line is read.
struct AnimationOptionsText {
    QString spec, fps, holdMs, filmstrip;
    bool noLoop = false;
    bool any() const
    {
        return !spec.isEmpty() || !fps.isEmpty() || !holdMs.isEmpty() || !filmstrip.isEmpty() || noLoop;
    }
};

// Takes args[i] (and its value) if it is an animation option; throws InvalidParameter for a
// missing value.
bool takeAnimationOption(const QStringList& args, int& i, AnimationOptionsText& text);

// Checks the options against the scenario, the exports and the size options given, and makes
// `cl` an animation command; throws InvalidParameter with the one-line reason.
void finishAnimationOptions(CommandLine& cl, const AnimationOptionsText& text, bool sizeGiven,
                            const PrintRequest& print);

// Runs it; returns the exit code (0, 1 for a failed write or run, 130 for Ctrl+C).
int runAnimationCommand(const CommandLine& cl);

} // namespace evx
