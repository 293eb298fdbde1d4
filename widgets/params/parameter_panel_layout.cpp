// Where a parameter row's label and controls sit: beside each other in a three-column grid,
// or the label on its own wrapped line above them when the dock is too narrow for beside.
#include "params/parameter_panel.h"

#include "plot/rich_text.h"

#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>

namespace evx {

void ParameterPanel::placeRow(int index)
{
    Row& row = m_rows[std::size_t(index)];
    auto* grid = static_cast<QGridLayout*>(m_form->layout());
    for (QWidget* w : {static_cast<QWidget*>(row.label), static_cast<QWidget*>(row.slider), row.editor,
                       static_cast<QWidget*>(row.message)})
        if (w) {
            grid->removeWidget(w);
            if (row.controls)
                row.controls->removeWidget(w);
        }
    if (row.controls) {
        grid->removeItem(row.controls);
        delete row.controls; // not the widgets it held
        row.controls = nullptr;
    }
    const int gridRow = 3 * index;
    row.label->setWordWrap(m_labelsAbove);
    if (m_labelsAbove) {
        // The label over the whole width, the controls in one box on the next line, the reason
        // under them: every item in one cell of column 0, so that the wrapped label gets the
        // height its lines need (a grid does not give that to an item spanning columns).
        grid->addWidget(row.label, gridRow, 0);
        row.controls = new QHBoxLayout;
        row.controls->setSpacing(grid->horizontalSpacing());
        if (row.slider) {
            row.controls->addWidget(row.slider, 1);
            row.controls->addWidget(row.editor);
        } else if (row.spec.kind == ParameterKind::Boolean) {
            row.controls->addWidget(row.editor);
            row.controls->addStretch(1);
        } else {
            row.controls->addWidget(row.editor, 1);
        }
        grid->addLayout(row.controls, gridRow + 1, 0);
        grid->addWidget(row.message, gridRow + 2, 0);
        return;
    }
    // Beside: label | slider | editor, the reason under the controls.
    grid->addWidget(row.label, gridRow, 0, Qt::AlignLeft | Qt::AlignVCenter);
    if (row.slider) {
        grid->addWidget(row.slider, gridRow, 1);
        grid->addWidget(row.editor, gridRow, 2);
    } else if (row.spec.kind == ParameterKind::Boolean) {
        // Left-aligned at its own size: a click beside the box would do nothing.
        grid->addWidget(row.editor, gridRow, 1, 1, 2, Qt::AlignLeft);
    } else {
        grid->addWidget(row.editor, gridRow, 1, 1, 2);
    }
    grid->addWidget(row.message, gridRow + 1, 1, 1, 2);
}

void ParameterPanel::setLabelsAbove(bool above)
{
    if (above == m_labelsAbove)
        return;
    m_labelsAbove = above;
    if (!m_form)
        return;
    auto* grid = static_cast<QGridLayout*>(m_form->layout());
    // Above, column 0 holds everything; beside, the sliders' column takes the spare width.
    grid->setColumnStretch(0, above ? 1 : 0);
    grid->setColumnStretch(1, above ? 0 : 1);
    for (int i = 0; i < int(m_rows.size()); ++i)
        placeRow(i);
    grid->invalidate();
    m_form->updateGeometry(); // the panel's cached least size is the old form's
    m_layout->invalidate();
    updateGeometry();
}

int ParameterPanel::besideWidth() const
{
    // The widest label, the controls' least width and the gaps, as the grid lays them beside.
    int label = 0, controls = 0;
    const auto* grid = m_form ? static_cast<const QGridLayout*>(m_form->layout()) : nullptr;
    const int gap = grid ? grid->horizontalSpacing() : 8;
    for (const Row& row : m_rows) {
        const QFontMetrics metrics(row.label->font());
        const QString text = row.label->textFormat() == Qt::RichText
                                 ? richLabelPlainText(QString::fromStdString(row.spec.label))
                                 : row.label->text();
        label = std::max(label, metrics.horizontalAdvance(text) + 2);
        const int editor = row.editor->minimumSizeHint().width();
        controls = std::max(controls, row.slider ? row.slider->minimumWidth() + gap + editor : editor);
    }
    const QMargins m = m_layout->contentsMargins();
    return std::max(300, label + gap + controls + m.left() + m.right());
}

} // namespace evx
