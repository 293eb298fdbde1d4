// core/rich_label: the figure-text markup, against runs written out by hand for each rule and
// for the labels the scenarios use.

#include "core/rich_label.h"

#include <QTest>

using namespace evx;

namespace {

using Runs = std::vector<LabelRun>;

QString show(const Runs& runs)
{
    QString out;
    for (const LabelRun& run : runs)
        out += (run.script == Script::Sub     ? QStringLiteral("_[")
                : run.script == Script::Super ? QStringLiteral("^[")
                                              : QStringLiteral("[")) +
               QString::fromStdString(run.text) + ']';
    return out;
}

} // namespace

Q_DECLARE_METATYPE(Runs)

class TestRichLabel : public QObject {
    Q_OBJECT

private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("markup");
        QTest::addColumn<Runs>("runs");
        const auto n = Script::Normal;
        const auto sub = Script::Sub;
        const auto sup = Script::Super;
        QTest::newRow("plain") << "log density" << Runs{{"log density", n}};
        QTest::newRow("empty") << "" << Runs{};
        QTest::newRow("one letter") << "weight w_i" << Runs{{"weight w", n}, {"i", sub}};
        QTest::newRow("inside brackets")
            << "probability p(x_i)" << Runs{{"probability p(x", n}, {"i", sub}, {")", n}};
        QTest::newRow("a word") << "β_verbal" << Runs{{"β", n}, {"verbal", sub}};
        QTest::newRow("greek base")
            << "μ_z (posterior mean of z_n)"
            << Runs{{"μ", n}, {"z", sub}, {" (posterior mean of z", n}, {"n", sub}, {")", n}};
        QTest::newRow("sub then ²") << "σ_q²" << Runs{{"σ", n}, {"q", sub}, {"2", sup}};
        QTest::newRow("³ alone") << "m³" << Runs{{"m", n}, {"3", sup}};
        QTest::newRow("braces") << "x_{i,j} + 1" << Runs{{"x", n}, {"i,j", sub}, {" + 1", n}};
        QTest::newRow("caret word") << "x^2/2" << Runs{{"x", n}, {"2", sup}, {"/2", n}};
        QTest::newRow("caret braces") << "e^{-x/2}" << Runs{{"e", n}, {"-x/2", sup}};
        QTest::newRow("lone underscore") << "a _ b" << Runs{{"a _ b", n}};
        QTest::newRow("trailing caret") << "x^" << Runs{{"x^", n}};
        QTest::newRow("unclosed brace") << "x_{ab" << Runs{{"x_{ab", n}};
        QTest::newRow("empty braces") << "x_{}" << Runs{{"x_{}", n}};
        QTest::newRow("bare braces") << "{a}" << Runs{{"{a}", n}};
        QTest::newRow("digits after") << "λ_12 = 3" << Runs{{"λ", n}, {"12", sub}, {" = 3", n}};
        QTest::newRow("super then sub") << "x²_i" << Runs{{"x", n}, {"2", sup}, {"i", sub}};
        QTest::newRow("greek subscript") << "σ_ε²" << Runs{{"σ", n}, {"ε", sub}, {"2", sup}};
        QTest::newRow("greek then literal") << "NCAI_λ=0, x" << Runs{{"NCAI", n}, {"λ", sub}, {"=0, x", n}};
        QTest::newRow("greek word") << "s_σx y" << Runs{{"s", n}, {"σx", sub}, {" y", n}};
        // Other non-ASCII letters end a word: a Latin-1 letter, or a combining hat (D̂_f stays a
        // subscript f, the hat on the D).
        QTest::newRow("latin-1 ends a word") << "x_é" << Runs{{"x_é", n}};
        QTest::newRow("hat before") << "D̂_f" << Runs{{"D̂", n}, {"f", sub}};
    }

    void parses()
    {
        QFETCH(QString, markup);
        QFETCH(Runs, runs);
        const Runs parsed = parseRichLabel(markup.toStdString());
        QCOMPARE(show(parsed), show(runs));
        QCOMPARE(hasScripts(parsed),
                 runs.size() > 1 || (runs.size() == 1 && runs[0].script != Script::Normal));
    }
};

QTEST_APPLESS_MAIN(TestRichLabel)
#include "test_rich_label.moc"
