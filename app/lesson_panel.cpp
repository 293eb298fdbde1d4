#include "lesson_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace evx {

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel;
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_step = new QLabel;
    m_step->setAccessibleName(tr("Lesson step"));
    m_caption = new QTextBrowser;
    // Links set values (evx:set?…) or open pages; MainWindow decides, the browser never navigates.
    m_caption->setOpenLinks(false);
    m_caption->setAccessibleName(tr("Lesson caption"));
    connect(m_caption, &QTextBrowser::anchorClicked, this, &LessonPanel::linkActivated);
    m_back = new QPushButton(tr("← Back"));
    m_back->setToolTip(tr("The previous step (Page Up)"));
    m_back->setAccessibleName(tr("Previous lesson step"));
    m_next = new QPushButton(tr("Next →"));
    m_next->setToolTip(tr("The next step (Page Down)"));
    m_next->setAccessibleName(tr("Next lesson step"));
    m_next->setDefault(true);
    auto* close = new QPushButton(tr("Close Lesson"));
    close->setAccessibleName(tr("Close the lesson"));
    connect(m_back, &QPushButton::clicked, this, &LessonPanel::backRequested);
    connect(m_next, &QPushButton::clicked, this, &LessonPanel::nextRequested);
    connect(close, &QPushButton::clicked, this, &LessonPanel::closeRequested);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    buttons->addStretch(1);
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_title);
    layout->addWidget(m_step);
    layout->addWidget(m_caption, 1);
    layout->addLayout(buttons);
}

void LessonPanel::showStep(const QString& title, int step, int steps, const QString& captionHtml)
{
    m_title->setText(title);
    m_step->setText(tr("Step %1 of %2").arg(step + 1).arg(steps));
    m_caption->setHtml(captionHtml);
    m_back->setEnabled(step > 0);
    m_next->setEnabled(step + 1 < steps);
}

QString LessonPanel::stepText() const
{
    return m_step->text();
}

QString LessonPanel::captionText() const
{
    return m_caption->toPlainText();
}

} // namespace evx
