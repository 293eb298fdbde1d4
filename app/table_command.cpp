#include "table_command.h"

#include "core/input_limits.h"
#include "exporter.h"
#include "scenarios/genbayes/gb_tables.h"
#include "scenarios/registry.h"

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

struct RunResult {
    int cell;
    int seed;
    double value; // NaN when the run failed
};

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

// Mean, sample sd and count of the finite results per cell.
struct Aggregate {
    double mean = NAN, sd = NAN;
    int count = 0;
};

std::map<int, Aggregate> aggregate(const std::vector<RunResult>& runs)
{
    // Summed in seed order, so a merged table equals the unsharded one to the last bit.
    std::map<int, std::map<int, double>> bySeed;
    for (const RunResult& r : runs)
        if (std::isfinite(r.value))
            bySeed[r.cell][r.seed] = r.value;
    std::map<int, std::vector<double>> byCell;
    for (const auto& [cell, seeds] : bySeed)
        for (const auto& [seed, value] : seeds)
            byCell[cell].push_back(value);
    std::map<int, Aggregate> out;
    for (const auto& [cell, v] : byCell) {
        double m = 0, s = 0;
        for (double x : v)
            m += x / double(v.size());
        for (double x : v)
            s += (x - m) * (x - m);
        out[cell] = {m, v.size() > 1 ? std::sqrt(s / double(v.size() - 1)) : NAN, int(v.size())};
    }
    return out;
}

// The cells that have results, in table order, with their aggregates: rows of another
// shard or method, or not reached before Ctrl+C, are left out.
std::vector<std::pair<const StudyCell*, Aggregate>> tableRows(const Study& study,
                                                              const std::vector<RunResult>& runs)
{
    const auto agg = aggregate(runs);
    std::vector<std::pair<const StudyCell*, Aggregate>> rows;
    for (std::size_t c = 0; c < study.cells.size(); ++c)
        if (const auto it = agg.find(int(c)); it != agg.end())
            rows.emplace_back(&study.cells[c], it->second);
    return rows;
}

QByteArray toJson(const Study& study, const std::vector<RunResult>& runs)
{
    QJsonArray rows, runArray;
    for (const auto& [cellPtr, a] : tableRows(study, runs)) {
        const StudyCell& cell = *cellPtr;
        QJsonObject row;
        for (const auto& [k, v] : cell.labels)
            row[QString::fromStdString(k)] = QString::fromStdString(v);
        const QString metric = QString::fromStdString(study.metric);
        row["mean_" + metric] = std::isfinite(a.mean) ? QJsonValue(a.mean) : QJsonValue();
        row["sd_" + metric] = std::isfinite(a.sd) ? QJsonValue(a.sd) : QJsonValue();
        row["seeds"] = a.count;
        if (cell.paper)
            row["paper"] = *cell.paper;
        rows.append(row);
    }
    for (const RunResult& r : runs) {
        QJsonObject o;
        for (const auto& [k, v] : study.cells[std::size_t(r.cell)].labels)
            o[QString::fromStdString(k)] = QString::fromStdString(v);
        o["seed"] = r.seed;
        o[QString::fromStdString(study.metric)] = std::isfinite(r.value) ? QJsonValue(r.value) : QJsonValue();
        runArray.append(o);
    }
    return QJsonDocument(QJsonObject{{"table", QString::fromStdString(study.id)},
                                     {"title", QString::fromStdString(study.title)},
                                     {"metric", QString::fromStdString(study.metric)},
                                     {"rows", rows},
                                     {"runs", runArray}})
        .toJson(QJsonDocument::Indented);
}

QString number(double v)
{
    return std::isfinite(v) ? QString::number(v, 'f', 4) : QString("–");
}

QByteArray toCsv(const Study& study, const std::vector<RunResult>& runs)
{
    QString out;
    for (const std::string& c : study.columns)
        out += QString::fromStdString(c) + ",";
    out += QString("mean_%1,sd_%1,seeds,paper\n").arg(QString::fromStdString(study.metric));
    for (const auto& [cellPtr, a] : tableRows(study, runs)) {
        const StudyCell& cell = *cellPtr;
        for (const std::string& col : study.columns)
            out += QString::fromStdString(cell.label(col)) + ",";
        out += QString("%1,%2,%3,%4\n")
                   .arg(std::isfinite(a.mean) ? QString::number(a.mean, 'g', 10) : QString())
                   .arg(std::isfinite(a.sd) ? QString::number(a.sd, 'g', 10) : QString())
                   .arg(a.count)
                   .arg(cell.paper ? QString::number(*cell.paper, 'g', 10) : QString());
    }
    return out.toUtf8();
}

QByteArray toMarkdown(const Study& study, const std::vector<RunResult>& runs)
{
    QString out = QString("# %1\n\n%2 of `%3` over seeds, ours (mean ± sd, seeds) beside the paper's.\n\n")
                      .arg(QString::fromStdString(study.title), QString::fromStdString(study.metric),
                           QString::fromStdString(study.scenarioId));
    QString header = "|", rule = "|";
    for (const std::string& c : study.columns) {
        header += " " + QString::fromStdString(c) + " |";
        rule += "---|";
    }
    out += header + " ours | seeds | paper | ours − paper |\n" + rule + "---|---|---|---|\n";
    for (const auto& [cellPtr, a] : tableRows(study, runs)) {
        const StudyCell& cell = *cellPtr;
        out += "|";
        for (const std::string& col : study.columns)
            out += " " + QString::fromStdString(cell.label(col)) + " |";
        out += QString(" %1 ± %2 | %3 | %4 | %5 |\n")
                   .arg(number(a.mean), number(a.sd))
                   .arg(a.count)
                   .arg(cell.paper ? number(*cell.paper) : QString("–"))
                   .arg(cell.paper && std::isfinite(a.mean) ? number(a.mean - *cell.paper) : QString("–"));
    }
    return out.toUtf8();
}

int writeExports(const TableCommand& command, const std::vector<RunResult>& runs)
{
    for (const QString& path : command.exports) {
        const QString suffix = QFileInfo(path).suffix().toLower();
        const QByteArray bytes = suffix == "json"  ? toJson(command.study, runs)
                                 : suffix == "csv" ? toCsv(command.study, runs)
                                                   : toMarkdown(command.study, runs);
        const QString error = writeFileAtomically(path, bytes);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "evidence-explorer: error: %s\n", error.toUtf8().constData());
            return 1;
        }
    }
    return 0;
}

// Reads the runs of a table JSON written by this command; matches them to the study's cells
// by their labels.
QString readRuns(const QString& path, const Study& study, std::vector<RunResult>& runs)
{
    try {
        checkDataFile(path.toStdString(), std::uintmax_t(256) << 20, "table file");
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString("cannot open %1: %2").arg(path, file.errorString());
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    if (root.value("table").toString() != QString::fromStdString(study.id))
        return QString("%1 is not a %2 table").arg(path, QString::fromStdString(study.id));
    std::map<std::vector<std::string>, int> cellOf;
    for (std::size_t c = 0; c < study.cells.size(); ++c) {
        std::vector<std::string> key;
        for (const std::string& col : study.columns)
            key.push_back(study.cells[c].label(col));
        cellOf[key] = int(c);
    }
    for (const QJsonValue& v : root.value("runs").toArray()) {
        const QJsonObject o = v.toObject();
        std::vector<std::string> key;
        for (const std::string& col : study.columns)
            key.push_back(o.value(QString::fromStdString(col)).toString().toStdString());
        const auto it = cellOf.find(key);
        if (it == cellOf.end() || !o.value("seed").isDouble())
            return QString("%1 holds a run that is not a cell of %2")
                .arg(path, QString::fromStdString(study.id));
        const QJsonValue value = o.value(QString::fromStdString(study.metric));
        runs.push_back({it->second, o.value("seed").toInt(), value.isDouble() ? value.toDouble() : NAN});
    }
    return {};
}

const Study* findStudy(const std::vector<Study>& studies, const QString& id)
{
    for (const Study& s : studies)
        if (QString::fromStdString(s.id) == id)
            return &s;
    return nullptr;
}

} // namespace

bool isTableCommand(const QStringList& arguments)
{
    for (const QString& a : arguments)
        if (a == "--table" || a.startsWith("--table=") || a == "--merge")
            return true;
    return false;
}

std::variant<TableCommand, QString> parseTableCommand(const QStringList& args)
{
    static const std::vector<Study> studies = scenarios::generalisedBayesStudies();
    TableCommand command;
    command.jobs = std::max(1, int(std::thread::hardware_concurrency()));
    QString id, methods;
    bool merge = false;
    try {
        for (int i = 0; i < args.size(); ++i) {
            QString arg = args[i];
            QString inlineValue;
            if (arg.startsWith("--") && arg.contains('=')) {
                inlineValue = arg.mid(arg.indexOf('=') + 1);
                arg = arg.left(arg.indexOf('='));
            }
            auto value = [&] { return inlineValue.isEmpty() ? takeValue(args, i) : inlineValue; };
            if (arg == "--table")
                id = value();
            else if (arg == "--seeds")
                command.seeds = positive(value(), "--seeds", 10000);
            else if (arg == "--methods")
                methods = value();
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
            } else
                throw std::runtime_error(
                    QString("unknown argument %1 for --table (try --help)").arg(quoted(arg)).toStdString());
        }
        if (merge && command.mergeInputs.isEmpty())
            throw std::runtime_error("--merge needs the table files to combine");
        if (merge && id.isEmpty()) {
            // The study is named inside the files.
            QFile file(command.mergeInputs.first());
            if (file.open(QIODevice::ReadOnly))
                id = QJsonDocument::fromJson(file.read(std::int64_t(256) << 20))
                         .object()
                         .value("table")
                         .toString();
        }
        const Study* study = findStudy(studies, id);
        if (!study) {
            QString known;
            for (const Study& s : studies)
                known += (known.isEmpty() ? "" : ", ") + QString::fromStdString(s.id);
            throw std::runtime_error(
                QString("unknown table %1 (tables: %2)").arg(quoted(id), known).toStdString());
        }
        command.study = *study;
        if (!methods.isEmpty()) {
            const QStringList wanted = methods.split(',');
            for (const QString& m : wanted) {
                bool known = false;
                for (const StudyCell& c : study->cells)
                    known = known || QString::fromStdString(c.label("method")) == m;
                if (!known)
                    throw std::runtime_error(
                        QString("--methods: %1 is not a method of %2").arg(quoted(m), id).toStdString());
            }
            std::vector<StudyCell> kept;
            for (const StudyCell& c : study->cells)
                if (wanted.contains(QString::fromStdString(c.label("method"))))
                    kept.push_back(c);
            command.study.cells = kept;
        }
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

int runTableCommand(const TableCommand& command)
{
    const Study& study = command.study;
    std::vector<RunResult> results;
    if (!command.mergeInputs.isEmpty()) {
        for (const QString& path : command.mergeInputs)
            if (const QString why = readRuns(path, study, results); !why.isEmpty()) {
                std::fprintf(stderr, "evidence-explorer: error: %s\n", why.toUtf8().constData());
                return 1;
            }
        std::fprintf(stderr, "%s: merged %zu runs from %lld files\n", study.id.c_str(), results.size(),
                     static_cast<long long>(command.mergeInputs.size()));
        return writeExports(command, results);
    }

    const auto scenario = ScenarioRegistry::instance().find(study.scenarioId);
    // Interleaved slices: run i (cell-major, then seed) belongs to shard (i mod N) + 1.
    std::vector<std::pair<int, int>> work;
    for (std::size_t c = 0; c < study.cells.size(); ++c)
        for (int s = 0; s < command.seeds; ++s) {
            const std::size_t i = c * std::size_t(command.seeds) + std::size_t(s);
            if (int(i % std::size_t(command.shards)) == command.shard - 1)
                work.emplace_back(int(c), s);
        }
    std::signal(SIGINT, onInterrupt);
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    const auto start = std::chrono::steady_clock::now();
    auto worker = [&] {
        const RunContext context(&cancel, {});
        for (;;) {
            const std::size_t i = next++;
            if (i >= work.size() || g_interrupted.load())
                return;
            const auto [cell, seed] = work[i];
            ParameterValues values = scenario->schema().defaults();
            for (const auto& [k, v] : study.cells[std::size_t(cell)].values)
                values[k] = v;
            values[study.seedParameter] = seed;
            double value = NAN;
            try {
                value = scenario->runChecked({values, {}, {}}, context).summary.value(study.metric);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "%s: cell %d seed %d failed: %s\n", study.id.c_str(), cell, seed,
                             e.what());
            }
            std::lock_guard lock(mutex);
            results.push_back({cell, seed, value});
            ++done;
        }
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < std::min<int>(command.jobs, int(work.size())); ++j)
        threads.emplace_back(worker);
    while (done.load() < work.size() && !g_interrupted.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        static auto lastLine = start;
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
