#pragma once
// Links that open a state (DESIGN.md "Sessions, links and lessons"): a session in one line,
//   evx://SCENARIO?name=value&name=value&point=x,y
// for slides and lecture notes. Every parameter of the schema is written (not only those that
// differ from the defaults), so a link keeps meaning the same state when a default changes;
// a link read back goes through ParameterSchema::parse and validateRunInput, the path of --set.
//
// Syntax: the scheme "evx" (any case), "//", the scenario id (a trailing "/" is allowed; a
// fragment "#…" is ignored), then an optional query of name=value pairs joined by "&". Names
// and values are percent-encoded UTF-8 (RFC 3986; "+" is a plus sign, not a space). Names are
// the scenario's parameters, "preset" (its values first, then the others over them) and
// "point" (x or x,y, repeatable, in order), and "lesson" and "step" (a shipped lesson's id and a
// step from 1: the link opens that lesson at that step, with the link's values over the step's;
// a lesson file is never named, since a link must not open files on the machine it is clicked
// on). A data file is not part of a link: it names a file on one machine; a state that needs
// one is saved as a session.

#include "core/scenario.h"
#include "session.h"

#include <QString>
#include <utility>
#include <variant>
#include <vector>

namespace evx {

// A shipped lesson and a step of it (from 0), as a link names them.
struct LessonPosition {
    QString lesson;
    int step = 0;
};

// A pasted megabyte must not reach the parser: links longer than this are refused whole.
inline constexpr qsizetype kMaxLinkCharacters = 8192;

// Whether a command-line argument is a link (evx:…) rather than a session file.
bool isStateLink(const QString& text);

// The link of a scenario's state: every parameter in schema order, each number written with
// the fewest digits that read back as the same double, then the points. Throws InvalidParameter
// for an input with a data file.
QString stateLinkFor(const QString& scenarioId, const ParameterSchema& schema, const RunInput& input,
                     const LessonPosition& lesson = {});

// The state a link opens as a session (no pins, no hidden series), or the one-line reason it
// is refused: not an evx:// link, too long, a bad %-escape, an unknown or repeated name, a
// value --set would refuse, too many points.
// With `lesson`, a link's lesson and step go there (lesson "" when it names none); the step's
// scenario must be the link's.
std::variant<Session, QString> parseStateLink(const QString& link, LessonPosition* lesson = nullptr);

// The query of a link ("a=1&b=x%20y") as decoded name/value pairs in order; shared with the
// evx:set?… links of lessons and explanation pages. Throws InvalidParameter on a bad escape,
// a pair without "=", an empty name, bytes that are not UTF-8, or a repeated name (which of
// two values is meant is unclear), except for names in `repeatable`.
std::vector<std::pair<QString, QString>> parseLinkQuery(const QString& query,
                                                        const QStringList& repeatable = {});

// Percent-encodes all but RFC 3986's unreserved characters and ",".
QString encodeLinkComponent(const QString& text);

} // namespace evx
