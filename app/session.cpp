#include "session.h"

#include "core/errors.h"
#include "core/input_limits.h"
#include "exporter.h"
#include "figure_serialiser.h"
#include "scenarios/registry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <optional>
#include <vector>

namespace evx {
namespace {

constexpr auto kFormatName = "evidence-explorer-session";
// A session is a few hundred bytes; a megabyte leaves room for every point a scenario
// takes while refusing a large or endless file (/dev/zero) before it is read.
constexpr qint64 kMaxSessionBytes = 1 << 20;

QString quoted(const QString& text)
{
    return QString::fromStdString(quoteForMessage(text.toStdString()));
}

// QJsonDocument keeps the last of two equal keys without a word; a session with two
// "scenario" entries was written by something other than this program and should say so.
// Runs on text QJsonDocument has already accepted, so only strings and nesting matter.
std::optional<QString> firstDuplicateKey(const QByteArray& json)
{
    struct Level {
        bool object;
        QSet<QString> keys;
    };
    std::vector<Level> levels;
    bool expectKey = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (c == '"') {
            const qsizetype start = ++i;
            while (i < json.size() && json[i] != '"')
                i += json[i] == '\\' ? 2 : 1;
            if (expectKey && !levels.empty() && levels.back().object) {
                const QString key = QJsonDocument::fromJson("[\"" + json.mid(start, i - start) + "\"]")
                                        .array().at(0).toString();
                if (levels.back().keys.contains(key))
                    return key;
                levels.back().keys.insert(key);
                expectKey = false;
            }
        } else if (c == '{' || c == '[') {
            levels.push_back({c == '{', {}});
            expectKey = c == '{';
        } else if (c == '}' || c == ']') {
            if (!levels.empty())
                levels.pop_back();
        } else if (c == ',') {
            expectKey = !levels.empty() && levels.back().object;
        }
    }
    return std::nullopt;
}

}  // namespace

QByteArray sessionToJson(const Session& session, const ParameterSchema& schema)
{
    QJsonObject root{{"format", kFormatName},
                     {"version", Session::kFormatVersion},
                     {"scenario", session.scenarioId},
                     {"parameters", parametersToJson(schema, session.input.values)},
                     {"view", QJsonObject{{"hidden_series", QJsonArray::fromStringList(session.hiddenSeries)}}}};
    if (!session.input.points.empty()) {
        QJsonArray points;
        for (const auto& p : session.input.points)
            points.append(QJsonArray{p[0], p[1]});
        root["points"] = points;
    }
    if (!session.input.dataPath.empty())
        root["data_path"] = QString::fromStdString(session.input.dataPath);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QString saveSession(const QString& path, const Session& session, const ParameterSchema& schema)
{
    return writeFileAtomically(path, sessionToJson(session, schema));
}

std::variant<Session, QString> parseSession(const QByteArray& data)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError)
        return QString("not valid JSON (%1 at byte %2)").arg(error.errorString()).arg(error.offset);
    if (!doc.isObject())
        return QString("not a session: the top level is not a JSON object");
    if (const auto key = firstDuplicateKey(data))
        return QString("the key %1 appears twice in one object; which one is meant is unclear").arg(quoted(*key));
    const QJsonObject root = doc.object();
    if (root.value("format").toString() != kFormatName)
        return QString("not an Evidence Explorer session (\"format\" is not \"%1\")").arg(kFormatName);
    const QJsonValue version = root.value("version");
    if (!version.isDouble() || version.toDouble() < 1 || version.toDouble() != version.toInt())
        return QString("the session has no valid \"version\"");
    if (version.toInt() > Session::kFormatVersion)
        return QString("the session is format version %1; this Evidence Explorer reads up to version %2")
            .arg(version.toInt())
            .arg(Session::kFormatVersion);

    Session session;
    session.scenarioId = root.value("scenario").toString();
    const auto scenario = ScenarioRegistry::instance().find(session.scenarioId.toStdString());
    if (!scenario)
        return QString("unknown scenario %1").arg(quoted(session.scenarioId));
    const ParameterSchema& schema = scenario->schema();

    const QJsonValue params = root.value("parameters");
    if (!params.isObject())
        return QString("\"parameters\" is missing or not an object");
    ParameterValues values;
    const QJsonObject p = params.toObject();
    for (auto it = p.begin(); it != p.end(); ++it) {
        const std::string name = it.key().toStdString();
        try {
            if (!schema.find(name))
                return QString("scenario \"%1\" has no parameter %2").arg(session.scenarioId, quoted(it.key()));
            if (it->isString())
                values[name] = schema.parse(name, it->toString().toStdString());
            else if (it->isBool())
                values[name] = schema.parse(name, it->toBool() ? "true" : "false");
            else if (it->isDouble()) {
                if (const auto why = schema.check(name, it->toDouble()))
                    return QString::fromStdString(*why);
                values[name] = it->toDouble();
            }
            else
                return QString("parameter %1 is not a number").arg(quoted(it.key()));
        } catch (const InvalidParameter& e) {
            return QString::fromUtf8(e.what());
        }
    }
    session.input.values = schema.defaults();
    for (const auto& [name, value] : values)
        session.input.values[name] = value;

    const QJsonValue points = root.value("points");
    if (!points.isUndefined()) {
        if (!points.isArray())
            return QString("\"points\" is not a list");
        for (const QJsonValue& p : points.toArray()) {
            const QJsonArray xy = p.toArray();
            if (!p.isArray() || xy.size() != 2 || !xy[0].isDouble() || !xy[1].isDouble())
                return QString("\"points\" holds something other than [x, y] pairs of numbers");
            session.input.points.push_back({xy[0].toDouble(), xy[1].toDouble()});
        }
    }
    const QJsonValue dataPath = root.value("data_path");
    if (!dataPath.isUndefined()) {
        if (!dataPath.isString())
            return QString("\"data_path\" is not a file name");
        session.input.dataPath = dataPath.toString().toStdString();
    }
    // The same checks as the command line and the window: point count and box, data file.
    try {
        validateRunInput(*scenario, session.input);
    } catch (const InvalidParameter& e) {
        return QString::fromUtf8(e.what());
    }

    const QJsonValue view = root.value("view");
    if (!view.isUndefined() && !view.isObject())
        return QString("\"view\" is not an object");
    const QJsonValue hidden = view.toObject().value("hidden_series");
    if (!hidden.isUndefined()) {
        if (!hidden.isArray())
            return QString("\"view.hidden_series\" is not a list");
        for (const QJsonValue& v : hidden.toArray()) {
            if (!v.isString())
                return QString("\"view.hidden_series\" holds something other than names");
            session.hiddenSeries << v.toString();
        }
    }
    return session;
}

std::variant<Session, QString> loadSession(const QString& path)
{
    try {
        checkDataFile(path.toStdString(), kMaxSessionBytes, "session file");
    } catch (const InvalidParameter& e) {
        return QString::fromUtf8(e.what());
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString("cannot open %1: %2").arg(path, file.errorString());
    auto result = parseSession(file.read(kMaxSessionBytes + 1));
    if (auto* why = std::get_if<QString>(&result))
        return QString("cannot open %1: %2").arg(path, *why);
    return result;
}

}  // namespace evx
