#include "plot/rich_text.h"

#include "core/rich_label.h"

#include <QAbstractTextDocumentLayout>
#include <QFontMetricsF>
#include <QHash>
#include <QImage>
#include <QTextDocument>
#include <QThread>

#include <algorithm>
#include <memory>

namespace evx {
namespace {

std::unique_ptr<QTextDocument> document(const QString& markup, const QFont& font, QPaintDevice* device,
                                        Qt::Alignment lines = Qt::AlignHCenter)
{
    auto doc = std::make_unique<QTextDocument>();
    if (device) // the page's metrics, not the screen's: PDF and SVG lay out text unhinted
        doc->documentLayout()->setPaintDevice(device);
    doc->setDocumentMargin(0);
    doc->setDefaultFont(font);
    QTextOption option(lines);
    option.setWrapMode(QTextOption::NoWrap);
    doc->setDefaultTextOption(option);
    doc->setHtml(richLabelHtml(markup));
    doc->setTextWidth(doc->idealWidth()); // so that AlignHCenter centres lines on each other
    return doc;
}

// Documents laid out for raster devices (the plot's paint buffers, a PNG export), kept per
// plot: building and laying out the rich labels afresh at every replot was 8 % of a
// ue-drop-ball step. A document's layout device is a 1 × 1 image at the device's resolution,
// which outlives the buffer it was first drawn on; the documents go with their plot, so none
// outlives the application's fonts. Vector devices (PDF, SVG), other threads and drawings
// without a plot get null: a document of their own each time.
const QTextDocument* rasterDocument(QObject* plot, const QString& markup, const QFont& font,
                                    QPaintDevice* device, Qt::Alignment lines)
{
    if (!plot || QThread::currentThread() != plot->thread() || !device ||
        (device->devType() != QInternal::Pixmap && device->devType() != QInternal::Image))
        return nullptr;
    struct Laid {
        QImage metrics;
        std::unique_ptr<QTextDocument> doc;
    };
    using Documents = QHash<QString, std::shared_ptr<Laid>>;
    thread_local QHash<const QObject*, Documents> perPlot;
    auto owned = perPlot.find(plot);
    if (owned == perPlot.end()) {
        owned = perPlot.insert(plot, {});
        QObject::connect(plot, &QObject::destroyed, [plot] { perPlot.remove(plot); });
    }
    Documents& laid = *owned;
    const int dpiX = device->logicalDpiX(), dpiY = device->logicalDpiY();
    const QString key =
        QStringLiteral("%1,%2,%3,").arg(dpiX).arg(dpiY).arg(int(lines)) + font.key() + QChar(0x1f) + markup;
    if (const auto it = laid.constFind(key); it != laid.constEnd())
        return (*it)->doc.get();
    if (laid.size() >= 512)
        laid.clear();
    auto entry = std::make_shared<Laid>();
    entry->metrics = QImage(1, 1, QImage::Format_ARGB32_Premultiplied);
    entry->metrics.setDotsPerMeterX(qRound(dpiX / 0.0254));
    entry->metrics.setDotsPerMeterY(qRound(dpiY / 0.0254));
    entry->doc = document(markup, font, &entry->metrics, lines);
    laid.insert(key, entry);
    return entry->doc.get();
}

// A size measured for key (font, text and whatever else the measure reads; each caller
// starts its keys with its own tag), kept for this thread: the screen's metrics do not change
// while the process runs.
template <class Size, class Measure> Size remembered(const QString& key, Measure measure)
{
    thread_local QHash<QString, Size> sizes;
    if (const auto it = sizes.constFind(key); it != sizes.constEnd())
        return *it;
    if (sizes.size() >= 8192)
        sizes.clear();
    const Size size = measure();
    sizes.insert(key, size);
    return size;
}

QString marginsKey(const QMargins& m)
{
    return QStringLiteral("%1,%2,%3,%4").arg(m.left()).arg(m.top()).arg(m.right()).arg(m.bottom());
}

} // namespace

QSizeF plainTextSize(const QFont& font, const QString& text)
{
    // Fitting ticks measures every candidate label of every axis on every layout: shaping
    // them again was 9 % of a slider step in ue-drop-ball.
    return remembered<QSizeF>(QStringLiteral("plain") + font.key() + QChar(0x1f) + text, [&] {
        return QFontMetricsF(font).boundingRect(QRectF(), Qt::TextDontClip | Qt::AlignCenter, text).size();
    });
}

bool hasRichScripts(const QString& markup)
{
    return hasScripts(parseRichLabel(markup.toStdString()));
}

QString richLabelHtml(const QString& markup, bool keepSpaces)
{
    QString html;
    for (const LabelRun& run : parseRichLabel(markup.toStdString())) {
        QString text = QString::fromStdString(run.text).toHtmlEscaped();
        text.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
        if (run.script == Script::Sub)
            text = QStringLiteral("<sub>") + text + QStringLiteral("</sub>");
        else if (run.script == Script::Super)
            text = QStringLiteral("<sup>") + text + QStringLiteral("</sup>");
        html += text;
    }
    if (!keepSpaces)
        return html;
    // pre: spaces as written (two spaces stay two), as QCustomPlot draws plain labels.
    return QStringLiteral("<span style=\"white-space:pre\">") + html + QStringLiteral("</span>");
}

QStringList wrapWords(const QString& text)
{
    QStringList words;
    QString word;
    int depth = 0;
    for (const QChar c : text) {
        if (c == QLatin1Char('(') || c == QLatin1Char('['))
            ++depth;
        else if ((c == QLatin1Char(')') || c == QLatin1Char(']')) && depth > 0)
            --depth;
        const bool listed = depth > 0 && word.endsWith(QLatin1Char(','));
        if (c == QLatin1Char(' ') && !listed) {
            if (!word.isEmpty())
                words << word;
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.isEmpty())
        words << word;
    return depth == 0 ? words : text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

QString richLabelPlainText(const QString& markup)
{
    QString text;
    for (const LabelRun& run : parseRichLabel(markup.toStdString()))
        text += QString::fromStdString(run.text);
    return text;
}

QSizeF richTextSize(const QString& markup, const QFont& font)
{
    if (!hasRichScripts(markup))
        return plainTextSize(font, markup);
    return remembered<QSizeF>(QStringLiteral("rich") + font.key() + QChar(0x1f) + markup,
                              [&] { return document(markup, font, nullptr)->size(); });
}

void drawRichText(QPainter* painter, const QRectF& box, const QString& markup, const QFont& font,
                  const QColor& colour, Qt::Alignment lines, QObject* plot)
{
    std::unique_ptr<QTextDocument> own;
    const QTextDocument* doc = rasterDocument(plot, markup, font, painter->device(), lines);
    if (!doc) {
        own = document(markup, font, painter->device(), lines);
        doc = own.get();
    }
    const QSizeF size = doc->size();
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette.setColor(QPalette::Text, colour);
    painter->save();
    painter->translate(box.center() - QPointF(size.width() / 2, size.height() / 2));
    doc->documentLayout()->draw(painter, context);
    painter->restore();
}

QRectF axisLabelBox(const QCPAxis* axis, const QSizeF& labelSize)
{
    const QRect r = axis->axisRect()->rect();
    const QCPAxis::AxisType type = axis->axisType();
    // Where QCustomPlot's axis painter centres a label, to the fraction (QRect::center rounds
    // down, a unit off for half the frames): along x the frame's middle, along y the middle of
    // the span from the frame's last row (QRect::bottom) up by its height.
    const double centreX = r.left() + r.width() / 2.0, centreY = r.bottom() - r.height() / 2.0;
    const bool horizontal = type == QCPAxis::atBottom || type == QCPAxis::atTop;
    // Distance from the axis line to the label, as QCustomPlot's axis painter adds it up.
    double gap = axis->offset() + std::max(0, std::max(axis->tickLengthOut(), axis->subTickLengthOut())) +
                 axis->tickLabelPadding();
    if (axis->tickLabels()) {
        double deepest = 0;
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
            if (!axis->range().contains(ticks[i]))
                continue;
            const QSizeF size = plainTextSize(axis->tickLabelFont(), labels[i]);
            deepest = std::max(deepest, horizontal ? size.height() : size.width());
        }
        gap += deepest;
    }
    gap += axis->labelPadding();
    const double along = labelSize.width(), across = labelSize.height();
    switch (type) {
    case QCPAxis::atBottom:
        return {centreX - along / 2, r.bottom() + gap, along, across};
    case QCPAxis::atTop:
        return {centreX - along / 2, r.top() - gap - across, along, across};
    case QCPAxis::atLeft:
        return {r.left() - gap - across, centreY - along / 2, across, along};
    case QCPAxis::atRight:
        return {r.right() + gap, centreY - along / 2, across, along};
    }
    return {};
}

void RichAxis::draw(QCPPainter* painter)
{
    if (!hasRichScripts(mLabel)) {
        QCPAxis::draw(painter);
        return;
    }
    const QString markup = mLabel;
    mLabel.clear(); // ticks and tick labels as usual; the label below
    QCPAxis::draw(painter);
    mLabel = markup;
    // The box the plain markup would fill: the drawing is centred where QCustomPlot centres it.
    const QSizeF plain = plainTextSize(mLabelFont, markup);
    const QRectF box = axisLabelBox(this, plain);
    painter->save();
    painter->translate(box.center());
    if (mAxisType == atLeft)
        painter->rotate(-90);
    else if (mAxisType == atRight)
        painter->rotate(90);
    drawRichText(painter, QRectF(-plain.width() / 2, -plain.height() / 2, plain.width(), plain.height()),
                 markup, mLabelFont, mLabelColor, Qt::AlignHCenter, mParentPlot);
    painter->restore();
}

QCPAxisRect* newRichAxisRect(QCustomPlot* plot)
{
    auto* rect = new QCPAxisRect(plot, false);
    // QCustomPlot's default set: bottom and left shown with grids, top and right hidden.
    for (QCPAxis::AxisType type : {QCPAxis::atTop, QCPAxis::atRight, QCPAxis::atBottom, QCPAxis::atLeft})
        rect->addAxis(type, new RichAxis(rect, type));
    for (QCPAxis::AxisType type : {QCPAxis::atTop, QCPAxis::atRight}) {
        rect->axis(type)->setVisible(false);
        rect->axis(type)->grid()->setVisible(false);
        rect->axis(type)->grid()->setZeroLinePen(Qt::NoPen);
    }
    rect->axis(QCPAxis::atBottom)->grid()->setVisible(true);
    rect->axis(QCPAxis::atLeft)->grid()->setVisible(true);
    rect->setRangeDragAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    rect->setRangeZoomAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    return rect;
}

void RichTextElement::draw(QCPPainter* painter)
{
    if (!hasRichScripts(mText)) {
        QCPTextElement::draw(painter);
        return;
    }
    const QFont font = mSelected ? mSelectedFont : mFont;
    drawRichText(painter, mRect, mText, font, mSelected ? mSelectedTextColor : mTextColor, Qt::AlignHCenter,
                 mParentPlot);
}

QString RichTextElement::sizeKey(const char* hint) const
{
    return QLatin1String(hint) + mFont.key() + QChar(0x1f) + marginsKey(mMargins) + QChar(0x1f) +
           QString::number(mTextFlags) + QChar(0x1f) + mText;
}

QSize RichTextElement::minimumOuterSizeHint() const
{
    return remembered<QSize>(sizeKey("min"), [this] { return QCPTextElement::minimumOuterSizeHint(); });
}

QSize RichTextElement::maximumOuterSizeHint() const
{
    return remembered<QSize>(sizeKey("max"), [this] { return QCPTextElement::maximumOuterSizeHint(); });
}

void RichItemText::draw(QCPPainter* painter)
{
    if (!hasRichScripts(mText) || !qFuzzyIsNull(mRotation)) {
        QCPItemText::draw(painter);
        return;
    }
    // The box where QCPItemText::draw puts it, for the plain markup; the text drawn here (a
    // transparent plain text would still be in a PDF or SVG, as markup).
    const QFont font = mainFont();
    const QRect plain = QFontMetrics(font).boundingRect(0, 0, 0, 0, Qt::TextDontClip | mTextAlignment, mText);
    const QRect box = plain.adjusted(-mPadding.left(), -mPadding.top(), mPadding.right(), mPadding.bottom());
    const QPointF corner =
        position->pixelPosition() + getTextDrawPoint(QPointF(0, 0), box, mPositionAlignment);
    const QPointF at = corner + QPointF(mPadding.left(), mPadding.top());
    if (mainPen().style() != Qt::NoPen || mainBrush().style() != Qt::NoBrush) {
        painter->setPen(mainPen());
        painter->setBrush(mainBrush());
        painter->drawRect(QRectF(corner, QSizeF(box.size())));
    }
    const QSizeF rich = richTextSize(mText, font);
    // Lines start where the plain lines would: at the left, or centred as they are.
    const Qt::Alignment lines = mTextAlignment & Qt::AlignHorizontal_Mask;
    const double left = lines & Qt::AlignLeft ? at.x() : at.x() + (plain.width() - rich.width()) / 2;
    painter->save();
    drawRichText(painter, QRectF(left, at.y(), rich.width(), plain.height()), mText, font, mainColor(),
                 lines & Qt::AlignLeft ? Qt::AlignLeft : Qt::AlignHCenter, mParentPlot);
    painter->restore();
}

void RichLegendItem::draw(QCPPainter* painter)
{
    if (!mPlottable || !hasRichScripts(mPlottable->name())) {
        QCPPlottableLegendItem::draw(painter);
        return;
    }
    const QString name = mPlottable->name();
    // The plain item with an empty name draws the icon and its border where it always does.
    mPlottable->setName(QString());
    QCPPlottableLegendItem::draw(painter);
    mPlottable->setName(name);
    const QSize icon = mParentLegend->iconSize();
    const QSizeF plain = plainTextSize(getFont(), name);
    const QSizeF rich = richTextSize(name, getFont());
    // Left-aligned and at the top of the item, like the plain names beside it. A subscript
    // reaches below a plain line: unclipped, it may use the row's margin and spacing.
    painter->save();
    painter->setClipping(false);
    drawRichText(painter,
                 QRectF(mRect.x() + icon.width() + mParentLegend->iconTextPadding(), mRect.y(), rich.width(),
                        plain.height()),
                 name, getFont(), getTextColor(), Qt::AlignHCenter, mParentPlot);
    painter->restore();
}

QSize RichLegendItem::minimumOuterSizeHint() const
{
    if (!mPlottable)
        return QCPPlottableLegendItem::minimumOuterSizeHint();
    const QSize icon = mParentLegend->iconSize();
    const QString key = QStringLiteral("legend%1x%2+%3,")
                            .arg(icon.width())
                            .arg(icon.height())
                            .arg(mParentLegend->iconTextPadding()) +
                        getFont().key() + QChar(0x1f) + marginsKey(mMargins) + QChar(0x1f) +
                        mPlottable->name();
    return remembered<QSize>(key, [this] { return QCPPlottableLegendItem::minimumOuterSizeHint(); });
}

} // namespace evx
