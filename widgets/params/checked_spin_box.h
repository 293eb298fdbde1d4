#pragma once
// CheckedSpinBox: a QSpinBox / QDoubleSpinBox that lets any text be typed and, when the text
// is committed (Enter, focus out, or a step), hands text the base spin box would not accept
// (out of range, not a number, too many decimals) to a handler instead of silently
// clamping it or dropping the keystrokes. The handler decides and explains; afterwards the
// box shows its last accepted value again.

#include <QDoubleSpinBox>
#include <QFocusEvent>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSpinBox>

#include <functional>
#include <utility>

namespace evx {

template <class Base> class CheckedSpinBox : public Base {
public:
    using TextHandler = std::function<void(const QString& cleanText)>;

    explicit CheckedSpinBox(QWidget* parent = nullptr) : Base(parent) {}

    void setUnacceptableTextHandler(TextHandler handler) { m_handler = std::move(handler); }

    void stepBy(int steps) override
    {
        commitUnacceptableText();
        Base::stepBy(steps);
    }

protected:
    QValidator::State validate(QString& text, int& pos) const override
    {
        // Intermediate instead of Invalid: the keystroke stays visible, so the refusal on
        // commit can say what was wrong with it.
        return Base::validate(text, pos) == QValidator::Acceptable ? QValidator::Acceptable
                                                                   : QValidator::Intermediate;
    }

    void keyPressEvent(QKeyEvent* event) override
    {
        if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter)
            commitUnacceptableText();
        Base::keyPressEvent(event);
    }

    void focusOutEvent(QFocusEvent* event) override
    {
        commitUnacceptableText();
        Base::focusOutEvent(event);
    }

private:
    void commitUnacceptableText()
    {
        QString text = this->lineEdit()->text();
        int pos = 0;
        if (Base::validate(text, pos) == QValidator::Acceptable)
            return;
        const QString typed = this->cleanText();
        // Restore first: the handler may set a new value, which must not be overwritten.
        Base::setValue(Base::value());
        if (m_handler)
            m_handler(typed);
    }

    TextHandler m_handler;
};

using CheckedDoubleSpinBox = CheckedSpinBox<QDoubleSpinBox>;
using CheckedIntSpinBox = CheckedSpinBox<QSpinBox>;

} // namespace evx
