#pragma once
// Figure text with real sub- and superscripts (markup: core/rich_label.h) in the plot view:
// axis labels, titles, legend names, markers' names and the hover read-out. QCustomPlot draws all three as
// plain text, so three small subclasses draw a label that has scripts as a QTextDocument instead, in the
// font, colour and place QCustomPlot would have used; a label without scripts is left to QCustomPlot. The
// strings themselves stay as written (layout, wrapping, hidden-series keys and JSON/CSV exports see the
// markup), and since a script is no wider than its markup, the room QCustomPlot measures from the markup
// always holds the drawing. The painter's own text drawing keeps PDF and SVG text as vector text. Why not
// Unicode's sub- and superscript characters: few letters have one (no subscript b, q or z, as in β_verbal,
// σ_q², μ_z), so most scenario labels would need rich text anyway, and drawing every script one way keeps
// them alike.

#include <qcustomplot.h>

#include <QString>

namespace evx {

// The size plain text takes in font, lines centred on each other, as QCustomPlot lays it out.
QSizeF plainTextSize(const QFont& font, const QString& text);
bool hasRichScripts(const QString& markup);
// Qt rich text for markup: escaped text, <sub>/<sup> for scripts, <br> for line breaks. With
// keepSpaces, runs of spaces stay as written and nothing wraps (plot text, as QCustomPlot draws
// plain labels); without, a word-wrapping QLabel may break the lines.
QString richLabelHtml(const QString& markup, bool keepSpaces = true);
// The markup's text without its markup (σ_e → σe), e.g. to measure its widest extent.
QString richLabelPlainText(const QString& markup);
// text's words for wrapping: split at spaces, except after a comma inside brackets, so that a
// line never ends inside an argument list such as "f(x, y)" or "N(0, 1)"; "(numerical
// integration)" may still break. Unbalanced brackets leave every space a break.
QStringList wrapWords(const QString& text);
// The size markup takes when drawn in font; for a label without scripts, the plain text's.
QSizeF richTextSize(const QString& markup, const QFont& font);
// Draws markup centred in box (lines centred on each other, or as `lines` aligns them) on
// painter's device. With the plot it is drawn for, its layout is kept (with the plot) for the
// next raster drawing.
void drawRichText(QPainter* painter, const QRectF& box, const QString& markup, const QFont& font,
                  const QColor& colour, Qt::Alignment lines = Qt::AlignHCenter, QObject* plot = nullptr);

// Where QCustomPlot's axis painter puts a label of labelSize (along × across the axis): the
// box below (beside) the tick labels, unrotated for a vertical axis as it appears on the page.
QRectF axisLabelBox(const QCPAxis* axis, const QSizeF& labelSize);

// An axis whose label may have scripts.
class RichAxis : public QCPAxis {
    Q_OBJECT
public:
    RichAxis(QCPAxisRect* rect, AxisType type) : QCPAxis(rect, type) {}

protected:
    void draw(QCPPainter* painter) override;
};

// An axis rect with QCustomPlot's default axes, as RichAxis.
QCPAxisRect* newRichAxisRect(QCustomPlot* plot);

class RichTextElement : public QCPTextElement {
    Q_OBJECT
public:
    using QCPTextElement::QCPTextElement;

protected:
    void draw(QCPPainter* painter) override;
    // QCustomPlot's sizes, remembered per font, text and margins: each layout pass asks every
    // nested grid for them, and each answer shaped the title again (7 % of a ue-drop-ball step).
    QSize minimumOuterSizeHint() const override;
    QSize maximumOuterSizeHint() const override;

private:
    QString sizeKey(const char* hint) const; // what QCustomPlot's size hints read
};

// A text item (a marker's name, the hover read-out) whose text may have scripts: its box is
// the one QCustomPlot draws for the plain markup, the text in it drawn as rich text, its lines
// aligned as the item's text alignment says. Unrotated items only.
class RichItemText : public QCPItemText {
    Q_OBJECT
public:
    using QCPItemText::QCPItemText;

protected:
    void draw(QCPPainter* painter) override;
};

class RichLegendItem : public QCPPlottableLegendItem {
    Q_OBJECT
public:
    using QCPPlottableLegendItem::QCPPlottableLegendItem;

protected:
    void draw(QCPPainter* painter) override;
    QSize minimumOuterSizeHint() const override; // remembered, as RichTextElement's
};

} // namespace evx
