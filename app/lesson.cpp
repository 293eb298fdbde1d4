#include "lesson.h"

#include "core/errors.h"
#include "core/input_limits.h"
#include "plot/rich_text.h"
#include "scenarios/registry.h"
#include "session.h"
#include "state_link.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

// Resources compiled into a static library are registered by hand, outside any namespace; the
// command line reads shipped lessons without a MainWindow, which registers them too.
static void initialiseLessonResources()
{
    static const bool done = [] {
        Q_INIT_RESOURCE(resources);
        return true;
    }();
    (void)done;
}

namespace evx {
namespace {

constexpr auto kFormatName = "evidence-explorer-lesson";
constexpr int kFormatVersion = 1;

QString quoted(const QString& text)
{
    return QString::fromStdString(quoteForMessage(text.toStdString()));
}

// A JSON value as --set would read it: numbers as written, true/false, choice names as text.
QString valueText(const QJsonValue& value)
{
    if (value.isBool())
        return value.toBool() ? "true" : "false";
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 17);
    if (value.isString())
        return value.toString();
    throw InvalidParameter("a value is neither a number, true/false nor text");
}

// `over` with each name of `set` parsed as --set parses it.
ParameterValues applySet(ParameterValues over, const QJsonObject& set, const ParameterSchema& schema,
                         const QString& scenarioId)
{
    for (auto it = set.begin(); it != set.end(); ++it) {
        const std::string name = it.key().toStdString();
        if (!schema.find(name))
            throw InvalidParameter(
                QString("scenario '%1' has no parameter %2").arg(scenarioId, quoted(it.key())).toStdString());
        // A number goes in as the double it is (its text could round); the rest as --set reads text.
        if (it->isDouble()) {
            if (const auto why = schema.check(name, it->toDouble()))
                throw InvalidParameter(*why);
            over[name] = it->toDouble();
        } else {
            over[name] = schema.parse(name, valueText(*it).toStdString());
        }
    }
    return over;
}

// Runs a check on one field of one step; its refusal becomes "step K: "field": why".
template <typename F> auto inField(int step, const char* field, F&& check)
{
    try {
        return check();
    } catch (const std::exception& e) {
        throw InvalidParameter(
            QString("step %1, \"%2\": %3").arg(step).arg(field, QString::fromUtf8(e.what())).toStdString());
    }
}

LessonStep parseStep(const QJsonValue& value, int k, const QString& previousScenario)
{
    if (!value.isObject())
        throw InvalidParameter(QString("step %1 is not an object").arg(k).toStdString());
    const QJsonObject o = value.toObject();
    static const QStringList known{"scenario", "preset", "set", "points", "pins", "caption"};
    for (const QString& key : o.keys())
        if (!known.contains(key))
            throw InvalidParameter(QString("step %1 has an unknown field %2 (known: %3)")
                                       .arg(k)
                                       .arg(quoted(key), known.join(", "))
                                       .toStdString());
    LessonStep step;
    step.scenarioId = inField(k, "scenario", [&] {
        const QJsonValue id = o.value("scenario");
        if (id.isUndefined() && !previousScenario.isEmpty())
            return previousScenario;
        if (!id.isString())
            throw InvalidParameter("missing or not a scenario id");
        return id.toString();
    });
    const auto scenario = inField(k, "scenario", [&] {
        auto found = ScenarioRegistry::instance().find(step.scenarioId.toStdString());
        if (!found)
            throw InvalidParameter(QString("unknown scenario %1 (see --list-scenarios)")
                                       .arg(quoted(step.scenarioId))
                                       .toStdString());
        return found;
    });
    const ParameterSchema& schema = scenario->schema();
    step.input.values = inField(k, "preset", [&] {
        const QJsonValue preset = o.value("preset");
        if (preset.isUndefined())
            return schema.defaults();
        if (!preset.isString())
            throw InvalidParameter("not a preset name");
        step.preset = preset.toString();
        return scenario->presetValues(step.preset.toStdString());
    });
    step.input.values = inField(k, "set", [&] {
        const QJsonValue set = o.value("set");
        if (set.isUndefined())
            return step.input.values;
        if (!set.isObject())
            throw InvalidParameter("not an object of name: value");
        return applySet(step.input.values, set.toObject(), schema, step.scenarioId);
    });
    inField(k, "points", [&] {
        const QJsonValue points = o.value("points");
        if (points.isUndefined())
            return 0;
        if (!points.isArray())
            throw InvalidParameter("not a list of [x, y]");
        for (const QJsonValue& p : points.toArray()) {
            const QJsonArray xy = p.toArray();
            if (!p.isArray() || xy.size() != 2 || !xy[0].isDouble() || !xy[1].isDouble())
                throw InvalidParameter("holds something other than [x, y] pairs of numbers");
            step.input.points.push_back({xy[0].toDouble(), xy[1].toDouble()});
        }
        validateRunInput(*scenario, step.input);
        return 0;
    });
    inField(k, "pins", [&] {
        const QJsonValue pins = o.value("pins");
        if (pins.isUndefined())
            return 0;
        if (!pins.isArray() || pins.toArray().size() > Session::kMaxPins)
            throw InvalidParameter(QString("not a list of at most %1 objects of name: value")
                                       .arg(Session::kMaxPins)
                                       .toStdString());
        for (const QJsonValue& pin : pins.toArray()) {
            if (!pin.isObject())
                throw InvalidParameter("a pin is not an object of name: value");
            RunInput input = step.input;
            input.values = applySet(step.input.values, pin.toObject(), schema, step.scenarioId);
            validateRunInput(*scenario, input);
            step.pins.push_back(input.values);
        }
        return 0;
    });
    step.caption = inField(k, "caption", [&] {
        const QJsonValue caption = o.value("caption");
        if (!caption.isString() || caption.toString().trimmed().isEmpty())
            throw InvalidParameter("missing or empty: every step says what to look at");
        for (const QString& link : markupLinks(caption.toString()))
            if (!link.startsWith("http://") && !link.startsWith("https://"))
                parseSetLink(link, schema);
        return caption.toString();
    });
    return step;
}

} // namespace

ParameterValues parseSetLink(const QString& link, const ParameterSchema& schema)
{
    static const QString prefix = "evx:set?";
    if (!link.startsWith(prefix, Qt::CaseInsensitive))
        throw InvalidParameter(
            QString("the link %1 is not evx:set?name=value&…").arg(quoted(link)).toStdString());
    if (link.size() > kMaxLinkCharacters)
        throw InvalidParameter(QString("the link has %1 characters; a link is at most %2")
                                   .arg(link.size())
                                   .arg(kMaxLinkCharacters)
                                   .toStdString());
    const auto pairs = parseLinkQuery(link.mid(prefix.size()));
    if (pairs.empty())
        throw InvalidParameter(QString("the link %1 sets nothing").arg(quoted(link)).toStdString());
    ParameterValues changes;
    for (const auto& [name, value] : pairs) {
        const std::string key = name.toStdString();
        if (!schema.find(key))
            throw InvalidParameter(QString("the link %1 names no parameter of this scenario: %2")
                                       .arg(quoted(link), quoted(name))
                                       .toStdString());
        changes[key] = schema.parse(key, value.toStdString());
    }
    return changes;
}

QStringList markupLinks(const QString& markup)
{
    static const QRegularExpression pattern(R"(\]\(([^)\s]*)\))");
    QStringList out;
    for (auto it = pattern.globalMatch(markup); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

QString captionHtml(const QString& caption)
{
    // [text](target) and *emphasis*; everything else is figure markup, escaped.
    static const QRegularExpression token(R"(\[([^\]]+)\]\(([^)\s]*)\)|\*([^*\n]+)\*)");
    static const QRegularExpression paragraphBreak(R"(\n\s*\n)");
    QString html;
    for (const QString& paragraph : caption.trimmed().split(paragraphBreak, Qt::SkipEmptyParts)) {
        const QString text = QString(paragraph).replace('\n', ' ');
        QString p;
        qsizetype at = 0;
        for (auto it = token.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            p += richLabelHtml(text.mid(at, m.capturedStart() - at), false);
            if (m.capturedLength(1) > 0)
                p += QString("<a href=\"%1\">%2</a>")
                         .arg(m.captured(2).toHtmlEscaped(), richLabelHtml(m.captured(1), false));
            else
                p += "<i>" + richLabelHtml(m.captured(3), false) + "</i>";
            at = m.capturedEnd();
        }
        p += richLabelHtml(text.mid(at), false);
        html += "<p>" + p + "</p>";
    }
    return html;
}

std::variant<Lesson, QString> parseLesson(const QByteArray& json, const QString& id)
{
    try {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
        if (error.error != QJsonParseError::NoError)
            throw InvalidParameter(QString("not valid JSON (%1 at byte %2)")
                                       .arg(error.errorString())
                                       .arg(error.offset)
                                       .toStdString());
        const QJsonObject root = doc.object();
        if (!doc.isObject() || root.value("format").toString() != kFormatName)
            throw InvalidParameter(
                QString("not a lesson (\"format\" is not \"%1\")").arg(kFormatName).toStdString());
        const QJsonValue version = root.value("version");
        if (!version.isDouble() || version.toDouble() != version.toInt() || version.toInt() < 1)
            throw InvalidParameter("the lesson has no valid \"version\"");
        if (version.toInt() > kFormatVersion)
            throw InvalidParameter(
                QString("the lesson is format version %1; this Evidence Explorer reads up to version %2")
                    .arg(version.toInt())
                    .arg(kFormatVersion)
                    .toStdString());
        Lesson lesson;
        lesson.id = id;
        lesson.title = root.value("title").toString().trimmed();
        if (lesson.title.isEmpty())
            throw InvalidParameter("\"title\" is missing or empty");
        lesson.paper = root.value("paper").toString();
        const QJsonArray steps = root.value("steps").toArray();
        if (!root.value("steps").isArray() || steps.isEmpty() || steps.size() > kMaxLessonSteps)
            throw InvalidParameter(
                QString("\"steps\" is not a list of 1 to %1 steps").arg(kMaxLessonSteps).toStdString());
        QString scenario;
        for (qsizetype i = 0; i < steps.size(); ++i) {
            lesson.steps.push_back(parseStep(steps[i], int(i) + 1, scenario));
            scenario = lesson.steps.back().scenarioId;
        }
        return lesson;
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
}

QStringList shippedLessonIds()
{
    initialiseLessonResources();
    QStringList ids;
    for (const QString& name : QDir(":/lessons").entryList({"*.json"}, QDir::Files, QDir::Name))
        ids << name.chopped(5);
    return ids;
}

std::variant<Lesson, QString> loadLesson(const QString& idOrPath)
{
    const bool shipped = shippedLessonIds().contains(idOrPath);
    const QString path = shipped ? QString(":/lessons/%1.json").arg(idOrPath) : idOrPath;
    if (!shipped) {
        if (!idOrPath.contains('/') && !idOrPath.endsWith(".json"))
            return QString("no lesson %1: use one of %2, or a file")
                .arg(quoted(idOrPath), shippedLessonIds().join(", "));
        try {
            checkDataFile(path.toStdString(), kMaxLessonBytes, "lesson file");
        } catch (const InvalidParameter& e) {
            return QString::fromUtf8(e.what());
        }
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString("cannot open the lesson %1: %2").arg(quoted(path), file.errorString());
    auto lesson =
        parseLesson(file.read(kMaxLessonBytes + 1), shipped ? idOrPath : QFileInfo(path).absoluteFilePath());
    if (const auto* why = std::get_if<QString>(&lesson))
        return QString("lesson %1: %2")
            .arg(shipped ? idOrPath
                         : QString::fromStdString(quoteForMessage(path.toStdString(), kPathCharacters)),
                 *why);
    return lesson;
}

} // namespace evx
