#pragma once
// AnimationDialog (File → Export Animation…): sweep one numeric parameter of the current
// scenario from/to (its range by default) in a number of frames, at a frame rate, with a hold on
// the last frame and a loop; the format follows the file's suffix (.webp, .gif, or a folder
// ending in / for PNG frames). OK runs the export with a progress dialog whose Cancel stops it;
// the figures are computed on a worker thread, the frames drawn on the GUI thread.

#include "animation.h"

#include <QDialog>

#include <memory>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace evx {

class AnimationDialog : public QDialog {
    Q_OBJECT

public:
    // `input`: the window's state the sweep starts from; frames are `pixels` large with text of
    // `fontPt`, drawn with the window's theme and hidden series.
    AnimationDialog(std::shared_ptr<const Scenario> scenario, const RunInput& input, QSize pixels,
                    double fontPt, QWidget* parent = nullptr);

    QString path() const;
    void setPath(const QString& path);
    AnimationJob job() const;
    QString problem() const; // why OK is disabled, "" when it is not
    void setHighContrast(bool on) { m_highContrast = on; }
    void setHiddenSeries(const QStringList& keys) { m_hidden = keys; }

    QComboBox* parameterChoice() const { return m_parameter; }
    QDoubleSpinBox* fromEdit() const { return m_from; }
    QDoubleSpinBox* toEdit() const { return m_to; }
    QSpinBox* framesEdit() const { return m_frames; }
    QSpinBox* fpsEdit() const { return m_fps; }
    QSpinBox* holdEdit() const { return m_hold; }
    QCheckBox* loopBox() const { return m_loop; }

    // Writes the animation with a progress dialog (Cancel stops it); "" on success, else why
    // (kAnimationCancelled after Cancel). Tests call it without exec().
    QString exportNow();

    void accept() override; // exports; stays open with the reason if that fails

private:
    void parameterChanged();
    void update();
    void browse();

    std::shared_ptr<const Scenario> m_scenario;
    RunInput m_input;
    QSize m_pixels;
    double m_fontPt;
    bool m_highContrast = false;
    QStringList m_hidden;
    QLineEdit* m_path = nullptr;
    QComboBox* m_parameter = nullptr;
    QDoubleSpinBox* m_from = nullptr;
    QDoubleSpinBox* m_to = nullptr;
    QSpinBox* m_frames = nullptr;
    QSpinBox* m_fps = nullptr;
    QSpinBox* m_hold = nullptr;
    QCheckBox* m_loop = nullptr;
    QLabel* m_summary = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace evx
