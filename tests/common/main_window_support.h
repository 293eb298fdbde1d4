#pragma once
// Shared by the main-window test suites: reading the summary on screen, and waiting until the
// figure shown is the runner's newest.
#include "main_window.h"
#include "runner.h"

#include <QElapsedTimer>
#include <QSignalSpy>

inline double summaryOf(const evx::MainWindow& w, const char* key)
{
    return w.currentFigure().summary.value(key);
}

// Waits until the figure on screen is the one for the runner's newest request.
inline bool settle(evx::MainWindow& w, QSignalSpy& shown, int timeoutMs = 10000)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        if (!shown.isEmpty() && shown.last().at(0).toULongLong() == w.runner()->latestRevision())
            return true;
        shown.wait(100);
    }
    return false;
}
