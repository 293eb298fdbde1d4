// The "Which reading applies?" guide: each answer recommends its reading, and the button
// emits it for the main window to set as the scenario's `emphasis`.
#include "reading_guide_dialog.h"
#include "scenarios/registry.h"

#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QtTest>

using namespace evx;

class TestReadingGuide : public QObject {
    Q_OBJECT

private slots:
    void nothingUntilAnswered()
    {
        ReadingGuideDialog d;
        QSignalSpy spy(&d, &ReadingGuideDialog::emphasisRequested);
        QCOMPARE(d.recommendedReading(), QString());
        auto* emphasise = d.findChild<QPushButton*>("emphasise");
        QVERIFY(emphasise);
        QVERIFY(!emphasise->isEnabled());
        emphasise->click();
        QCOMPARE(spy.count(), 0);
    }

    void eachAnswerRecommendsItsReading_data()
    {
        QTest::addColumn<QString>("reading");
        QTest::newRow("jeffrey") << "jeffrey";
        QTest::newRow("virtual") << "virtual";
        QTest::newRow("distributional") << "distributional";
    }
    void eachAnswerRecommendsItsReading()
    {
        QFETCH(QString, reading);
        ReadingGuideDialog d;
        d.show();
        QSignalSpy spy(&d, &ReadingGuideDialog::emphasisRequested);
        auto* answer = d.findChild<QRadioButton*>(reading);
        QVERIFY(answer);
        QVERIFY(!answer->text().isEmpty());
        QVERIFY(d.findChild<QLabel*>(reading + "Why"));
        QTest::mouseClick(answer, Qt::LeftButton, {}, QPoint(5, answer->height() / 2));
        QVERIFY(answer->isChecked());
        QCOMPARE(d.recommendedReading(), reading);
        auto* emphasise = d.findChild<QPushButton*>("emphasise");
        QVERIFY(emphasise->isEnabled());
        emphasise->click();
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.first().at(0).toString(), reading);
        // For looking at it: EVX_GRAB_DIALOG=/tmp/guide saves /tmp/guide-<reading>.png.
        if (qEnvironmentVariableIsSet("EVX_GRAB_DIALOG"))
            d.grab().save(qEnvironmentVariable("EVX_GRAB_DIALOG") + "-" + reading + ".png");
        // The reading names are choices of every ue-* scenario's `emphasis` parameter.
        const auto s = ScenarioRegistry::instance().find("ue-gaussian");
        QVERIFY(s->schema().parse("emphasis", reading.toStdString()) > 0);
    }
};

QTEST_MAIN(TestReadingGuide)
#include "test_reading_guide.moc"
