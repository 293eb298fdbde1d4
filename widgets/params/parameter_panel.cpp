#include "params/parameter_panel.h"

#include "params/checked_spin_box.h"
#include "plot/rich_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>
#include <exception>

namespace evx {
namespace {

constexpr int kFineTicks = 1000;

bool onLogScale(const ParameterSpec& s)
{
    return s.logScale && s.minimum > 0 && s.maximum > s.minimum;
}

int tickCount(const ParameterSpec& s)
{
    // Small integer ranges get one tick per value so that every value is reachable and
    // the slider never lands between two of them.
    if (s.kind == ParameterKind::Integer && !onLogScale(s) && s.maximum - s.minimum <= kFineTicks)
        return std::max(0, int(s.maximum - s.minimum));
    return kFineTicks;
}

double roundForDisplay(const ParameterSpec& s, double v)
{
    if (s.kind == ParameterKind::Integer)
        return std::round(v);
    // A slider position carries no meaningful digits beyond what the spin box shows, so the
    // value used is the value shown (and session files get tidy numbers).
    const double scale = std::pow(10.0, std::clamp(s.decimals, 0, 12));
    return std::round(v * scale) / scale;
}

double valueAtTick(const ParameterSpec& s, int tick)
{
    const int n = tickCount(s);
    if (n == 0 || tick <= 0)
        return s.minimum;
    if (tick >= n)
        return s.maximum; // exact, whatever pow() rounds to
    const double t = double(tick) / n;
    const double v = onLogScale(s) ? s.minimum * std::pow(s.maximum / s.minimum, t)
                                   : s.minimum + (s.maximum - s.minimum) * t;
    return std::clamp(roundForDisplay(s, v), s.minimum, s.maximum);
}

int tickAt(const ParameterSpec& s, double v)
{
    const int n = tickCount(s);
    if (n == 0 || !(s.maximum > s.minimum) || !std::isfinite(v))
        return 0;
    const double t = onLogScale(s) ? std::log(v / s.minimum) / std::log(s.maximum / s.minimum)
                                   : (v - s.minimum) / (s.maximum - s.minimum);
    return std::clamp(int(std::lround(t * n)), 0, n);
}

QString number(double v)
{
    return QLocale().toString(v, 'g', 6);
}

QString rangeText(const ParameterSpec& s)
{
    switch (s.kind) {
    case ParameterKind::Real:
    case ParameterKind::Integer: {
        QString text = QObject::tr("Range: %1 to %2").arg(number(s.minimum), number(s.maximum));
        if (!s.unit.empty())
            text += ' ' + QString::fromStdString(s.unit);
        if (onLogScale(s))
            text += QObject::tr(" (slider on a log scale)");
        return text;
    }
    case ParameterKind::Choice:
    case ParameterKind::Boolean:
        break;
    }
    return {};
}

int toInt(double v)
{
    return int(std::clamp(v, double(INT_MIN), double(INT_MAX)));
}

} // namespace

ParameterPanel::ParameterPanel(QWidget* parent) : QWidget(parent)
{
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(8, 8, 8, 8);
    m_layout->addStretch(1);
}

ParameterPanel::~ParameterPanel()
{
    // ~QWidget hides a top-level panel before deleting its children, which sends a focus-out
    // to a focused spin box that is still alive while m_rows is already gone: delete it first.
    m_ignoreEdits = true;
    delete m_form;
}

QSize ParameterPanel::minimumSizeHint() const
{
    // A floor, not a fixed minimum (setMinimumWidth would be): long labels and wide spin boxes
    // must still widen the panel, or a scroll area squeezes and clips them.
    const QSize hint = QWidget::minimumSizeHint();
    return {std::max(hint.width(), 300), hint.height()};
}

void ParameterPanel::setSchema(const ParameterSchema& schema, const ParameterValues& values)
{
    // Nothing the old form does while it goes (e.g. a last focus-out) may count as an edit.
    m_ignoreEdits = true;
    setDragging(false); // a slider deleted under the mouse is never released
    delete m_form;
    m_form = nullptr;
    m_rows.clear();
    m_rejection.clear();

    m_schema = schema;
    m_values = schema.defaults();

    m_form = new QWidget(this);
    auto* grid = new QGridLayout(m_form);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(6);
    grid->setColumnStretch(0, m_labelsAbove ? 1 : 0);
    grid->setColumnStretch(1, m_labelsAbove ? 0 : 1);
    m_layout->insertWidget(0, m_form);

    m_rows.reserve(schema.specs().size());
    for (const auto& spec : schema.specs())
        m_rows.push_back(Row{spec, QString::fromStdString(spec.name)});
    for (int i = 0; i < int(m_rows.size()); ++i)
        buildRow(i);

    for (const auto& [name, value] : values) {
        const int index = rowIndex(QString::fromStdString(name));
        if (auto why = schema.check(name, value))
            showRejection(index, QString::fromStdString(name), QString::fromStdString(*why), false);
        else
            m_values[name] = value;
    }
    for (int i = 0; i < int(m_rows.size()); ++i)
        showValue(i, nullptr);
    m_ignoreEdits = false;
}

void ParameterPanel::buildRow(int index)
{
    Row& row = m_rows[index];
    const ParameterSpec& spec = row.spec;
    // Labels carry the figure markup (σ_e, n_e): shown with real subscripts, as in the plots.
    const QString markup = QString::fromStdString(spec.label.empty() ? spec.name : spec.label);
    row.label = new QLabel(m_form);
    if (!spec.label.empty() && hasRichScripts(markup)) { // a bare name's '_' is no markup
        row.label->setTextFormat(Qt::RichText);
        row.label->setText(richLabelHtml(markup, false));
    } else {
        row.label->setTextFormat(Qt::PlainText);
        row.label->setText(markup);
    }
    QString tip = QString::fromStdString(spec.tooltip);
    const QString range = rangeText(spec);
    if (!range.isEmpty())
        tip += (tip.isEmpty() ? "" : "\n") + range;
    row.label->setToolTip(tip);

    const bool ranged = spec.kind == ParameterKind::Real || spec.kind == ParameterKind::Integer;
    if (ranged) {
        row.slider = new QSlider(Qt::Horizontal, m_form);
        const int n = tickCount(spec);
        row.slider->setRange(0, n);
        row.slider->setPageStep(std::max(1, n / 10));
        if (spec.kind == ParameterKind::Integer && n < kFineTicks)
            row.slider->setSingleStep(std::max(1, toInt(spec.step))); // one tick is one value
        row.slider->setMinimumWidth(80);
        row.slider->setToolTip(tip);
        row.slider->setObjectName(row.name + ".slider");
        connect(row.slider, &QSlider::valueChanged, this, [this, index](int tick) {
            if (!m_ignoreEdits)
                accept(index, valueAtTick(m_rows[index].spec, tick), m_rows[index].slider);
        });
        connect(row.slider, &QSlider::sliderPressed, this, [this] { setDragging(true); });
        connect(row.slider, &QSlider::sliderReleased, this, [this] { setDragging(false); });
    }

    const QString suffix = spec.unit.empty() ? QString() : ' ' + QString::fromStdString(spec.unit);
    auto onText = [this, index](const QString& text) {
        if (!m_ignoreEdits)
            handleTypedText(index, text);
    };
    switch (spec.kind) {
    case ParameterKind::Real: {
        auto* spin = new CheckedDoubleSpinBox(m_form);
        spin->setDecimals(spec.decimals); // before the range, which is rounded to it
        spin->setRange(spec.minimum, spec.maximum);
        spin->setSingleStep(spec.step);
        spin->setSuffix(suffix);
        spin->setKeyboardTracking(false);
        spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        spin->setUnacceptableTextHandler(onText);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, index, spin](double v) {
            if (!m_ignoreEdits)
                accept(index, v, spin);
        });
        row.editor = spin;
        break;
    }
    case ParameterKind::Integer: {
        auto* spin = new CheckedIntSpinBox(m_form);
        spin->setRange(toInt(spec.minimum), toInt(spec.maximum));
        spin->setSingleStep(std::max(1, toInt(spec.step)));
        spin->setSuffix(suffix);
        spin->setKeyboardTracking(false);
        spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        spin->setUnacceptableTextHandler(onText);
        connect(spin, &QSpinBox::valueChanged, this, [this, index, spin](int v) {
            if (!m_ignoreEdits)
                accept(index, v, spin);
        });
        row.editor = spin;
        break;
    }
    case ParameterKind::Choice: {
        auto* combo = new QComboBox(m_form);
        for (const auto& choice : spec.choices)
            combo->addItem(QString::fromStdString(choice));
        connect(combo, &QComboBox::currentIndexChanged, this, [this, index, combo](int i) {
            if (!m_ignoreEdits && i >= 0)
                accept(index, i, combo);
        });
        row.editor = combo;
        break;
    }
    case ParameterKind::Boolean: {
        auto* check = new QCheckBox(m_form);
        connect(check, &QCheckBox::toggled, this, [this, index, check](bool on) {
            if (!m_ignoreEdits)
                accept(index, on ? 1 : 0, check);
        });
        row.editor = check;
        break;
    }
    }
    row.editor->setObjectName(row.name + ".editor");
    row.editor->setToolTip(tip);
    row.label->setBuddy(row.editor);
    // What a screen reader says for the editor and its slider: the label's words, scripts as
    // plain text (a buddy label in rich text would be read out as HTML, a slider has no label).
    const QString spoken = richLabelPlainText(markup);
    row.editor->setAccessibleName(spoken);
    if (row.slider)
        row.slider->setAccessibleName(spoken);

    row.message = new QLabel(m_form);
    row.message->setObjectName(row.name + ".rejection");
    row.message->setWordWrap(true);
    QPalette palette = row.message->palette();
    palette.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    row.message->setPalette(palette);
    row.message->hide();
    placeRow(index);
}

int ParameterPanel::rowIndex(const QString& name) const
{
    for (int i = 0; i < int(m_rows.size()); ++i)
        if (m_rows[i].name == name)
            return i;
    return -1;
}

QSlider* ParameterPanel::slider(const QString& name) const
{
    const int i = rowIndex(name);
    return i < 0 ? nullptr : m_rows[i].slider;
}

QWidget* ParameterPanel::editor(const QString& name) const
{
    const int i = rowIndex(name);
    return i < 0 ? nullptr : m_rows[i].editor;
}

QLabel* ParameterPanel::rejectionLabel(const QString& name) const
{
    const int i = rowIndex(name);
    return i < 0 ? nullptr : m_rows[i].message;
}

bool ParameterPanel::setValue(const QString& name, double value)
{
    const int index = rowIndex(name);
    if (index < 0) {
        showRejection(-1, name, QString::fromStdString(*m_schema.check(name.toStdString(), value)));
        return false;
    }
    return accept(index, value, nullptr);
}

void ParameterPanel::setValues(const ParameterValues& values)
{
    bool changed = false;
    bool refused = false;
    for (const auto& [name, value] : values) {
        const QString qname = QString::fromStdString(name);
        const int index = rowIndex(qname);
        if (auto why = m_schema.check(name, value)) {
            if (!refused)
                clearRejection(); // reasons from before this batch are stale
            refused = true;
            showRejection(index, qname, QString::fromStdString(*why));
            continue;
        }
        changed |= store(index, value);
        showValue(index, nullptr);
    }
    if (!refused)
        clearRejection();
    if (changed)
        emit valuesChanged(m_values);
}

bool ParameterPanel::store(int index, double value)
{
    double& slot = m_values[m_rows[index].spec.name];
    if (slot == value)
        return false;
    slot = value;
    return true;
}

bool ParameterPanel::accept(int index, double value, const QWidget* source)
{
    const Row& row = m_rows[index];
    if (auto why = m_schema.check(row.spec.name, value)) {
        showRejection(index, row.name, QString::fromStdString(*why));
        showValue(index, nullptr); // put the editors back on the last accepted value
        return false;
    }
    clearRejection();
    const bool changed = store(index, value);
    // The source already shows the value; rewriting a slider under the user's drag would make
    // it jump back by a tick wherever rounding maps two ticks to one value.
    showValue(index, source);
    if (changed)
        emit valuesChanged(m_values);
    return true;
}

void ParameterPanel::handleTypedText(int index, const QString& text)
{
    const Row& row = m_rows[index];
    bool ok = false;
    double value = QLocale().toDouble(text, &ok);
    if (!ok)
        value = QLocale::c().toDouble(text, &ok);
    if (!ok) {
        // The schema's own parser words the refusal the same way as --set on the command line.
        try {
            value = m_schema.parse(row.spec.name, text.toStdString());
        } catch (const std::exception& e) {
            showRejection(index, row.name, QString::fromUtf8(e.what()));
            showValue(index, nullptr);
            return;
        }
    }
    if (row.spec.kind == ParameterKind::Real && !m_schema.check(row.spec.name, value))
        value = roundForDisplay(row.spec, value); // as the spin box would have rounded it
    accept(index, value, nullptr);
}

void ParameterPanel::showValue(int index, const QWidget* source)
{
    const Row& row = m_rows[index];
    const double value = m_values.at(row.spec.name);
    if (row.slider && row.slider != source) {
        const QSignalBlocker block(row.slider);
        row.slider->setValue(tickAt(row.spec, value));
    }
    if (row.editor == source)
        return;
    const QSignalBlocker block(row.editor);
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(row.editor))
        spin->setValue(value);
    else if (auto* ispin = qobject_cast<QSpinBox*>(row.editor))
        ispin->setValue(toInt(value));
    else if (auto* combo = qobject_cast<QComboBox*>(row.editor))
        combo->setCurrentIndex(int(value));
    else if (auto* check = qobject_cast<QCheckBox*>(row.editor))
        check->setChecked(value != 0);
}

void ParameterPanel::showRejection(int index, const QString& name, const QString& reason, bool notify)
{
    m_rejection = reason;
    if (index >= 0) {
        m_rows[index].message->setText(reason);
        m_rows[index].message->show();
    }
    if (notify)
        emit valueRejected(name, reason);
}

void ParameterPanel::clearRejection()
{
    m_rejection.clear();
    for (auto& row : m_rows) {
        if (!row.message->isHidden()) {
            row.message->clear();
            row.message->hide();
        }
    }
}

void ParameterPanel::setDragging(bool dragging)
{
    if (dragging == m_dragging)
        return;
    m_dragging = dragging;
    emit sliderHeld(dragging);
}

} // namespace evx
