#include "state_link.h"

#include "core/errors.h"
#include "core/input_limits.h"
#include "lesson.h"
#include "scenarios/registry.h"

#include <QSet>
#include <QStringConverter>
#include <charconv>
#include <cmath>

namespace evx {
namespace {

constexpr QLatin1StringView kScheme{"evx:"};

QString quoted(const QString& text)
{
    return QString::fromStdString(quoteForMessage(text.toStdString()));
}

// The shortest text that std::from_chars (and so --set) reads back as exactly this double.
QString shortestNumber(double value)
{
    char buffer[64];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, ec == std::errc() ? end - buffer : 0);
}

int hexDigit(QChar c)
{
    const char16_t u = c.unicode();
    if (u >= '0' && u <= '9')
        return u - '0';
    if (u >= 'a' && u <= 'f')
        return u - 'a' + 10;
    if (u >= 'A' && u <= 'F')
        return u - 'A' + 10;
    return -1;
}

// Strict percent-decoding: QUrl's tolerant mode would pass "%zz" through as it is, and a link
// that does not say what it means should be refused, not guessed at.
QString decodeComponent(const QString& text)
{
    QByteArray bytes;
    bytes.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c != '%') {
            bytes += QString(c).toUtf8();
            continue;
        }
        const int high = i + 1 < text.size() ? hexDigit(text[i + 1]) : -1;
        const int low = i + 2 < text.size() ? hexDigit(text[i + 2]) : -1;
        if (high < 0 || low < 0)
            throw InvalidParameter(
                QString("the link has a bad escape %1: %2 must be followed by two hex digits")
                    .arg(quoted(text.mid(i, 3)), "%")
                    .toStdString());
        bytes += char(high * 16 + low);
        i += 2;
    }
    auto decoder = QStringDecoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString out = decoder(bytes);
    if (decoder.hasError())
        throw InvalidParameter(QString("the link's %1 decodes to bytes that are not UTF-8 text")
                                   .arg(quoted(text))
                                   .toStdString());
    return out;
}

} // namespace

bool isStateLink(const QString& text)
{
    return text.startsWith(kScheme, Qt::CaseInsensitive);
}

QString encodeLinkComponent(const QString& text)
{
    static const QByteArray keep = "-._~,";
    QString out;
    for (const char c : text.toUtf8()) {
        const auto u = static_cast<unsigned char>(c);
        if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || keep.contains(c))
            out += QChar(u);
        else
            out += QString("%%1").arg(u, 2, 16, QChar('0')).toUpper();
    }
    return out;
}

std::vector<std::pair<QString, QString>> parseLinkQuery(const QString& query, const QStringList& repeatable)
{
    std::vector<std::pair<QString, QString>> pairs;
    QSet<QString> seen;
    for (const QString& part : query.split('&', Qt::SkipEmptyParts)) {
        const qsizetype eq = part.indexOf('=');
        if (eq < 0)
            throw InvalidParameter(
                QString("the link's %1 is not name=value").arg(quoted(part)).toStdString());
        QString name = decodeComponent(part.left(eq));
        QString value = decodeComponent(part.mid(eq + 1));
        if (name.isEmpty())
            throw InvalidParameter(QString("the link's %1 has no name").arg(quoted(part)).toStdString());
        if (seen.contains(name) && !repeatable.contains(name))
            throw InvalidParameter(QString("the link gives %1 twice; which value is meant is unclear")
                                       .arg(quoted(name))
                                       .toStdString());
        seen.insert(name);
        pairs.emplace_back(std::move(name), std::move(value));
    }
    return pairs;
}

QString stateLinkFor(const QString& scenarioId, const ParameterSchema& schema, const RunInput& input,
                     const LessonPosition& lesson)
{
    if (!input.dataPath.empty())
        throw InvalidParameter("a link cannot carry a data file (it names a file on one machine); "
                               "save a session instead");
    QStringList pairs;
    for (const ParameterSpec& spec : schema.specs()) {
        const auto it = input.values.find(spec.name);
        const double value = it != input.values.end() ? it->second : spec.defaultValue;
        const QString text = spec.kind == ParameterKind::Choice || spec.kind == ParameterKind::Boolean
                                 ? QString::fromStdString(schema.format(spec.name, value))
                                 : shortestNumber(value);
        pairs << encodeLinkComponent(QString::fromStdString(spec.name)) + "=" + encodeLinkComponent(text);
    }
    for (const auto& point : input.points)
        pairs << "point=" + shortestNumber(point[0]) + "," + shortestNumber(point[1]);
    if (!lesson.lesson.isEmpty())
        pairs << "lesson=" + encodeLinkComponent(lesson.lesson) << QString("step=%1").arg(lesson.step + 1);
    QString link = "evx://" + encodeLinkComponent(scenarioId);
    if (!pairs.isEmpty())
        link += "?" + pairs.join('&');
    return link;
}

std::variant<Session, QString> parseStateLink(const QString& givenLink, LessonPosition* lessonPosition)
{
    try {
        if (givenLink.size() > kMaxLinkCharacters)
            throw InvalidParameter(QString("the link has %1 characters; a link is at most %2")
                                       .arg(givenLink.size())
                                       .arg(kMaxLinkCharacters)
                                       .toStdString());
        QString link = givenLink.trimmed();
        if (!link.startsWith("evx://", Qt::CaseInsensitive))
            throw InvalidParameter(QString("%1 is not a link of the form evx://SCENARIO?name=value&…")
                                       .arg(quoted(link))
                                       .toStdString());
        link = link.mid(6);
        if (const qsizetype hash = link.indexOf('#'); hash >= 0)
            link.truncate(hash);
        const qsizetype question = link.indexOf('?');
        QString id = decodeComponent(question < 0 ? link : link.left(question));
        if (id.endsWith('/'))
            id.chop(1);
        // Browsers and desktops may lower-case the host part; scenario ids are lower case.
        id = id.toLower();
        const auto scenario = ScenarioRegistry::instance().find(id.toStdString());
        if (!scenario)
            throw InvalidParameter(QString("the link names an unknown scenario %1 (see --list-scenarios)")
                                       .arg(quoted(id))
                                       .toStdString());
        const ParameterSchema& schema = scenario->schema();

        const auto pairs = parseLinkQuery(question < 0 ? QString() : link.mid(question + 1), {"point"});
        Session session;
        session.scenarioId = id;
        ParameterValues& values = session.input.values;
        values = schema.defaults();
        for (const auto& [name, value] : pairs)
            if (name == "preset")
                values = scenario->presetValues(value.toStdString());
        QString lessonId, stepText;
        for (const auto& [name, value] : pairs) {
            if (name == "lesson")
                lessonId = value;
            if (name == "step")
                stepText = value;
            if (name == "preset" || name == "lesson" || name == "step")
                continue;
            if (name == "point") {
                session.input.points.push_back(parsePoint(value.toStdString()));
                continue;
            }
            const std::string key = name.toStdString();
            if (!schema.find(key))
                throw InvalidParameter(QString("scenario '%1' has no parameter %2 (see --list-parameters %1)")
                                           .arg(id, quoted(name))
                                           .toStdString());
            values[key] = schema.parse(key, value.toStdString());
        }
        validateRunInput(*scenario, session.input);
        if (lessonId.isEmpty() != stepText.isEmpty())
            throw InvalidParameter("the link names a lesson without a step, or a step without a lesson");
        if (!lessonId.isEmpty()) {
            if (!shippedLessonIds().contains(lessonId))
                throw InvalidParameter(QString("the link names no shipped lesson %1 (see --list-lessons)")
                                           .arg(quoted(lessonId))
                                           .toStdString());
            const auto loaded = loadLesson(lessonId);
            if (const auto* why = std::get_if<QString>(&loaded))
                throw InvalidParameter(why->toStdString());
            const Lesson& lesson = std::get<Lesson>(loaded);
            bool ok = false;
            const int step = stepText.toInt(&ok);
            if (!ok || step < 1 || step > int(lesson.steps.size()))
                throw InvalidParameter(QString("the link's step %1: the lesson '%2' has steps 1 to %3")
                                           .arg(quoted(stepText), lessonId)
                                           .arg(lesson.steps.size())
                                           .toStdString());
            if (lesson.steps[std::size_t(step - 1)].scenarioId != id)
                throw InvalidParameter(
                    QString("the link's scenario '%1' is not that of step %2 of the lesson '%3'")
                        .arg(id)
                        .arg(step)
                        .arg(lessonId)
                        .toStdString());
            if (lessonPosition)
                *lessonPosition = {lessonId, step - 1};
        } else if (lessonPosition) {
            *lessonPosition = {};
        }
        return session;
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
}

} // namespace evx
