#pragma once
// "Which reading applies?" (uncertain-evidence paper, Sec. 3.1): one question about what the
// uncertainty in the evidence describes, three answers, and the reading each one calls for:
//   a distribution of y from outside evidence ζ   → Jeffrey's rule          (type I)
//   the distribution of y given the latent x      → distributional evidence (type II)
//   a likelihood of y: a noisy reading ζ of y     → virtual evidence        (type III)
// "Emphasise this reading" emits emphasisRequested, which the main window turns into the
// scenario's `emphasis` parameter.

#include <QDialog>
#include <QString>

class QButtonGroup;
class QLabel;
class QPushButton;

class ReadingGuideDialog : public QDialog {
    Q_OBJECT

public:
    explicit ReadingGuideDialog(QWidget* parent = nullptr);

    // "jeffrey", "virtual" or "distributional"; "" until an answer is chosen.
    QString recommendedReading() const;

signals:
    void emphasisRequested(const QString& reading);

private:
    void updateRecommendation();

    QButtonGroup* m_answers = nullptr;
    QLabel* m_recommendation = nullptr;
    QPushButton* m_emphasise = nullptr;
};
