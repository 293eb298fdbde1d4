#pragma once
// The lesson dock: the lesson's title, "Step k of n", the step's caption (links in it set
// values) and Back / Next buttons. It only shows and asks; MainWindow applies the steps.

#include <QUrl>
#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace evx {

class LessonPanel : public QWidget {
    Q_OBJECT

public:
    explicit LessonPanel(QWidget* parent = nullptr);

    // step counts from 0; the caption is Qt rich text (captionHtml).
    void showStep(const QString& title, int step, int steps, const QString& captionHtml);
    QString stepText() const;    // "Step 2 of 7"
    QString captionText() const; // the caption as plain text
    QTextBrowser* captionView() const { return m_caption; }
    QPushButton* backButton() const { return m_back; }
    QPushButton* nextButton() const { return m_next; }

signals:
    void backRequested();
    void nextRequested();
    void closeRequested();
    void linkActivated(const QUrl& url);

private:
    QLabel* m_title = nullptr;
    QLabel* m_step = nullptr;
    QTextBrowser* m_caption = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
};

} // namespace evx
