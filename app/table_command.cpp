#include "table_command.h"

#include "core/input_limits.h"
#include "exporter.h"
#include "scenarios/registry.h"
#include "scenarios/studies.h"
#include "table_merge.h"

#include <QFileInfo>
#include <QJsonArray>

#include <map>
#include <thread>

namespace evx {
namespace {

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

// The options every table takes, and those its study declares, for the error message of
// an unknown one.
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

// The study --table names.
QString studyIdOf(const QStringList& args)
{
    for (int i = 0; i < args.size(); ++i) {
        if (args[i].startsWith("--table="))
            return args[i].mid(8);
        if (args[i] == "--table" && i + 1 < args.size())
            return args[i + 1];
    }
    return {};
}

// A table export: json, csv or md, in a folder that can be written, and not itself a folder or
// a read-only file. Checked before any run, so that no finished table is lost to a bad target.
void checkTableExport(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "json" && suffix != "csv" && suffix != "md")
        throw std::runtime_error(
            QString("--export %1: a table is written as json, csv or md").arg(quoted(path)).toStdString());
    if (QFileInfo(path).isDir())
        throw std::runtime_error(QString("--export %1 is a folder").arg(quoted(path)).toStdString());
    const QFileInfo folder(QFileInfo(path).absolutePath());
    if (isReadOnlyFile(path) || !folder.isDir() || !folder.isWritable())
        throw std::runtime_error(QString("--export %1 cannot be written").arg(quoted(path)).toStdString());
}

// --merge FILES… [--allow-partial] --export …: the options come from the shards themselves.
TableCommand parseMerge(const QStringList& args)
{
    TableCommand command;
    bool allowPartial = false;
    QStringList inputs;
    for (int i = 0; i < args.size(); ++i) {
        const QString& arg = args[i];
        if (arg == "--merge") {
            while (i + 1 < args.size() && !args[i + 1].startsWith("--"))
                inputs << args[++i];
        } else if (arg == "--allow-partial")
            allowPartial = true;
        else if (arg == "--export")
            command.exports << takeValue(args, i);
        else if (arg.startsWith("--export="))
            command.exports << arg.mid(9);
        else
            throw std::runtime_error(
                QString("%1 does not go with --merge: a merge takes its options from the "
                        "shards (it takes --export and --allow-partial)")
                    .arg(quoted(arg))
                    .toStdString());
    }
    if (inputs.isEmpty())
        throw std::runtime_error("--merge needs the table files to combine");
    if (command.exports.isEmpty())
        throw std::runtime_error("--merge needs --export t.json, t.csv or t.md");
    for (const QString& path : command.exports)
        checkTableExport(path);
    auto merged = mergeTableFiles(inputs, allowPartial);
    if (const auto* why = std::get_if<QString>(&merged))
        throw std::runtime_error(why->toStdString());
    MergedTable& m = std::get<MergedTable>(merged);
    command.merge = true;
    command.mergedFiles = int(inputs.size());
    command.study = std::move(m.study);
    command.mergedRuns = std::move(m.runs);
    command.mergedPartial = m.partial;
    command.provenance = m.provenance;
    return command;
}

// The cells whose `column` label is in the comma list; every name must label some cell.
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

// Every run's input within what its scenario accepts (each parameter's range, and the work
// budgets), checked before the first run: the replicate options allow more than some
// scenarios take (--splits to 10 000, a split 0 … 99), and --epochs more than the budget of
// some data sets. The first and last replicate and restart of every cell bound the runs
// between them.
void checkRunsAccepted(const TableCommand& command,
                       const std::map<std::string, std::shared_ptr<const Scenario>>& scenarios)
{
    const Study& study = command.study;
    for (const StudyCell& cell : study.cells) {
        const Scenario& scenario = *scenarios.at(study.scenarioOf(cell));
        for (const auto& [replicate, restart] :
             {std::pair{0, 0}, std::pair{command.replicates - 1, command.restarts - 1}}) {
            RunInput input{scenario.schema().defaults(), {}, {}};
            for (const auto& [name, value] : study.runValues(cell, replicate, restart))
                input.values[name] = value;
            try {
                validateRunInput(scenario, input);
            } catch (const std::exception& e) {
                throw std::runtime_error(QString("%1 %2%3: %4 %5 of cell %6 is refused by %7: %8")
                                             .arg(QString::fromStdString(study.replicateOption))
                                             .arg(command.replicates)
                                             .arg(study.selectBy.empty()
                                                      ? QString()
                                                      : QString(" --restarts %1").arg(command.restarts))
                                             .arg(QString::fromStdString(study.replicateKey))
                                             .arg(replicate)
                                             .arg(cellKey(study, cell))
                                             .arg(QString::fromStdString(scenario.info().id))
                                             .arg(QString::fromUtf8(e.what()))
                                             .toStdString());
            }
        }
    }
}

// Every option that changes a number, under the name a user types, for the JSON's provenance.
TableProvenance provenanceOf(const TableCommand& command, const std::map<QString, QStringList>& filters,
                             const ParameterValues& overrides)
{
    const Study& study = command.study;
    TableProvenance p;
    p.options[QString::fromStdString(study.replicateOption)] = command.replicates;
    if (!study.selectBy.empty())
        p.options["--restarts"] = command.restarts;
    for (auto [option, labels] : filters) {
        labels.sort();
        labels.removeDuplicates();
        p.options[option] = labels.join(',');
    }
    for (const auto& [name, value] : overrides)
        p.options[QString::fromStdString(name)] = value;
    QJsonArray cells;
    for (const StudyCell& c : study.cells)
        cells.append(cellKey(study, c));
    p.options["cells"] = cells;
    p.shard = command.shard;
    p.shards = command.shards;
    p.version = programVersion();
    p.totalRuns = qint64(study.cells.size()) * command.replicates * command.restarts;
    return p;
}

} // namespace

QString programVersion()
{
    return QString(EVX_VERSION);
}

std::variant<TableCommand, QString> parseTableCommand(const QStringList& args)
{
    TableCommand command;
    command.jobs = std::max(1, int(std::thread::hardware_concurrency()));
    try {
        if (args.contains("--merge"))
            return parseMerge(args);
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
        std::map<QString, QStringList> filtersGiven; // option → the labels kept
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
            else if (const std::string* column = studyOption(study->filters)) {
                const QString list = value();
                command.study.cells = keepCells(command.study.cells, *column, arg, list, id);
                filtersGiven[arg] += list.split(',');
            } else if (arg == "--set" || studyOption(study->parameterOptions)) {
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
        for (StudyCell& cell : command.study.cells)
            for (const auto& [k, v] : overrides)
                cell.values[k] = v;
        if (command.exports.isEmpty())
            throw std::runtime_error("--table needs --export t.json, t.csv or t.md");
        for (const QString& path : command.exports)
            checkTableExport(path);
        checkRunsAccepted(command, scenarios);
        const qint64 total = qint64(command.study.cells.size()) * command.replicates * command.restarts;
        if (command.shard > total)
            throw std::runtime_error(
                QString("--shard %1/%2: the table has %3 runs, so shard %1 would hold none")
                    .arg(command.shard)
                    .arg(command.shards)
                    .arg(total)
                    .toStdString());
        command.provenance = provenanceOf(command, filtersGiven, overrides);
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return command;
}

} // namespace evx
