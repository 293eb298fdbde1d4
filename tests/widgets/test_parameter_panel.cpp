// ParameterPanel: editors derived from the schema, slider mapping, and refusal of bad values.

#include "parameter_panel_test_support.h"
#include "params/parameter_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

#include <cmath>
#include <limits>
#include <string>
#include <utility>

using evx::ParameterKind;
using evx::ParameterPanel;
using evx::ParameterSchema;
using evx::ParameterSpec;
using evx::ParameterValues;
using evx::panel_test::sampleSchema;
using evx::panel_test::spec;

namespace {

double valueOf(const QSignalSpy& spy, int call, const char* name)
{
    return spy.at(call).at(0).value<ParameterValues>().at(name);
}

} // namespace

class TestParameterPanel : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void createsOneEditorPerKind_data();
    void createsOneEditorPerKind();
    void setSchemaShowsValuesWithoutSignals();
    void setSchemaReplacesRefusedValueByDefault();
    void sliderMapsTicksToValues_data();
    void sliderMapsTicksToValues();
    void sliderDragEmitsEveryStep();
    void spinBoxEditUpdatesSlider();
    void typedBadValueIsRefused_data();
    void typedBadValueIsRefused();
    void rejectionClearsOnNextAcceptedChange();
    void pendingTextIsDroppedWhenTheFormGoes();
    void setValueRefuses_data();
    void setValueRefuses();
    void setValueAccepts_data();
    void setValueAccepts();
    void setValuesEmitsOnce();
    void setValuesWithoutChangeEmitsNothing();
    void comboEmitsIndex();
    void checkBoxEmitsZeroOrOne();
    void renderSample();

private:
    ParameterPanel* m_panel = nullptr;
    ParameterSchema m_schema;
};

void TestParameterPanel::init()
{
    m_schema = sampleSchema();
    m_panel = new ParameterPanel;
    m_panel->setSchema(m_schema, {});
    m_panel->resize(420, 320);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel));
}

void TestParameterPanel::cleanup()
{
    delete m_panel;
    m_panel = nullptr;
}

void TestParameterPanel::createsOneEditorPerKind_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("editorClass");
    QTest::addColumn<bool>("hasSlider");
    QTest::newRow("real") << "mu_x"
                          << "QDoubleSpinBox" << true;
    QTest::newRow("real, log") << "sigma_x"
                               << "QDoubleSpinBox" << true;
    QTest::newRow("integer") << "samples"
                             << "QSpinBox" << true;
    QTest::newRow("choice") << "method"
                            << "QComboBox" << false;
    QTest::newRow("boolean") << "show_prior"
                             << "QCheckBox" << false;
}

void TestParameterPanel::createsOneEditorPerKind()
{
    QFETCH(QString, name);
    QFETCH(QString, editorClass);
    QFETCH(bool, hasSlider);
    QWidget* editor = m_panel->editor(name);
    QVERIFY(editor);
    QVERIFY2(editor->inherits(editorClass.toLatin1()), editor->metaObject()->className());
    QCOMPARE(m_panel->slider(name) != nullptr, hasSlider);
    if (hasSlider)
        QCOMPARE(m_panel->slider(name)->orientation(), Qt::Horizontal);
}

void TestParameterPanel::setSchemaShowsValuesWithoutSignals()
{
    QCOMPARE(m_panel->values(), m_schema.defaults());
    QCOMPARE(qobject_cast<QComboBox*>(m_panel->editor("method"))->count(), 3);
    QVERIFY(qobject_cast<QCheckBox*>(m_panel->editor("show_prior"))->isChecked());

    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    QSignalSpy rejected(m_panel, &ParameterPanel::valueRejected);
    m_panel->setSchema(m_schema, {{"mu_x", 3.5}, {"method", 2}});
    QCOMPARE(changed.count(), 0);
    QCOMPARE(rejected.count(), 0);
    QCOMPARE(m_panel->values().at("mu_x"), 3.5);
    QCOMPARE(m_panel->values().at("sigma_x"), 2.0);
    QCOMPARE(qobject_cast<QDoubleSpinBox*>(m_panel->editor("mu_x"))->value(), 3.5);
    QCOMPARE(m_panel->slider("mu_x")->value(), 675);
    QCOMPARE(qobject_cast<QComboBox*>(m_panel->editor("method"))->currentIndex(), 2);
    QCOMPARE(qobject_cast<QDoubleSpinBox*>(m_panel->editor("mu_x"))->suffix(), QString(" m"));
}

void TestParameterPanel::setSchemaReplacesRefusedValueByDefault()
{
    QSignalSpy rejected(m_panel, &ParameterPanel::valueRejected);
    m_panel->setSchema(m_schema, {{"mu_x", 99}});
    QCOMPARE(rejected.count(), 0);
    QCOMPARE(m_panel->values().at("mu_x"), 0.0);
    QVERIFY(m_panel->rejectionMessage().contains("outside the range"));
}

void TestParameterPanel::sliderMapsTicksToValues_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("tick");
    QTest::addColumn<double>("expected");
    QTest::newRow("linear low end") << "mu_x" << 0 << -10.0;
    QTest::newRow("linear middle") << "mu_x" << 750 << 5.0;
    QTest::newRow("linear high end") << "mu_x" << 1000 << 10.0;
    QTest::newRow("log low end") << "sigma_x" << 0 << 0.1;
    // Geometric mean of 0.1 and 20, shown with 3 decimals.
    QTest::newRow("log middle") << "sigma_x" << 500 << 1.414;
    QTest::newRow("log high end") << "sigma_x" << 1000 << 20.0;
    // One tick per value on [1, 200].
    QTest::newRow("integer low end") << "samples" << 0 << 1.0;
    QTest::newRow("integer middle") << "samples" << 99 << 100.0;
    QTest::newRow("integer high end") << "samples" << 199 << 200.0;
}

void TestParameterPanel::sliderMapsTicksToValues()
{
    QFETCH(QString, name);
    QFETCH(int, tick);
    QFETCH(double, expected);
    QSlider* slider = m_panel->slider(name);
    QVERIFY(slider);
    QVERIFY2(slider->value() != tick, "the data row would not move the slider");
    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    slider->setValue(tick);
    QCOMPARE(changed.count(), 1);
    const double got = valueOf(changed, 0, name.toLatin1());
    QVERIFY2(std::abs(got - expected) < 1e-9, qPrintable(QString::number(got, 'g', 17)));
    QCOMPARE(m_panel->values().at(name.toStdString()), got);
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(m_panel->editor(name)))
        QCOMPARE(spin->value(), got);
    else
        QCOMPARE(qobject_cast<QSpinBox*>(m_panel->editor(name))->value(), int(got));
}

void TestParameterPanel::sliderDragEmitsEveryStep()
{
    QSlider* slider = m_panel->slider("mu_x");
    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    slider->setSliderDown(true);
    for (int i = 1; i <= 5; ++i)
        slider->triggerAction(QAbstractSlider::SliderSingleStepAdd);
    slider->setSliderDown(false);
    QCOMPARE(changed.count(), 5);
    QCOMPARE(valueOf(changed, 0, "mu_x"), 0.02);
    QCOMPARE(valueOf(changed, 4, "mu_x"), 0.1);
}

void TestParameterPanel::spinBoxEditUpdatesSlider()
{
    auto* spin = qobject_cast<QDoubleSpinBox*>(m_panel->editor("sigma_x"));
    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, "10");
    QCOMPARE(changed.count(), 0); // keyboard tracking is off: nothing until Enter
    QTest::keyClick(spin, Qt::Key_Return);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(valueOf(changed, 0, "sigma_x"), 10.0);
    const int expectedTick = int(std::lround(1000 * std::log(10 / 0.1) / std::log(20 / 0.1)));
    QCOMPARE(m_panel->slider("sigma_x")->value(), expectedTick);
}

void TestParameterPanel::typedBadValueIsRefused_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("commitKey");
    QTest::addColumn<QString>("reasonPart");
    const int enter = Qt::Key_Return;
    QTest::newRow("real above range") << "mu_x"
                                      << "50" << enter << "outside the range -10 to 10 m";
    QTest::newRow("log below range") << "sigma_x"
                                     << "0.01" << enter << "range 0.1 to 20 m";
    QTest::newRow("integer above range") << "samples"
                                         << "500" << enter << "range 1 to 200";
    QTest::newRow("integer not whole") << "samples"
                                       << "2.5" << enter << "whole number";
    QTest::newRow("garbage") << "mu_x"
                             << "abc" << enter << "not a number";
    QTest::newRow("left by Tab") << "mu_x"
                                 << "-11" << int(Qt::Key_Tab) << "outside the range";
}

void TestParameterPanel::typedBadValueIsRefused()
{
    QFETCH(QString, name);
    QFETCH(QString, text);
    QFETCH(int, commitKey);
    QFETCH(QString, reasonPart);
    auto* spin = qobject_cast<QAbstractSpinBox*>(m_panel->editor(name));
    QVERIFY(spin);
    const ParameterValues before = m_panel->values();
    const QString textBefore = spin->text();
    const int tickBefore = m_panel->slider(name)->value();
    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    QSignalSpy rejected(m_panel, &ParameterPanel::valueRejected);

    m_panel->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_panel));
    spin->setFocus();
    QTRY_VERIFY(spin->hasFocus());
    spin->selectAll();
    QTest::keyClicks(spin, text);
    QVERIFY2(spin->text().startsWith(text), "the keystrokes were dropped, not refused");
    QTest::keyClick(spin, Qt::Key(commitKey));
    if (commitKey == Qt::Key_Tab)
        QVERIFY(!spin->hasFocus());

    QCOMPARE(changed.count(), 0);
    QCOMPARE(m_panel->values(), before);
    QCOMPARE(spin->text(), textBefore);
    QCOMPARE(m_panel->slider(name)->value(), tickBefore);
    QCOMPARE(rejected.count(), 1);
    QCOMPARE(rejected.at(0).at(0).toString(), name);
    QVERIFY2(m_panel->rejectionMessage().contains(reasonPart), qPrintable(m_panel->rejectionMessage()));
    QVERIFY(m_panel->rejectionMessage().startsWith(name + ": "));
    QLabel* label = m_panel->rejectionLabel(name);
    QVERIFY(label->isVisible());
    QCOMPARE(label->text(), m_panel->rejectionMessage());
}

void TestParameterPanel::rejectionClearsOnNextAcceptedChange()
{
    QVERIFY(!m_panel->setValue("mu_x", 50));
    QVERIFY(m_panel->rejectionLabel("mu_x")->isVisible());
    m_panel->slider("samples")->setValue(10);
    QCOMPARE(m_panel->rejectionMessage(), QString());
    QVERIFY(!m_panel->rejectionLabel("mu_x")->isVisible());
}

void TestParameterPanel::pendingTextIsDroppedWhenTheFormGoes()
{
    for (bool destroy : {false, true}) {
        auto* spin = qobject_cast<QAbstractSpinBox*>(m_panel->editor("mu_x"));
        m_panel->activateWindow();
        spin->setFocus();
        QTRY_VERIFY(spin->hasFocus());
        spin->selectAll();
        QTest::keyClicks(spin, "50");
        QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
        QSignalSpy rejected(m_panel, &ParameterPanel::valueRejected);
        if (destroy) {
            delete m_panel;
            m_panel = nullptr;
        } else {
            m_panel->setSchema(m_schema, {});
            QCOMPARE(m_panel->rejectionMessage(), QString());
        }
        QCOMPARE(changed.count(), 0);
        QCOMPARE(rejected.count(), 0);
    }
}

void TestParameterPanel::setValueRefuses_data()
{
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    constexpr double inf = std::numeric_limits<double>::infinity();
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("reasonPart");
    QTest::newRow("NaN") << "mu_x" << nan << "not a finite number";
    QTest::newRow("infinity") << "sigma_x" << inf << "not a finite number";
    QTest::newRow("above range") << "mu_x" << 10.5 << "outside the range";
    QTest::newRow("below log range") << "sigma_x" << 0.05 << "outside the range";
    QTest::newRow("integer not whole") << "samples" << 7.5 << "whole number";
    QTest::newRow("choice beyond list") << "method" << 3.0 << "not one of the choices";
    QTest::newRow("boolean not 0 or 1") << "show_prior" << 0.5 << "true or false";
    QTest::newRow("unknown name") << "nu" << 1.0 << "unknown parameter";
}

void TestParameterPanel::setValueRefuses()
{
    QFETCH(QString, name);
    QFETCH(double, value);
    QFETCH(QString, reasonPart);
    const ParameterValues before = m_panel->values();
    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    QSignalSpy rejected(m_panel, &ParameterPanel::valueRejected);
    QVERIFY(!m_panel->setValue(name, value));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(rejected.count(), 1);
    QCOMPARE(rejected.at(0).at(0).toString(), name);
    QCOMPARE(rejected.at(0).at(1).toString(), m_panel->rejectionMessage());
    QVERIFY2(m_panel->rejectionMessage().contains(reasonPart), qPrintable(m_panel->rejectionMessage()));
    QCOMPARE(m_panel->values(), before);
}

void TestParameterPanel::setValueAccepts_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("tick");
    QTest::newRow("linear") << "mu_x" << -2.5 << 375;
    // 1000 log(1 / 0.1) / log(20 / 0.1) = 434.58
    QTest::newRow("log") << "sigma_x" << 1.0 << 435;
    QTest::newRow("integer") << "samples" << 150.0 << 149;
}

void TestParameterPanel::setValueAccepts()
{
    QFETCH(QString, name);
    QFETCH(double, value);
    QFETCH(int, tick);
    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    QVERIFY(m_panel->setValue(name, value));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(valueOf(changed, 0, name.toLatin1()), value);
    QCOMPARE(m_panel->slider(name)->value(), tick);
    QCOMPARE(m_panel->rejectionMessage(), QString());
}

void TestParameterPanel::setValuesEmitsOnce()
{
    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    m_panel->setValues({{"mu_x", 1.5}, {"samples", 10}, {"method", 2}, {"show_prior", 0}});
    QCOMPARE(changed.count(), 1);
    const auto values = changed.at(0).at(0).value<ParameterValues>();
    QCOMPARE(values.at("mu_x"), 1.5);
    QCOMPARE(values.at("samples"), 10.0);
    QCOMPARE(values.at("method"), 2.0);
    QCOMPARE(values.at("show_prior"), 0.0);
    QCOMPARE(values.at("sigma_x"), 2.0);
    QCOMPARE(m_panel->values(), values);
    QCOMPARE(qobject_cast<QComboBox*>(m_panel->editor("method"))->currentIndex(), 2);
    QVERIFY(!qobject_cast<QCheckBox*>(m_panel->editor("show_prior"))->isChecked());
    QCOMPARE(qobject_cast<QSpinBox*>(m_panel->editor("samples"))->value(), 10);
}

void TestParameterPanel::setValuesWithoutChangeEmitsNothing()
{
    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    QSignalSpy rejected(m_panel, &ParameterPanel::valueRejected);
    m_panel->setValues(m_schema.defaults());
    QCOMPARE(changed.count(), 0);
    // A refused entry in a batch does not stop the others.
    m_panel->setValues({{"mu_x", 42}, {"samples", 3}});
    QCOMPARE(rejected.count(), 1);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(m_panel->values().at("mu_x"), 0.0);
    QCOMPARE(m_panel->values().at("samples"), 3.0);
}

void TestParameterPanel::comboEmitsIndex()
{
    auto* combo = qobject_cast<QComboBox*>(m_panel->editor("method"));
    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    combo->setCurrentIndex(2);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(valueOf(changed, 0, "method"), 2.0);
    QTest::keyClick(combo, Qt::Key_Up);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(valueOf(changed, 1, "method"), 1.0);
}

void TestParameterPanel::checkBoxEmitsZeroOrOne()
{
    auto* check = qobject_cast<QCheckBox*>(m_panel->editor("show_prior"));
    QSignalSpy changed(m_panel, &ParameterPanel::valuesChanged);
    QTest::mouseClick(check, Qt::LeftButton);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(valueOf(changed, 0, "show_prior"), 0.0);
    check->click();
    QCOMPARE(valueOf(changed, 1, "show_prior"), 1.0);
}

void TestParameterPanel::renderSample()
{
    if (!qEnvironmentVariableIsSet("EVX_SAMPLE_PNG"))
        QSKIP("set EVX_SAMPLE_PNG to render /tmp/panel_sample.png");
    QString path = qEnvironmentVariable("EVX_SAMPLE_PNG");
    if (!path.endsWith(".png"))
        path = "/tmp/panel_sample.png";
    m_panel->setValue("sigma_x", 50); // to show a refusal too
    m_panel->adjustSize();
    m_panel->resize(std::max(m_panel->width(), 380), m_panel->height());
    QVERIFY(m_panel->grab().save(path));
}

QTEST_MAIN(TestParameterPanel)
#include "test_parameter_panel.moc"
