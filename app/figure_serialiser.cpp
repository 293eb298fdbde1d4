#include "figure_serialiser.h"

#include "plot/series_style.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>
#include <map>

namespace evx {
namespace {

// JSON has no NaN; a gap in a line (NaN) becomes null.
QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

QJsonArray numbers(const std::vector<double>& v)
{
    QJsonArray a;
    for (double x : v)
        a.append(number(x));
    return a;
}

QString kindName(SeriesKind kind)
{
    switch (kind) {
    case SeriesKind::Line:
        return "line";
    case SeriesKind::Step:
        return "step";
    case SeriesKind::Scatter:
        return "scatter";
    case SeriesKind::Bar:
        return "bar";
    }
    return "line";
}

QJsonObject plotToJson(const Plot& plot)
{
    // The look the view draws (series_style.h), so a figure re-plotted elsewhere keeps it and
    // its palette can be checked from the file.
    const PlotLook look = plotLook(plot);
    QJsonArray series;
    for (std::size_t j = 0; j < plot.series.size(); ++j) {
        const Series& s = plot.series[j];
        const SeriesLook& l = look.series[j];
        series.append(QJsonObject{{"name", QString::fromStdString(s.name)},
                                  {"kind", kindName(s.kind)},
                                  {"colour", l.colour.name(QColor::HexRgb)},
                                  {"dash", dashName(l.dash)},
                                  {"marker", markerName(l.marker)},
                                  {"x", numbers(s.x)},
                                  {"y", numbers(s.y)}});
    }
    QJsonArray bands;
    for (std::size_t j = 0; j < plot.bands.size(); ++j)
        bands.append(QJsonObject{{"name", QString::fromStdString(plot.bands[j].name)},
                                 {"colour", look.bands[j].name(QColor::HexRgb)},
                                 {"x", numbers(plot.bands[j].x)},
                                 {"lower", numbers(plot.bands[j].lower)},
                                 {"upper", numbers(plot.bands[j].upper)}});
    QJsonArray markers;
    for (const Marker& m : plot.markers)
        markers.append(QJsonObject{{"name", QString::fromStdString(m.name)}, {"x", number(m.x)}});
    QJsonArray heatMaps;
    for (const HeatMap& h : plot.heatMaps)
        heatMaps.append(QJsonObject{{"name", QString::fromStdString(h.name)},
                                    {"x_range", QJsonArray{h.xMin, h.xMax}},
                                    {"y_range", QJsonArray{h.yMin, h.yMax}},
                                    {"nx", h.nx},
                                    {"ny", h.ny},
                                    {"values", numbers(h.values)}});
    QJsonObject o{{"title", QString::fromStdString(plot.title)},
                  {"x_label", QString::fromStdString(plot.xLabel)},
                  {"y_label", QString::fromStdString(plot.yLabel)},
                  {"series", series},
                  {"bands", bands}};
    if (!markers.isEmpty())
        o["markers"] = markers;
    if (!heatMaps.isEmpty())
        o["heat_maps"] = heatMaps;
    if (plot.logY)
        o["log_y"] = true;
    if (plot.row >= 0 && plot.column >= 0)
        o["grid_cell"] = QJsonArray{plot.row, plot.column}; // [row, column] in the view's grid
    return o;
}

QString csvField(const std::string& text)
{
    QString s = QString::fromStdString(text);
    if (s.contains(',') || s.contains('"') || s.contains('\n'))
        s = '"' + s.replace('"', "\"\"") + '"';
    return s;
}

QString csvNumber(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 17) : QString();
}

} // namespace

QJsonObject parametersToJson(const ParameterSchema& schema, const ParameterValues& values)
{
    QJsonObject o;
    for (const ParameterSpec& spec : schema.specs()) {
        const auto it = values.find(spec.name);
        if (it == values.end())
            continue;
        const QString name = QString::fromStdString(spec.name);
        switch (spec.kind) {
        case ParameterKind::Choice:
            o[name] = QString::fromStdString(schema.format(spec.name, it->second));
            break;
        case ParameterKind::Boolean:
            o[name] = it->second != 0;
            break;
        default:
            o[name] = it->second;
        }
    }
    return o;
}

QByteArray figureToJson(const QString& scenarioId, const ParameterSchema& schema,
                        const ParameterValues& values, const Figure& figure, const QString& caption)
{
    QJsonObject summary;
    for (const auto& [key, value] : figure.summary.entries())
        summary[QString::fromStdString(key)] = number(value);
    QJsonArray plots;
    for (const Plot& p : figure.plots)
        plots.append(plotToJson(p));
    QJsonArray warnings;
    for (const std::string& w : figure.warnings)
        warnings.append(QString::fromStdString(w));
    QJsonObject root{{"scenario", scenarioId},
                     {"parameters", parametersToJson(schema, values)},
                     {"summary", summary},
                     {"plots", plots},
                     {"warnings", warnings}};
    if (!caption.isEmpty())
        root["caption"] = caption;
    if (!figure.tables.empty()) {
        // The figure's tables as they are shown: a title, column names and rows of text.
        QJsonArray tables;
        for (const Table& t : figure.tables) {
            QJsonArray columns, rows;
            for (const std::string& c : t.columns)
                columns.append(QString::fromStdString(c));
            for (const auto& row : t.rows) {
                QJsonArray cells;
                for (const std::string& cell : row)
                    cells.append(QString::fromStdString(cell));
                rows.append(cells);
            }
            tables.append(QJsonObject{
                {"title", QString::fromStdString(t.title)}, {"columns", columns}, {"rows", rows}});
        }
        root["tables"] = tables;
    }
    // "x" → data.x; "latent.mu" → latent.mu (Figure::data).
    std::map<QString, QJsonObject> groups;
    for (const auto& [name, values] : figure.data) {
        const QString key = QString::fromStdString(name);
        const qsizetype dot = key.indexOf('.');
        if (dot > 0)
            groups[key.left(dot)][key.mid(dot + 1)] = numbers(values);
        else
            groups["data"][key] = numbers(values);
    }
    for (const auto& [name, rows] : figure.dataMatrices) {
        QJsonArray matrix;
        for (const std::vector<double>& row : rows)
            matrix.append(numbers(row));
        groups["data"][QString::fromStdString(name)] = matrix;
    }
    for (const auto& [group, columns] : groups)
        root[group] = columns;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QByteArray figureToCsv(const Figure& figure)
{
    QString out = "plot,element,name,x,y,lower,upper,value\n";
    for (const Plot& p : figure.plots) {
        const QString plot = csvField(p.title);
        for (const Series& s : p.series)
            for (size_t i = 0; i < s.x.size(); ++i)
                out += QString("%1,series,%2,%3,%4,,,\n")
                           .arg(plot, csvField(s.name), csvNumber(s.x[i]), csvNumber(s.y[i]));
        for (const Band& b : p.bands)
            for (size_t i = 0; i < b.x.size(); ++i)
                out += QString("%1,band,%2,%3,,%4,%5,\n")
                           .arg(plot, csvField(b.name), csvNumber(b.x[i]), csvNumber(b.lower[i]),
                                csvNumber(b.upper[i]));
        for (const Marker& m : p.markers)
            out += QString("%1,marker,%2,%3,,,,\n").arg(plot, csvField(m.name), csvNumber(m.x));
        for (const HeatMap& h : p.heatMaps)
            for (int iy = 0; iy < h.ny; ++iy)
                for (int ix = 0; ix < h.nx; ++ix) {
                    const double x = h.nx > 1 ? h.xMin + (h.xMax - h.xMin) * ix / (h.nx - 1) : h.xMin;
                    const double y = h.ny > 1 ? h.yMin + (h.yMax - h.yMin) * iy / (h.ny - 1) : h.yMin;
                    out += QString("%1,heat_map,%2,%3,%4,,,%5\n")
                               .arg(plot, csvField(h.name), csvNumber(x), csvNumber(y),
                                    csvNumber(h.values[size_t(iy) * h.nx + ix]));
                }
    }
    for (const auto& [key, value] : figure.summary.entries())
        out += QString("summary,summary,%1,,,,,%2\n").arg(csvField(key), csvNumber(value));
    return out.toUtf8();
}

namespace {

QString markdownCell(const std::string& text)
{
    return QString::fromStdString(text).replace('|', "\\|").replace('\n', ' ');
}

} // namespace

QByteArray figureToMarkdown(const QString& scenarioId, const ParameterSchema& schema,
                            const ParameterValues& values, const Figure& figure)
{
    QString out = QString("# %1\n\n## Parameters\n\n| parameter | value |\n|---|---|\n").arg(scenarioId);
    for (const ParameterSpec& spec : schema.specs())
        if (const auto it = values.find(spec.name); it != values.end())
            out += QString("| %1 | %2 |\n")
                       .arg(markdownCell(spec.name), markdownCell(schema.format(spec.name, it->second)));
    out += "\n## Summary\n\n| quantity | value |\n|---|---|\n";
    for (const auto& [key, value] : figure.summary.entries())
        out += QString("| %1 | %2 |\n").arg(markdownCell(key), csvNumber(value));
    if (!figure.warnings.empty()) {
        out += "\n## Warnings\n\n";
        for (const std::string& w : figure.warnings)
            out += "- " + markdownCell(w) + "\n";
    }
    for (const Table& t : figure.tables) {
        out += "\n## " + markdownCell(t.title) + "\n\n|";
        for (const std::string& c : t.columns)
            out += " " + markdownCell(c) + " |";
        out += "\n|" + QString("---|").repeated(int(t.columns.size())) + "\n";
        for (const auto& row : t.rows) {
            out += "|";
            for (const std::string& cell : row)
                out += " " + markdownCell(cell) + " |";
            out += "\n";
        }
    }
    return out.toUtf8();
}

} // namespace evx
