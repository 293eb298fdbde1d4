#pragma once
// ExportDialog: where to export the figure and at what size — the window's pixels, a
// journal column (89 or 183 mm), a 16:9 slide, or any width and height in millimetres, with
// the text size in points and, for PNG, the resolution. The same presets, defaults and checks
// as the command line (--figure-size, --width-mm, --height-mm, --font-pt, --dpi); the
// choices are remembered in QSettings.

#include "core/figure.h"
#include "plot/print_size.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace evx {

class ExportDialog : public QDialog {
    Q_OBJECT

public:
    // windowPixels and windowFontPt: what "as on screen" exports.
    ExportDialog(const QString& scenarioId, const Figure& figure, QSize windowPixels, double windowFontPt,
                 QWidget* parent = nullptr);

    QString path() const;
    void setPath(const QString& path);
    // The size chosen; meaningful while isValid().
    PrintSize printSize() const { return m_size; }
    bool isValid() const { return m_valid; }
    QString problem() const { return m_problem; } // why it is not valid, "" if it is

    QComboBox* sizeChoice() const { return m_choice; }
    QDoubleSpinBox* widthEdit() const { return m_width; }
    QDoubleSpinBox* heightEdit() const { return m_height; }
    QDoubleSpinBox* fontEdit() const { return m_font; }
    QDoubleSpinBox* dpiEdit() const { return m_dpi; }

    void accept() override; // remembers the choices

private:
    void choiceChanged();
    void update();
    void browse();

    const Figure& m_figure;
    QSize m_windowPixels;
    double m_windowFontPt;
    QLineEdit* m_path = nullptr;
    QComboBox* m_choice = nullptr;
    QDoubleSpinBox* m_width = nullptr;
    QDoubleSpinBox* m_height = nullptr;
    QDoubleSpinBox* m_font = nullptr;
    QDoubleSpinBox* m_dpi = nullptr;
    QLabel* m_summary = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    PrintSize m_size;
    bool m_valid = false;
    QString m_problem;
};

} // namespace evx
