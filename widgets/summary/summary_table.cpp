#include "summary/summary_table.h"

#include "plot/rich_text.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLocale>
#include <QPainter>
#include <QStyledItemDelegate>

#include <cmath>
#include <set>

namespace evx {
namespace {

constexpr int kKeyRole = Qt::UserRole;

const QColor kYes(0x2e, 0x7d, 0x32);
const QColor kNo(0xc6, 0x28, 0x28);
const QColor kWarning(0xb3, 0x5c, 0x00);

bool isConsistencyKey(const QString& key)
{
    return key.endsWith(QLatin1String(".consistent"));
}

// A Quantity whose name has scripts ("MI(x; μ_z)") drawn with them, as the plots draw their
// labels; the item keeps the markup, which is what Copy puts on the clipboard. Warning rows
// (no key) are sentences that may name parameters such as sigma_obs: drawn as written.
class RichNameDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const QString text = index.data(Qt::DisplayRole).toString();
        if (!index.data(kKeyRole).isValid() || !hasRichScripts(text)) {
            QStyledItemDelegate::paint(painter, option, index);
            return;
        }
        QStyleOptionViewItem o(option);
        initStyleOption(&o, index);
        o.text.clear(); // background, selection and focus as usual; the text below
        const QWidget* view = o.widget;
        QStyle* style = view ? view->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &o, painter, view);
        const QRect area = style->subElementRect(QStyle::SE_ItemViewItemText, &o, view);
        const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
        const QSizeF size = richTextSize(text, o.font);
        const bool selected = o.state & QStyle::State_Selected;
        painter->save();
        painter->setClipRect(area);
        drawRichText(painter,
                     QRectF(area.left() + margin, area.center().y() + 0.5 - size.height() / 2, size.width(),
                            size.height()),
                     text, o.font, o.palette.color(selected ? QPalette::HighlightedText : QPalette::Text),
                     Qt::AlignLeft);
        painter->restore();
    }
};

} // namespace

SummaryTable::SummaryTable(QWidget* parent) : QTableWidget(0, 2, parent)
{
    setItemDelegateForColumn(0, new RichNameDelegate(this));
    setHorizontalHeaderLabels({tr("Quantity"), tr("Value")});
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    horizontalHeaderItem(1)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setShowGrid(false);
    // Tab leaves the table (arrows move within it): a table that keeps Tab traps a keyboard
    // user, who then never reaches the controls after it.
    setTabKeyNavigation(false);
    setAccessibleName(tr("Summary"));

    auto* copy = new QAction(tr("Copy"), this);
    copy->setShortcut(QKeySequence::Copy);
    // Only while the table has focus, so it never clashes with another widget's Copy.
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &SummaryTable::copySelection);
    auto* copyAllAction = new QAction(tr("Copy all"), this);
    connect(copyAllAction, &QAction::triggered, this, &SummaryTable::copyAll);
    addAction(copy);
    addAction(copyAllAction);
    setContextMenuPolicy(Qt::ActionsContextMenu);
}

void SummaryTable::setUnits(const ParameterSchema& schema, const std::vector<SummaryUnit>& hints)
{
    m_schema = schema;
    m_unitHints = hints;
}

QString SummaryTable::formatValue(const QString& key, double value)
{
    const QString text = QString::fromStdString(formatSummaryNumber(value));
    if (isConsistencyKey(key))
        return (value != 0 && !std::isnan(value) ? tr("yes") : tr("no")) + " (" + text + ')';
    return text;
}

void SummaryTable::setSummary(const Summary& summary, const std::vector<std::string>& warnings)
{
    clearSpans();
    setRowCount(0); // drops the previous items, which setRowCount(n) alone would keep
    const std::vector<SummaryRow> rows = presentSummary(summary, &m_schema, m_unitHints);
    setRowCount(int(rows.size() + warnings.size()));
    int row = 0;
    for (const SummaryRow& r : rows) {
        const QString qkey = QString::fromStdString(r.key);
        const double value = r.value;
        QString label = QString::fromStdString(r.name);
        if (!r.unit.empty())
            label += " (" + QString::fromStdString(r.unit) + ')';
        auto* name = new QTableWidgetItem(label);
        name->setData(kKeyRole, qkey);
        name->setToolTip(qkey); // the stable key, as in the JSON and CSV exports
        auto* shown = new QTableWidgetItem(isConsistencyKey(qkey) ? formatValue(qkey, value)
                                                                  : QString::fromStdString(r.text));
        shown->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        shown->setToolTip(QString::number(r.raw, 'g', 17)); // as computed, before rounding
        if (isConsistencyKey(qkey))
            shown->setForeground(value != 0 && !std::isnan(value) ? kYes : kNo);
        setItem(row, 0, name);
        setItem(row, 1, shown);
        ++row;
    }
    for (const auto& warning : warnings) {
        auto* item = new QTableWidgetItem(QStringLiteral("⚠ ") + QString::fromStdString(warning));
        item->setForeground(kWarning);
        item->setToolTip(QString::fromStdString(warning));
        setItem(row, 0, item);
        setSpan(row, 0, 1, 2);
        ++row;
    }
}

QString SummaryTable::textOf(const QString& key, int column) const
{
    for (int r = 0; r < rowCount(); ++r) {
        const QTableWidgetItem* name = item(r, 0);
        if (name && name->data(kKeyRole).toString() == key && item(r, column))
            return item(r, column)->text();
    }
    return {};
}

QString SummaryTable::valueText(const QString& key) const
{
    return textOf(key, 1);
}

QString SummaryTable::nameText(const QString& key) const
{
    return textOf(key, 0);
}

QString SummaryTable::rowsAsText(const QList<int>& rows, const QList<int>& columns) const
{
    QStringList lines;
    for (int r : rows) {
        QStringList cells;
        for (int c : columns) {
            // A warning spans both columns; it is one cell, not a cell and an empty one.
            if (c > 0 && columnSpan(r, 0) > 1 && columns.contains(0))
                continue;
            const QTableWidgetItem* cell = item(r, c);
            cells << (cell ? cell->text() : QString());
        }
        lines << cells.join('\t');
    }
    return lines.join('\n');
}

void SummaryTable::copySelection() const
{
    std::set<int> rowSet;
    std::set<int> columnSet;
    const auto indexes = selectedIndexes();
    if (indexes.isEmpty())
        return;
    for (const QModelIndex& index : indexes) {
        rowSet.insert(index.row());
        columnSet.insert(index.column());
    }
    const QList<int> rows(rowSet.begin(), rowSet.end());
    const QList<int> columns(columnSet.begin(), columnSet.end());
    QGuiApplication::clipboard()->setText(rowsAsText(rows, columns));
}

void SummaryTable::copyAll() const
{
    QList<int> rows;
    for (int r = 0; r < rowCount(); ++r)
        rows << r;
    const QString header = horizontalHeaderItem(0)->text() + '\t' + horizontalHeaderItem(1)->text();
    const QString body = rowsAsText(rows, {0, 1});
    QGuiApplication::clipboard()->setText(body.isEmpty() ? header : header + '\n' + body);
}

void SummaryTable::keyPressEvent(QKeyEvent* event)
{
    // When no shortcut dispatch happens (e.g. the window is not active), QAbstractItemView
    // would copy only the current cell.
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        event->accept();
        return;
    }
    QTableWidget::keyPressEvent(event);
}

} // namespace evx
