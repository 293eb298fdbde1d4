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
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace evx {
namespace {

constexpr auto kFormatName = "evidence-explorer-session";
// A session is a few hundred bytes, or some hundred kilobytes with pinned curves (four pins
// of a figure of ten curves of 1000 points are about 1.6 MB of JSON numbers); 16 MB leaves room
// for that while refusing a large or endless file (/dev/zero) before it is read.
constexpr qint64 kMaxSessionBytes = 16 << 20;

const char* const kKindNames[] = {"line", "step", "scatter", "bar"};

QJsonArray numbersToJson(const std::vector<double>& values)
{
    QJsonArray array;
    for (double v : values)
        array.append(std::isfinite(v) ? QJsonValue(v) : QJsonValue()); // NaN breaks a line: null
    return array;
}

QJsonObject pinToJson(const PinnedFigure& pin, const ParameterSchema& schema)
{
    QJsonArray plots;
    for (const Plot& p : pin.figure.plots) {
        QJsonArray series;
        for (const Series& s : p.series) {
            series.append(QJsonObject{{"name", QString::fromStdString(s.name)},
                                      {"kind", kKindNames[static_cast<int>(s.kind)]},
                                      {"colour", s.colour},
                                      {"dashed", s.dashed},
                                      {"thin", s.thin},
                                      {"x", numbersToJson(s.x)},
                                      {"y", numbersToJson(s.y)}});
        }
        plots.append(QJsonObject{{"title", QString::fromStdString(p.title)},
                                 {"x_label", QString::fromStdString(p.xLabel)},
                                 {"y_label", QString::fromStdString(p.yLabel)},
                                 {"log_y", p.logY},
                                 {"series", series}});
    }
    return QJsonObject{{"parameters", parametersToJson(schema, pin.values)}, {"plots", plots}};
}

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
                                        .array()
                                        .at(0)
                                        .toString();
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

// Parameters by name over the schema's defaults, each checked as the panel would.
std::variant<ParameterValues, QString> parseParameters(const QJsonObject& p, const ParameterSchema& schema,
                                                       const QString& scenarioId)
{
    ParameterValues values = schema.defaults();
    for (auto it = p.begin(); it != p.end(); ++it) {
        const std::string name = it.key().toStdString();
        try {
            if (!schema.find(name))
                return QString("scenario \"%1\" has no parameter %2").arg(scenarioId, quoted(it.key()));
            if (it->isString())
                values[name] = schema.parse(name, it->toString().toStdString());
            else if (it->isBool())
                values[name] = schema.parse(name, it->toBool() ? "true" : "false");
            else if (it->isDouble()) {
                if (const auto why = schema.check(name, it->toDouble()))
                    return QString::fromStdString(*why);
                values[name] = it->toDouble();
            } else
                return QString("parameter %1 is not a number").arg(quoted(it.key()));
        } catch (const InvalidParameter& e) {
            return QString::fromUtf8(e.what());
        }
    }
    return values;
}

// Numbers, or null for a break in a line (NaN).
std::optional<std::vector<double>> numbersFromJson(const QJsonValue& value)
{
    if (!value.isArray())
        return std::nullopt;
    std::vector<double> out;
    for (const QJsonValue& v : value.toArray()) {
        if (v.isDouble())
            out.push_back(v.toDouble());
        else if (v.isNull())
            out.push_back(std::numeric_limits<double>::quiet_NaN());
        else
            return std::nullopt;
    }
    return out;
}

// The largest magnitude a pinned curve may hold. A curve sets the axes it is drawn on, and
// QCustomPlot refuses ranges beyond 1e250: a pin at ±1e308 would wreck the axes of the window
// and of every export. No figure of this program comes near 1e100.
constexpr double kMaxPinnedMagnitude = 1e100;

// The first value that is not finite or beyond kMaxPinnedMagnitude (NaN, a break, is fine).
std::optional<double> outOfRange(const std::vector<double>& values)
{
    for (double v : values)
        if (std::isinf(v) || std::fabs(v) > kMaxPinnedMagnitude)
            return v;
    return std::nullopt;
}

std::variant<PinnedFigure, QString> parsePin(const QJsonValue& value, const ParameterSchema& schema,
                                             const QString& scenarioId)
{
    const QJsonObject object = value.toObject();
    if (!value.isObject() || !object.value("parameters").isObject() || !object.value("plots").isArray())
        return QString("a pin is not an object with \"parameters\" and \"plots\"");
    PinnedFigure pin;
    auto values = parseParameters(object.value("parameters").toObject(), schema, scenarioId);
    if (auto* why = std::get_if<QString>(&values))
        return QString("a pin's parameters: %1").arg(*why);
    pin.values = std::get<ParameterValues>(values);
    for (const QJsonValue& pv : object.value("plots").toArray()) {
        const QJsonObject po = pv.toObject();
        if (!pv.isObject() || !po.value("title").isString() || !po.value("x_label").isString() ||
            !po.value("y_label").isString() || !po.value("series").isArray())
            return QString("a pinned plot lacks its \"title\", \"x_label\", \"y_label\" or \"series\"");
        Plot plot;
        plot.title = po.value("title").toString().toStdString();
        plot.xLabel = po.value("x_label").toString().toStdString();
        plot.yLabel = po.value("y_label").toString().toStdString();
        plot.logY = po.value("log_y").toBool(false);
        for (const QJsonValue& sv : po.value("series").toArray()) {
            const QJsonObject so = sv.toObject();
            Series s;
            s.name = so.value("name").toString().toStdString();
            const QString kind = so.value("kind").toString();
            const auto k = std::find(std::begin(kKindNames), std::end(kKindNames), kind.toStdString());
            const QJsonValue colour = so.value("colour");
            const auto x = numbersFromJson(so.value("x"));
            const auto y = numbersFromJson(so.value("y"));
            if (!sv.isObject() || k == std::end(kKindNames) || !colour.isDouble() ||
                colour.toDouble() != colour.toInt() || colour.toInt() < kReferenceColour || !x || !y ||
                x->size() != y->size())
                return QString(
                           "a pinned series of plot %1 is malformed (kind, colour, or x and y of one length)")
                    .arg(quoted(po.value("title").toString()));
            if (const auto bad = outOfRange(*x) ? outOfRange(*x) : outOfRange(*y))
                return QString("a pinned series of plot %1 holds %2, beyond ±%3")
                    .arg(quoted(po.value("title").toString()))
                    .arg(*bad, 0, 'g', 6)
                    .arg(kMaxPinnedMagnitude, 0, 'g', 6);
            s.kind = static_cast<SeriesKind>(k - std::begin(kKindNames));
            s.colour = colour.toInt();
            s.dashed = so.value("dashed").toBool(false);
            s.thin = so.value("thin").toBool(false);
            s.x = *x;
            s.y = *y;
            plot.series.push_back(std::move(s));
        }
        pin.figure.plots.push_back(std::move(plot));
    }
    return pin;
}

} // namespace

QByteArray sessionToJson(const Session& session, const ParameterSchema& schema)
{
    QJsonObject root{
        {"format", kFormatName},
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
    if (!session.pins.empty()) {
        QJsonArray pins;
        for (const PinnedFigure& pin : session.pins)
            pins.append(pinToJson(pin, schema));
        root["pins"] = pins;
    }
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
        return QString("the key %1 appears twice in one object; which one is meant is unclear")
            .arg(quoted(*key));
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
    auto values = parseParameters(params.toObject(), schema, session.scenarioId);
    if (auto* why = std::get_if<QString>(&values))
        return *why;
    session.input.values = std::get<ParameterValues>(values);

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

    const QJsonValue pins = root.value("pins");
    if (!pins.isUndefined()) {
        if (!pins.isArray())
            return QString("\"pins\" is not a list");
        if (pins.toArray().size() > Session::kMaxPins)
            return QString("%1 pins; a session keeps at most %2")
                .arg(pins.toArray().size())
                .arg(Session::kMaxPins);
        for (const QJsonValue& v : pins.toArray()) {
            auto pin = parsePin(v, schema, session.scenarioId);
            if (auto* why = std::get_if<QString>(&pin))
                return *why;
            session.pins.push_back(std::move(std::get<PinnedFigure>(pin)));
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

} // namespace evx
