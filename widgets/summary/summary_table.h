#pragma once
// SummaryTable: a Figure's summary (ordered name -> number) as a two-column table,
// "Quantity" | "Value". Values show 6 significant digits; keys ending in ".consistent"
// read "yes (1)" in green or "no (0)" in red; the figure's warnings follow as full-width
// rows in dark orange, prefixed with ⚠. Ctrl+C copies the selection and the context menu's
// "Copy all" the whole table, as tab-separated lines ready to paste into a spreadsheet.

#include "core/figure.h"

#include <QTableWidget>

#include <string>
#include <vector>

namespace evx {

class SummaryTable : public QTableWidget {
    Q_OBJECT

public:
    explicit SummaryTable(QWidget* parent = nullptr);

    void setSummary(const evx::Summary& summary, const std::vector<std::string>& warnings = {});

    // The text shown in the Value column for `key`, "" if there is no such row.
    QString valueText(const QString& key) const;

    // How one value is shown, e.g. 0.123456789 -> "0.123457".
    static QString formatValue(const QString& key, double value);

public slots:
    void copySelection() const;
    void copyAll() const;  // with the header line

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QString rowsAsText(const QList<int>& rows, const QList<int>& columns) const;
};

}  // namespace evx
