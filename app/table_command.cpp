#include "table_command.h"

#include "core/input_limits.h"
#include "exporter.h"
#include "scenarios/registry.h"
#include "scenarios/studies.h"
#include "table_format.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

namespace evx {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int)
{
    g_interrupted.store(true);
}

QString quoted(const QString& text)
{
    return QString::fromStdString(quoteForMessage(text.toStdString()));
}

QString takeValue(const QStringList& args, int& i)
{
    if (i + 1 >= args.size() || args[i + 1].startsWith("--"))
        throw std::runtime_error(QString("%1 needs a value").arg(args[i]).toStdString());
    return args[++i];
}

int positive(const QString& text, const char* option, int maximum)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < 1 || v > maximum)
        throw std::runtime_error(QString("%1 %2 is not a whole number from 1 to %3")
                                     .arg(option, quoted(text))
                                     .arg(maximum)
                                     .toStdString());
    return v;
}

// The options every table takes, and those its study declares, for the error
// message of an unknown one.
QString knownOptions(const Study* study)
{
    QString known = "--table, --merge, --set, --jobs, --shard, --export";
    if (study) {
        known += ", " + QString::fromStdString(study->replicateOption);
        if (!study->selectBy.empty())
            known += ", --restarts";
        for (const auto& [option, column] : study->filters)
            known += ", " + QString::fromStdString(option);
        for (const auto& [option, parameter] : study->parameterOptions)
            known += ", " + QString::fromStdString(option);
    }
    return known;
}

} // namespace

bool isTableCommand(const QStringList& arguments)
{
    for (const QString& a : arguments)
        if (a == "--table" || a.startsWith("--table=") || a == "--merge")
            return true;
    return false;
}

namespace {

// The study an argument list names: --table ID, or the table inside the first
// --merge file.
QString studyIdOf(const QStringList& args)
{
    for (int i = 0; i < args.size(); ++i) {
        if (args[i].startsWith("--table="))
            return args[i].mid(8);
        if (args[i] == "--table" && i + 1 < args.size())
            return args[i + 1];
    }
    for (int i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--merge") {
            QFile file(args[i + 1]);
            // Bounded read: a merge input is checked properly when its runs are read.
            if (file.open(QIODevice::ReadOnly))
                return QJsonDocument::fromJson(file.read(std::int64_t(256) << 20))
                    .object()
                    .value("table")
                    .toString();
        }
    return {};
}

// The cells whose `column` label is in the comma list; every name must label
// some cell.
std::vector<StudyCell> keepCells(const std::vector<StudyCell>& cells, const std::string& column,
                                 const QString& option, const QString& list, const QString& studyId)
{
    const QStringList wanted = list.split(',');
    for (const QString& w : wanted) {
        bool known = false;
        for (const StudyCell& c : cells)
            known = known || QString::fromStdString(c.label(column)) == w;
        if (!known)
            throw std::runtime_error(QString("%1: %2 is not a %3 of %4")
                                         .arg(option, quoted(w), QString::fromStdString(column), studyId)
                                         .toStdString());
    }
    std::vector<StudyCell> kept;
    for (const StudyCell& c : cells)
        if (wanted.contains(QString::fromStdString(c.label(column))))
            kept.push_back(c);
    return kept;
}

} // namespace

std::variant<TableCommand, QString> parseTableCommand(const QStringList& args)
{
    TableCommand command;
    command.jobs = std::max(1, int(std::thread::hardware_concurrency()));
    try {
        const QString id = studyIdOf(args);
        const Study* study = findStudy(id.toStdString());
        if (!study) {
            QString known;
            for (const Study& s : allStudies())
                known += (known.isEmpty() ? "" : ", ") + QString::fromStdString(s.id);
            throw std::runtime_error(
                QString("unknown table %1 (tables: %2)").arg(quoted(id), known).toStdString());
        }
        command.study = *study;
        command.replicates = study->defaultReplicates;
        command.restarts = study->defaultRestarts;
        // Every scenario the cells run: a --set must name a parameter of each.
        std::map<std::string, std::shared_ptr<const Scenario>> scenarios;
        for (const StudyCell& c : study->cells)
            if (!(scenarios[study->scenarioOf(c)] = ScenarioRegistry::instance().find(study->scenarioOf(c))))
                throw std::runtime_error("table " + study->id + " runs an unknown scenario " +
                                         quoteForMessage(study->scenarioOf(c)));
        ParameterValues overrides;
        bool merge = false;
        for (int i = 0; i < args.size(); ++i) {
            QString arg = args[i];
            QString inlineValue;
            if (arg.startsWith("--") && arg.contains('=')) {
                inlineValue = arg.mid(arg.indexOf('=') + 1);
                arg = arg.left(arg.indexOf('='));
            }
            auto value = [&] { return inlineValue.isEmpty() ? takeValue(args, i) : inlineValue; };
            auto studyOption = [&](const auto& options) {
                for (const auto& [option, target] : options)
                    if (arg == QString::fromStdString(option))
                        return &target;
                return static_cast<const std::string*>(nullptr);
            };
            if (arg == "--table")
                value();
            else if (arg == QString::fromStdString(study->replicateOption))
                command.replicates = positive(value(), study->replicateOption.c_str(), study->maxReplicates);
            else if (arg == "--restarts" && !study->selectBy.empty())
                command.restarts = positive(value(), "--restarts", 1000);
            else if (arg == "--jobs")
                command.jobs = positive(value(), "--jobs", 256);
            else if (arg == "--shard") {
                const QString spec = value();
                const QStringList parts = spec.split('/');
                bool okK = false, okN = false;
                command.shard = parts.value(0).toInt(&okK);
                command.shards = parts.value(1).toInt(&okN);
                if (parts.size() != 2 || !okK || !okN || command.shards < 1 || command.shard < 1 ||
                    command.shard > command.shards)
                    throw std::runtime_error(
                        QString("--shard %1 is not K/N with 1 ≤ K ≤ N").arg(quoted(spec)).toStdString());
            } else if (arg == "--export")
                command.exports << value();
            else if (arg == "--merge") {
                merge = true;
                while (i + 1 < args.size() && !args[i + 1].startsWith("--"))
                    command.mergeInputs << args[++i];
            } else if (const std::string* column = studyOption(study->filters))
                command.study.cells = keepCells(command.study.cells, *column, arg, value(), id);
            else if (arg == "--set" || studyOption(study->parameterOptions)) {
                QString name, text = value();
                if (arg == "--set") {
                    if (!text.contains('='))
                        throw std::runtime_error(
                            QString("--set %1 is not name=value").arg(quoted(text)).toStdString());
                    name = text.left(text.indexOf('='));
                    text = text.mid(text.indexOf('=') + 1);
                } else {
                    name = QString::fromStdString(*studyOption(study->parameterOptions));
                }
                for (const auto& [scenarioId, scenario] : scenarios) {
                    if (!scenario->schema().find(name.toStdString()))
                        throw std::runtime_error(QString("--set: %1 is not a parameter of %2")
                                                     .arg(quoted(name), QString::fromStdString(scenarioId))
                                                     .toStdString());
                    overrides[name.toStdString()] =
                        scenario->schema().parse(name.toStdString(), text.toStdString());
                }
            } else
                throw std::runtime_error(QString("unknown argument %1 for --table %2 (options: %3)")
                                             .arg(quoted(arg), id, knownOptions(study))
                                             .toStdString());
        }
        if (merge && command.mergeInputs.isEmpty())
            throw std::runtime_error("--merge needs the table files to combine");
        for (StudyCell& cell : command.study.cells)
            for (const auto& [k, v] : overrides)
                cell.values[k] = v;
        if (command.exports.isEmpty())
            throw std::runtime_error("--table needs --export t.json, t.csv or t.md");
        for (const QString& path : command.exports) {
            const QString suffix = QFileInfo(path).suffix().toLower();
            if (suffix != "json" && suffix != "csv" && suffix != "md")
                throw std::runtime_error(QString("--export %1: a table is written as json, csv or md")
                                             .arg(quoted(path))
                                             .toStdString());
            if (isReadOnlyFile(path) || !QFileInfo(QFileInfo(path).absolutePath()).isWritable())
                throw std::runtime_error(
                    QString("--export %1 cannot be written").arg(quoted(path)).toStdString());
        }
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return command;
}

namespace {

int writeExports(const TableCommand& command, const std::vector<StudyRun>& runs)
{
    for (const QString& path : command.exports) {
        const QString suffix = QFileInfo(path).suffix().toLower();
        const QByteArray bytes = suffix == "json"  ? tableJson(command.study, runs)
                                 : suffix == "csv" ? tableCsv(command.study, runs)
                                                   : tableMarkdown(command.study, runs);
        const QString error = writeFileAtomically(path, bytes);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "evidence-explorer: error: %s\n", error.toUtf8().constData());
            return 1;
        }
    }
    return 0;
}

struct WorkItem {
    int cell, replicate, restart;
};

} // namespace

int runTableCommand(const TableCommand& command)
{
    const Study& study = command.study;
    std::vector<StudyRun> results;
    if (!command.mergeInputs.isEmpty()) {
        for (const QString& path : command.mergeInputs)
            if (const QString why = readTableRuns(path, study, results); !why.isEmpty()) {
                std::fprintf(stderr, "evidence-explorer: error: %s\n", why.toUtf8().constData());
                return 1;
            }
        std::fprintf(stderr, "%s: merged %zu runs from %lld files\n", study.id.c_str(), results.size(),
                     static_cast<long long>(command.mergeInputs.size()));
        return writeExports(command, results);
    }

    std::vector<std::shared_ptr<const Scenario>> scenarioOfCell;
    for (const StudyCell& c : study.cells)
        scenarioOfCell.push_back(ScenarioRegistry::instance().find(study.scenarioOf(c)));
    // Interleaved slices: run i (cell-major, then replicate, then restart)
    // belongs to shard (i mod N) + 1.
    std::vector<WorkItem> work;
    std::size_t i = 0;
    for (std::size_t c = 0; c < study.cells.size(); ++c)
        for (int r = 0; r < command.replicates; ++r)
            for (int k = 0; k < command.restarts; ++k, ++i)
                if (int(i % std::size_t(command.shards)) == command.shard - 1)
                    work.push_back({int(c), r, k});
    std::signal(SIGINT, onInterrupt);
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    const auto start = std::chrono::steady_clock::now();
    auto worker = [&] {
        const RunContext context(&cancel, {});
        for (;;) {
            const std::size_t w = next++;
            if (w >= work.size() || g_interrupted.load())
                return;
            const WorkItem item = work[w];
            StudyRun run{item.cell, item.replicate, item.restart,
                         std::vector<double>(study.metrics.size(), NAN), NAN};
            try {
                const Scenario* scenario = scenarioOfCell[std::size_t(item.cell)].get();
                if (!scenario)
                    throw std::runtime_error("unknown scenario " +
                                             study.scenarioOf(study.cells[std::size_t(item.cell)]));
                ParameterValues values = scenario->schema().defaults();
                for (const auto& [k, v] :
                     study.runValues(study.cells[std::size_t(item.cell)], item.replicate, item.restart))
                    values[k] = v;
                const Figure figure = scenario->runChecked({values, {}, {}}, context);
                // A metric a cell does not have (e.g. a latent statistic of a network
                // without a latent) stays empty in its row; the others count.
                for (std::size_t m = 0; m < study.metrics.size(); ++m)
                    try {
                        run.values[m] = study.metricValue(study.metrics[m], figure.summary);
                    } catch (const std::out_of_range&) {
                    }
                if (!study.selectBy.empty())
                    run.select = figure.summary.value(study.selectBy);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "%s: cell %d %s %d restart %d failed: %s\n", study.id.c_str(), item.cell,
                             study.replicateKey.c_str(), item.replicate, item.restart, e.what());
            }
            std::lock_guard lock(mutex);
            results.push_back(std::move(run));
            ++done;
        }
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < std::min<int>(command.jobs, int(work.size())); ++j)
        threads.emplace_back(worker);
    auto lastLine = start;
    while (done.load() < work.size() && !g_interrupted.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const auto now = std::chrono::steady_clock::now();
        if (now - lastLine < std::chrono::seconds(2) && done.load() < work.size())
            continue;
        lastLine = now;
        const double elapsed = std::chrono::duration<double>(now - start).count();
        const std::size_t d = done.load();
        const double remaining = d > 0 ? elapsed / double(d) * double(work.size() - d) : NAN;
        std::fprintf(stderr, "%s: %zu/%zu runs, %.0f s elapsed, about %.0f s remaining\n", study.id.c_str(),
                     d, work.size(), elapsed, remaining);
    }
    for (std::thread& t : threads)
        t.join();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "%s: %zu/%zu runs in %.1f s%s\n", study.id.c_str(), results.size(), work.size(),
                 elapsed, g_interrupted.load() ? " (interrupted; writing what is done)" : "");
    const int written = writeExports(command, results);
    return written != 0 ? written : g_interrupted.load() ? 130 : 0;
}

} // namespace evx
