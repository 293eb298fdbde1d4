#include "bench_sweep.h"

#include "command_line.h"
#include "plot/plot_view.h"
#include "runner.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace evx {
namespace {

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const double rank = p * (v.size() - 1);
    const size_t lo = size_t(std::floor(rank)), hi = size_t(std::ceil(rank));
    return v[lo] + (v[hi] - v[lo]) * (rank - lo);
}

QJsonObject stats(const std::vector<double>& v)
{
    auto round3 = [](double x) { return std::round(x * 1000) / 1000; };
    return {{"p50", round3(percentile(v, 0.5))},
            {"p95", round3(percentile(v, 0.95))},
            {"max", round3(*std::max_element(v.begin(), v.end()))}};
}

} // namespace

int runBenchSweep(const CommandLine& cl)
{
    Runner runner;
    PlotView view;
    view.resize(cl.size);
    view.show();

    // first: from the change to the first figure of any kind (a partial one, if the scenario
    // publishes them), the latency a user sees before anything moves.
    // longest wait: the longest interval without a new figure, from the change through every
    // partial figure to the final one (issue: a partial figure at least every 250 ms).
    std::vector<double> compute, render, total, first, longestWait;
    RunInput input = cl.input;
    ParameterValues& values = input.values;
    const bool integer = cl.scenario->schema().find(cl.sweepParameter)->kind != ParameterKind::Real;
    for (int k = 0; k < cl.sweepSteps; ++k) {
        // std::lerp ends exactly at sweepTo: from + (to − from)·k/(steps − 1) can overshoot it
        // by an ulp (0.001:0.05 in 4, 7, 13, 22 or 25 steps), and a range's end then fails its check.
        const double v = std::lerp(cl.sweepFrom, cl.sweepTo, double(k) / (cl.sweepSteps - 1));
        values[cl.sweepParameter] = integer ? std::round(v) : v;

        QEventLoop loop;
        Figure figure;
        double computeMs = 0, firstMs = -1, lastFigureMs = 0, waitMs = 0;
        QString error;
        QElapsedTimer clock;
        clock.start();
        auto figureArrived = [&] {
            const double now = clock.nsecsElapsed() / 1e6;
            waitMs = std::max(waitMs, now - lastFigureMs);
            lastFigureMs = now;
        };
        const quint64 revision = runner.submit(cl.scenario, input);
        auto partial =
            QObject::connect(&runner, &Runner::progressed, &loop, [&](quint64 rev, const Figure&, double) {
                if (rev != revision)
                    return;
                if (firstMs < 0)
                    firstMs = clock.nsecsElapsed() / 1e6;
                figureArrived();
            });
        auto done =
            QObject::connect(&runner, &Runner::finished, &loop, [&](quint64 rev, const Figure& f, double ms) {
                if (rev != revision)
                    return;
                if (firstMs < 0)
                    firstMs = clock.nsecsElapsed() / 1e6;
                figureArrived();
                figure = f;
                computeMs = ms;
                loop.quit();
            });
        auto fail = QObject::connect(&runner, &Runner::failed, &loop, [&](quint64 rev, const QString& why) {
            if (rev == revision) {
                error = why;
                loop.quit();
            }
        });
        loop.exec();
        QObject::disconnect(partial);
        QObject::disconnect(done);
        QObject::disconnect(fail);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "evidence-explorer: error: at %s = %g: %s\n", cl.sweepParameter.c_str(),
                         values[cl.sweepParameter], error.toUtf8().constData());
            return 2;
        }
        // The same path as the window: setFigure queues one replot; wait for it to finish.
        QElapsedTimer renderClock;
        renderClock.start();
        QEventLoop renderLoop;
        auto drawn = QObject::connect(&view, &PlotView::rendered, &renderLoop, &QEventLoop::quit);
        view.setFigure(figure);
        renderLoop.exec();
        QObject::disconnect(drawn);
        render.push_back(renderClock.nsecsElapsed() / 1e6);
        total.push_back(clock.nsecsElapsed() / 1e6);
        compute.push_back(computeMs);
        first.push_back(firstMs);
        longestWait.push_back(waitMs);
    }

    const QJsonObject report{{"scenario", QString::fromStdString(cl.scenario->info().id)},
                             {"parameter", QString::fromStdString(cl.sweepParameter)},
                             {"steps", cl.sweepSteps},
                             {"size", QString("%1x%2").arg(cl.size.width()).arg(cl.size.height())},
                             {"compute_ms", stats(compute)},
                             {"render_ms", stats(render)},
                             {"first_figure_ms", stats(first)},
                             {"longest_wait_ms", stats(longestWait)},
                             {"total_ms", stats(total)}};
    std::fputs(QJsonDocument(report).toJson(QJsonDocument::Compact).constData(), stdout);
    std::fputs("\n", stdout);
    return 0;
}

} // namespace evx
