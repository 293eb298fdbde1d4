// ParameterPanel's labels: figure markup drawn with real scripts, and labels placed above their
// controls when the dock is too narrow for them beside.
#include "parameter_panel_test_support.h"
#include "params/parameter_panel.h"

#include <QLabel>
#include <QTest>

#include <cmath>

using evx::ParameterKind;
using evx::ParameterPanel;
using evx::ParameterSchema;
using evx::panel_test::sampleSchema;
using evx::panel_test::spec;

class TestParameterPanelLabels : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void markupShowsAsScripts();
    void labelsAboveNarrowTheForm();

private:
    ParameterPanel* m_panel = nullptr;
};

void TestParameterPanelLabels::init()
{
    m_panel = new ParameterPanel;
    m_panel->setSchema(sampleSchema(), {});
    m_panel->resize(420, 320);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel));
}

void TestParameterPanelLabels::cleanup()
{
    delete m_panel;
    m_panel = nullptr;
}

// "σ_e" in a label is the figures' markup: a subscript e, as in the plots; a parameter without
// a label shows its name as written, underscores and all.
void TestParameterPanelLabels::markupShowsAsScripts()
{
    ParameterSchema schema(
        {spec("sigma_e", "Transit-time error σ_e", "min", ParameterKind::Real, 1, 120, 20, 1, 0),
         spec("n_e", "", "", ParameterKind::Integer, 1, 10, 2, 1, 0)});
    m_panel->setSchema(schema, {});
    QTest::qWait(0);
    QLabel* marked = nullptr;
    QLabel* bare = nullptr;
    for (QLabel* label : m_panel->findChildren<QLabel*>()) {
        if (label->buddy() == m_panel->editor("sigma_e"))
            marked = label;
        if (label->buddy() == m_panel->editor("n_e"))
            bare = label;
    }
    QVERIFY(marked && bare);
    QCOMPARE(marked->textFormat(), Qt::RichText);
    QVERIFY2(marked->text().contains("σ<sub>e</sub>") && !marked->text().contains("_"),
             qPrintable(marked->text()));
    QCOMPARE(bare->textFormat(), Qt::PlainText);
    QCOMPARE(bare->text(), QString("n_e"));
    // The width estimate measures the text shown, not its HTML.
    QVERIFY2(m_panel->besideWidth() < 420, qPrintable(QString::number(m_panel->besideWidth())));
}

// Labels above their controls (a narrow dock, presentation text): the form needs the width of
// its controls only, each label sits over its own controls, and the values stay.
void TestParameterPanelLabels::labelsAboveNarrowTheForm()
{
    ParameterSchema schema({spec("mu_x", "A prior mean with a label much longer than its slider and spin box",
                                 "m", ParameterKind::Real, -10, 10, 0, 0.5, 2),
                            spec("show_prior", "Show the prior of the parameter as a dashed curve", "",
                                 ParameterKind::Boolean, 0, 1, 1, 1, 0)});
    m_panel->setSchema(schema, {{"mu_x", 2.5}});
    QTest::qWait(0); // the new form shows from the event loop
    const int beside = m_panel->minimumSizeHint().width();
    // besideWidth is the estimate MainWindow chooses by; within 5 % of the laid-out width.
    QVERIFY2(std::abs(m_panel->besideWidth() - beside) <= 0.05 * beside,
             qPrintable(QString("estimate %1, laid out %2").arg(m_panel->besideWidth()).arg(beside)));
    m_panel->setLabelsAbove(true);
    QVERIFY(m_panel->labelsAbove());
    const int above = m_panel->minimumSizeHint().width();
    QVERIFY2(above < beside - 100, qPrintable(QString("above %1 px, beside %2 px").arg(above).arg(beside)));
    m_panel->resize(std::max(above, 300), 400);
    QTest::qWait(20);
    for (const char* name : {"mu_x", "show_prior"}) {
        QWidget* editor = m_panel->editor(name);
        const int right = editor->mapTo(m_panel, QPoint(editor->width(), 0)).x();
        QVERIFY2(right <= m_panel->width(),
                 qPrintable(QString("%1 ends at %2 of %3").arg(name).arg(right).arg(m_panel->width())));
    }
    for (QLabel* label : m_panel->findChildren<QLabel*>()) {
        if (label->isHidden() || label->buddy() == nullptr)
            continue;
        const QRect controls = label->buddy()->geometry();
        QVERIFY2(label->geometry().bottom() < controls.top() &&
                     label->height() >= label->heightForWidth(label->width()),
                 qPrintable(QString("'%1' at %2..%3, %4 of %5 px high, controls from %6")
                                .arg(label->text())
                                .arg(label->geometry().top())
                                .arg(label->geometry().bottom())
                                .arg(label->height())
                                .arg(label->heightForWidth(label->width()))
                                .arg(controls.top())));
    }
    QCOMPARE(m_panel->values().at("mu_x"), 2.5);
    // Back beside, and a new schema keeps the choice.
    m_panel->setLabelsAbove(false);
    QCOMPARE(m_panel->minimumSizeHint().width(), beside);
    m_panel->setLabelsAbove(true);
    m_panel->setSchema(sampleSchema(), {});
    QTest::qWait(0);
    QVERIFY(m_panel->labelsAbove());
    QWidget* editor = m_panel->editor("mu_x");
    for (QLabel* label : m_panel->findChildren<QLabel*>())
        if (label->buddy() == editor)
            QVERIFY2(label->geometry().bottom() < editor->geometry().top(),
                     qPrintable(QString("label ends at %1, editor starts at %2")
                                    .arg(label->geometry().bottom())
                                    .arg(editor->geometry().top())));
}

QTEST_MAIN(TestParameterPanelLabels)
#include "test_parameter_panel_labels.moc"
