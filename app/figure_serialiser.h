#pragma once
// The numbers behind a figure as JSON (DESIGN.md "JSON result format") and as CSV.

#include "core/figure.h"
#include "core/parameters.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace evx {

// Parameters as JSON values: choices by name, booleans as true/false, numbers otherwise.
QJsonObject parametersToJson(const ParameterSchema& schema, const ParameterValues& values);

// With a lesson step's caption (markup as written), the object carries it as "caption".
QByteArray figureToJson(const QString& scenarioId, const ParameterSchema& schema,
                        const ParameterValues& values, const Figure& figure, const QString& caption = {});

// One tidy table, header plot,element,name,x,y,lower,upper,value: a row per point of every
// series (x, y), band (x, lower, upper), marker (x) and heat-map cell (x, y, value), then a
// row per summary entry (element "summary", its key as name, the number in value).
QByteArray figureToCsv(const Figure& figure);
// The numbers a report quotes, for pasting into notes: scenario, parameters, summary,
// warnings and the figure's tables, as Markdown tables (cells with | escaped).
QByteArray figureToMarkdown(const QString& scenarioId, const ParameterSchema& schema,
                            const ParameterValues& values, const Figure& figure);

} // namespace evx
