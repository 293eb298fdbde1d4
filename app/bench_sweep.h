#pragma once
// --bench-sweep: drives the real runner and plot view offscreen through a parameter sweep
// and prints the latency of each update as one JSON object (DESIGN.md).

namespace evx {

struct CommandLine;

// Returns the exit code; needs a QApplication.
int runBenchSweep(const CommandLine& commandLine);

} // namespace evx
