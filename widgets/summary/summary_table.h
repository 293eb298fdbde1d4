#pragma once
// SummaryTable: a Figure's summary (ordered name -> number) as a two-column table,
// "Quantity" | "Value". The Quantity column reads each key by core/summary_labels.h, e.g.
// "jeffrey.sd" → "Jeffrey's rule: sd (m/s²)", with the stable key as its tooltip; values show
// 6 significant digits, rounding noise as 0, NaN as "–" (same rules); keys ending in ".consistent"
// read "yes (1)" in green or "no (0)" in red; the figure's warnings follow as full-width
// rows in dark orange, prefixed with ⚠. Ctrl+C copies the selection and the context menu's
// "Copy all" the whole table, as tab-separated lines ready to paste into a spreadsheet.

#include "core/figure.h"
#include "core/summary_labels.h"

#include <QTableWidget>

#include <string>
#include <vector>

namespace evx {

class SummaryTable : public QTableWidget {
    Q_OBJECT

public:
    explicit SummaryTable(QWidget* parent = nullptr);

    // The scenario whose summaries follow: its parameters' units and its unit hints.
    void setUnits(const evx::ParameterSchema& schema, const std::vector<evx::SummaryUnit>& hints);

    void setSummary(const evx::Summary& summary, const std::vector<std::string>& warnings = {});

    // The text shown in the Value column for `key`, "" if there is no such row.
    QString valueText(const QString& key) const;

    // The Quantity column's text for `key`, "" if there is no such row.
    QString nameText(const QString& key) const;

    // How one value is shown on its own, e.g. 0.123456789 -> "0.123457" (setSummary also
    // snaps rounding noise to 0 against the other values of the same statistic).
    static QString formatValue(const QString& key, double value);

public slots:
    void copySelection() const;
    void copyAll() const; // with the header line

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QString rowsAsText(const QList<int>& rows, const QList<int>& columns) const;
    QString textOf(const QString& key, int column) const;

    evx::ParameterSchema m_schema;
    std::vector<evx::SummaryUnit> m_unitHints;
};

} // namespace evx
