// The JSON export carries each series' look (issue 40 §4): colour as #rrggbb, dash and marker,
// the same the view draws, so a figure re-plotted elsewhere keeps it and its palette can be
// checked from the file alone.

#include "colour_vision.h"

#include "figure_serialiser.h"
#include "plot/series_style.h"
#include "scenarios/registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QtTest>

using namespace evx;
using namespace evx::testing;

class TestFigureLookJson : public QObject {
    Q_OBJECT
private slots:
    void everySeriesCarriesItsLook_data()
    {
        QTest::addColumn<QString>("scenario");
        for (const char* id : {"ue-gaussian", "bq-1d", "ue-discrete", "bnn-identifiability"})
            QTest::newRow(id) << QString(id);
    }
    void everySeriesCarriesItsLook()
    {
        QFETCH(QString, scenario);
        const auto s = ScenarioRegistry::instance().find(scenario.toStdString());
        const ParameterValues values = s->schema().defaults();
        const Figure figure = s->run(values, {});
        const QJsonObject root =
            QJsonDocument::fromJson(figureToJson(scenario, s->schema(), values, figure)).object();
        const QJsonArray plots = root["plots"].toArray();
        QCOMPARE(plots.size(), qsizetype(figure.plots.size()));
        const QRegularExpression hex("^#[0-9a-f]{6}$");
        const QStringList dashes{"solid", "dash"};
        const QStringList markers{"none",    "circle", "square",        "triangle",
                                  "diamond", "cross",  "triangle-down", "plus"};
        for (qsizetype i = 0; i < plots.size(); ++i) {
            const Plot& plot = figure.plots[std::size_t(i)];
            const PlotLook look = plotLook(plot);
            const QJsonArray series = plots[i].toObject()["series"].toArray();
            QCOMPARE(series.size(), qsizetype(plot.series.size()));
            for (qsizetype j = 0; j < series.size(); ++j) {
                const QJsonObject o = series[j].toObject();
                const SeriesLook& l = look.series[std::size_t(j)];
                const QString where = QString("plot %1 series \"%2\"").arg(i).arg(o["name"].toString());
                QVERIFY2(hex.match(o["colour"].toString()).hasMatch(),
                         qPrintable(where + ": colour " + o["colour"].toString()));
                QVERIFY2(dashes.contains(o["dash"].toString()),
                         qPrintable(where + ": dash " + o["dash"].toString()));
                QVERIFY2(markers.contains(o["marker"].toString()),
                         qPrintable(where + ": marker " + o["marker"].toString()));
                QCOMPARE(QColor(o["colour"].toString()), l.colour);
                QCOMPARE(o["dash"].toString(), dashName(l.dash));
                QCOMPARE(o["marker"].toString(), markerName(l.marker));
                // The engine's hint, readable from the file.
                QCOMPARE(o["dash"].toString() == "dash", plot.series[std::size_t(j)].dashed);
            }
            const QJsonArray bands = plots[i].toObject()["bands"].toArray();
            for (qsizetype j = 0; j < bands.size(); ++j)
                QCOMPARE(QColor(bands[j].toObject()["colour"].toString()), look.bands[std::size_t(j)]);
        }
    }

    // What the file makes possible: the palette check from the JSON alone, for ue-gaussian's
    // three readings (orange, blue, bluish green) under the three dichromacies.
    void paletteCheckedFromTheFile()
    {
        const auto s = ScenarioRegistry::instance().find("ue-gaussian");
        const ParameterValues values = s->schema().defaults();
        const QJsonObject root =
            QJsonDocument::fromJson(figureToJson("ue-gaussian", s->schema(), values, s->run(values, {})))
                .object();
        const QJsonArray series = root["plots"].toArray()[0].toObject()["series"].toArray();
        QStringList colours;
        for (const QJsonValue& v : series)
            if (!colours.contains(v.toObject()["colour"].toString()))
                colours << v.toObject()["colour"].toString();
        QCOMPARE(colours, (QStringList{"#000000", "#e69f00", "#0072b2", "#009e73"}));
        for (Vision v : {Vision::Normal, Vision::Protanopia, Vision::Deuteranopia, Vision::Tritanopia})
            for (qsizetype a = 0; a < colours.size(); ++a)
                for (qsizetype b = a + 1; b < colours.size(); ++b) {
                    const double d = differenceSeenBy(QColor(colours[a]), QColor(colours[b]), v);
                    QVERIFY2(d >= 10, qPrintable(QString("%1 and %2, %3: ΔE00 %4")
                                                     .arg(colours[a], colours[b], visionName(v))
                                                     .arg(d)));
                }
    }
};

QTEST_MAIN(TestFigureLookJson)
#include "test_figure_look_json.moc"
