#include "reading_guide_dialog.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include <algorithm>

namespace {

struct Answer {
    const char* reading; // the `emphasis` choice name
    const char* text;    // the radio button
    const char* why;     // one sentence under it
    const char* verdict; // shown once chosen
};

// The order follows the paper's types I, III, II; the ids are the indices.
const Answer kAnswers[] = {
    {"jeffrey", "A distribution of y that outside evidence gives me",
     "Information not in the model (another instrument, an expert, a previous analysis) says how y is "
     "distributed; that distribution replaces the model's own p(y) (type I).",
     "Use Jeffrey's rule: an expected posterior ∫ p(x | y) q(y | ζ) dy."},
    {"virtual", "How likely my noisy reading is for each value of y",
     "The number is a measurement of y with an error: q(ζ | y) is a likelihood of y, to be multiplied "
     "into the model like any observation (type III).",
     "Use virtual evidence: p(x | ζ) ∝ p(x) ∫ p(y | x) q(ζ | y) dy."},
    {"distributional", "How y itself varies for the one true value of the latent",
     "Repeated exact observations of y scatter because y varies given x; the spread belongs to y | x, "
     "not to the measurement (type II).",
     "Use distributional evidence: p(x) exp(∫ ln p(y | x) q(y) dy) / Z(x)."},
};

} // namespace

ReadingGuideDialog::ReadingGuideDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Which reading applies?"));
    setMinimumWidth(560);
    auto* layout = new QVBoxLayout(this);
    auto* question = new QLabel(tr("<b>The uncertainty in your evidence about y describes…</b>"));
    question->setWordWrap(true);
    layout->addWidget(question);

    m_answers = new QButtonGroup(this);
    for (int i = 0; i < int(std::size(kAnswers)); ++i) {
        auto* button = new QRadioButton(tr(kAnswers[i].text));
        button->setObjectName(QString::fromLatin1(kAnswers[i].reading));
        m_answers->addButton(button, i);
        layout->addWidget(button);
        auto* why = new QLabel(tr(kAnswers[i].why));
        why->setWordWrap(true);
        why->setContentsMargins(24, 0, 0, 8);
        why->setObjectName(QString::fromLatin1(kAnswers[i].reading) + QStringLiteral("Why"));
        layout->addWidget(why);
    }

    m_recommendation = new QLabel;
    m_recommendation->setTextFormat(Qt::RichText);
    m_recommendation->setObjectName(QStringLiteral("recommendation"));
    m_recommendation->setWordWrap(true);
    layout->addWidget(m_recommendation);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_emphasise = buttons->addButton(tr("Emphasise this reading"), QDialogButtonBox::ActionRole);
    m_emphasise->setObjectName(QStringLiteral("emphasise"));
    layout->addWidget(buttons);

    connect(m_answers, &QButtonGroup::idToggled, this, [this](int, bool checked) {
        if (checked)
            updateRecommendation();
    });
    connect(m_emphasise, &QPushButton::clicked, this, [this] {
        const QString reading = recommendedReading();
        if (!reading.isEmpty())
            emit emphasisRequested(reading);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateRecommendation();
}

QString ReadingGuideDialog::recommendedReading() const
{
    const int id = m_answers->checkedId();
    return id < 0 ? QString() : QString::fromLatin1(kAnswers[id].reading);
}

void ReadingGuideDialog::updateRecommendation()
{
    const int id = m_answers->checkedId();
    m_emphasise->setEnabled(id >= 0);
    m_recommendation->setText(id < 0 ? tr("Choose the answer that fits your evidence.")
                                     : QStringLiteral("<b>%1</b>").arg(tr(kAnswers[id].verdict)));
    // The verdict's length changes: grow the dialog if it no longer fits (never shrink it).
    const QSize wanted = sizeHint();
    if (wanted.height() > height() || wanted.width() > width())
        resize(std::max(width(), wanted.width()), std::max(height(), wanted.height()));
}
