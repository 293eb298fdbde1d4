#pragma once
// ParameterPanel: the form derived from a scenario's ParameterSchema (DESIGN.md, "declare
// once, derive everything"). One row per parameter:
//   Real     label | slider (1000 ticks, linear or log on [minimum, maximum]) | double spin box
//   Integer  label | slider (a tick per value for ranges up to 1000, else 1000 ticks) | spin box
//   Choice   label | combo box (the value is the index)
//   Boolean  label | check box (the value is 0 or 1)
// (or the label on a line of its own above the controls, setLabelsAbove)
// Linear ticks map t in [0, 1] to minimum + t (maximum - minimum); log ticks map it to
// minimum (maximum / minimum)^t (only when minimum > 0; otherwise linear).
// Every edit, by the user or through setValue(), goes through ParameterSchema::check: a bad
// value is refused, the reason appears in red under its row, and the last accepted value stays.

#include "core/parameters.h"

#include <QString>
#include <QWidget>

#include <vector>

class QHBoxLayout;
class QLabel;
class QSlider;
class QVBoxLayout;

namespace evx {

class ParameterPanel : public QWidget {
    Q_OBJECT

public:
    explicit ParameterPanel(QWidget* parent = nullptr);
    ~ParameterPanel() override;

    // Rebuilds the form for a scenario's schema, showing `values` over the defaults; emits
    // nothing. A value the schema refuses is replaced by the default and its reason shown.
    void setSchema(const evx::ParameterSchema& schema, const evx::ParameterValues& values);
    const evx::ParameterSchema& schema() const { return m_schema; }

    evx::ParameterValues values() const { return m_values; }

    // Applies every acceptable value (e.g. a preset) and emits valuesChanged once if anything
    // changed; each refused one emits valueRejected and shows its reason.
    void setValues(const evx::ParameterValues& values);

    // A programmatic single edit through the same checks as the user's.
    bool setValue(const QString& name, double value);

    // The reason most recently shown, "" once a change has been accepted since.
    QString rejectionMessage() const { return m_rejection; }

    QSlider* slider(const QString& name) const; // nullptr for choice and boolean parameters
    QWidget* editor(const QString& name) const; // spin box, combo box or check box
    QLabel* rejectionLabel(const QString& name) const;
    bool isDragging() const { return m_dragging; } // a slider is held down

    QSize minimumSizeHint() const override;

    // Labels above their controls, word-wrapped, instead of beside them: the form's width is
    // then that of its widest control, not of its longest label plus its controls (a narrow
    // dock, large presentation text). Kept across setSchema.
    void setLabelsAbove(bool above);
    bool labelsAbove() const { return m_labelsAbove; }
    // The form's least width with the labels beside their controls, whichever is in use.
    int besideWidth() const;

signals:
    // Every accepted change, including each slider step while dragging.
    void valuesChanged(const evx::ParameterValues& values);
    void valueRejected(const QString& name, const QString& reason);
    // A slider is pressed (true) or released (false): the view holds its axes in between.
    void sliderHeld(bool held);

private:
    struct Row {
        ParameterSpec spec;
        QString name;
        QLabel* label = nullptr;
        QSlider* slider = nullptr;
        QWidget* editor = nullptr;
        QLabel* message = nullptr;
        QHBoxLayout* controls = nullptr; // the controls' line under a label above them
    };

    void buildRow(int index);
    void placeRow(int index); // in the grid, beside or below its label (m_labelsAbove)
    int rowIndex(const QString& name) const;
    bool accept(int index, double value, const QWidget* source);
    bool store(int index, double value);
    void handleTypedText(int index, const QString& text);
    void showValue(int index, const QWidget* source);
    void showRejection(int index, const QString& name, const QString& reason, bool notify = true);
    void clearRejection();
    void setDragging(bool dragging);

    ParameterSchema m_schema;
    ParameterValues m_values;
    std::vector<Row> m_rows;
    QString m_rejection;
    QVBoxLayout* m_layout = nullptr;
    QWidget* m_form = nullptr;
    bool m_ignoreEdits = false;
    bool m_dragging = false;
    bool m_labelsAbove = false;
};

} // namespace evx
