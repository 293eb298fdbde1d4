#pragma once
// Guided lessons (DESIGN.md "Sessions, links and lessons"): a title and 1–50 steps, each a
// state of one scenario with a caption beside it, walked with Next / Back. The file format,
// JSON (a lesson is opened from resources/lessons/ by id or from any file):
//
//   {
//     "format": "evidence-explorer-lesson", "version": 1,
//     "title": "Three readings of one uncertain measurement",
//     "paper": "…",                                  (optional: where the story comes from)
//     "steps": [
//       { "scenario": "ue-gaussian",                 (required in step 1; later steps keep the last)
//         "preset": "fig2-left",                     (optional: its values first)
//         "set": { "zeta": 3, "reading": "jeffrey" },(optional: numbers, or text as --set reads it)
//         "points": [[0.5, 0], [1.2, 0]],            (optional: clicked points)
//         "pins": [ { "zeta": 1 } ],                 (optional, at most 4: the step's values with
//                                                     these changed, shown as faint ghosts)
//         "caption": "Jeffrey's rule …σ_q… [try σ_q = 0.5](evx:set?sigma_q=0.5)" }
//     ]
//   }
//
// A step's state is the scenario's defaults, then the preset, then "set": it never depends on
// the step before, so Back and a jump to step K show the same thing. Captions use the figure
// markup (core/rich_label.h: σ_q, x^2, e^{-x}), blank lines between paragraphs, *emphasis*, and
// links [text](evx:set?name=value&…) that set values of the step's scenario when clicked (the
// explanation pages take the same links). Every value, pin and caption link is checked as
// --set checks a value when the lesson is opened; a lesson with any fault is refused with
// one line naming the step and the field.

#include "core/scenario.h"

#include <QString>
#include <QStringList>
#include <array>
#include <variant>
#include <vector>

namespace evx {

struct LessonStep {
    QString scenarioId;
    QString preset;
    RunInput input;                    // complete values and points
    std::vector<ParameterValues> pins; // complete values of each pin, in order
    QString caption;                   // markup, as written
};

struct Lesson {
    QString id; // a shipped lesson's file name without ".json"; for a file, its path
    QString title;
    QString paper;
    std::vector<LessonStep> steps;
};

inline constexpr int kMaxLessonSteps = 50;
inline constexpr qint64 kMaxLessonBytes = 1 << 20;

// The lesson in `json`, or a one-line reason naming the step and field at fault.
std::variant<Lesson, QString> parseLesson(const QByteArray& json, const QString& id);

// A shipped lesson by id, else a file by path; the reason prefixed with what was opened.
std::variant<Lesson, QString> loadLesson(const QString& idOrPath);

// The ids of the lessons in resources/lessons/, sorted.
QStringList shippedLessonIds();

// The values an evx:set?name=value&… link changes (only those), each parsed as --set parses
// it; throws InvalidParameter for any other link, an unknown name or a refused value.
ParameterValues parseSetLink(const QString& link, const ParameterSchema& schema);

// Every link target in a caption or Markdown page ("…](target)"), in order.
QStringList markupLinks(const QString& markup);

// Qt rich text for a caption: paragraphs, scripts, emphasis and links as <a href>.
QString captionHtml(const QString& caption);

} // namespace evx
