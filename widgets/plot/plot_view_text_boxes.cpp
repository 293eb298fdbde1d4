// PlotView::textBoxes: where an export's text and legends land, measured as QCustomPlot's
// axis painter places them, for tests that nothing leaves the page or overlaps.

#include "plot/plot_view.h"
#include "plot/rich_text.h"

#include <qcustomplot.h>

#include <QFontMetricsF>

#include <algorithm>

namespace evx {

std::vector<PlotView::TextBox> PlotView::textBoxes() const
{
    std::vector<TextBox> boxes;
    boxes.push_back({QStringLiteral("page"), QRectF(m_plot->viewport())});
    auto name = [](std::size_t plot, const QString& what) {
        return QStringLiteral("plot %1 %2").arg(plot).arg(what);
    };
    auto axisBoxes = [&](QCPAxis* axis, const QString& prefix) {
        if (!axis || !axis->visible())
            return;
        const QRect r = axis->axisRect()->rect();
        const QFont tickFont = axis->tickLabelFont();
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        const bool bottom = axis->axisType() == QCPAxis::atBottom;
        const bool left = axis->axisType() == QCPAxis::atLeft;
        const bool right = axis->axisType() == QCPAxis::atRight;
        // Distance from the axis line to the tick labels, as QCustomPlot's axis painter adds it
        // (axisLabelBox adds the labels' depth for the axis label).
        const double toLabels = axis->offset() +
                                std::max(0, std::max(axis->tickLengthOut(), axis->subTickLengthOut())) +
                                axis->tickLabelPadding();
        if (axis->tickLabels()) {
            for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
                if (!axis->range().contains(ticks[i]))
                    continue;
                const QSizeF size = plainTextSize(tickFont, labels[i]);
                const double at = axis->coordToPixel(ticks[i]);
                QRectF box;
                if (bottom)
                    box = QRectF(at - size.width() / 2, r.bottom() + toLabels, size.width(), size.height());
                else if (left)
                    box = QRectF(r.left() - toLabels - size.width(), at - size.height() / 2, size.width(),
                                 size.height());
                else if (right)
                    box = QRectF(r.right() + toLabels, at - size.height() / 2, size.width(), size.height());
                else
                    continue;
                boxes.push_back({prefix + QStringLiteral(" tick ") + labels[i], box});
            }
        }
        if (axis->label().isEmpty())
            return;
        // Placed as the plain markup would be (RichAxis centres its drawing there), as large
        // as drawn.
        const QRectF plain = axisLabelBox(axis, plainTextSize(axis->labelFont(), axis->label()));
        const QSizeF drawn = richTextSize(axis->label(), axis->labelFont());
        QRectF box(QPointF(), bottom ? drawn : drawn.transposed());
        box.moveCenter(plain.center());
        boxes.push_back({prefix + QStringLiteral(" label"), box});
    };
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        const PlotItems& items = m_plots[i];
        if (!items.rect)
            continue;
        axisBoxes(items.rect->axis(QCPAxis::atBottom), name(i, QStringLiteral("x")));
        axisBoxes(items.rect->axis(QCPAxis::atLeft), name(i, QStringLiteral("y")));
        if (items.cell) {
            for (int k = 0; k < items.cell->elementCount(); ++k) {
                QCPLayoutElement* element = items.cell->elementAt(k);
                if (auto* scale = qobject_cast<QCPColorScale*>(element)) {
                    boxes.push_back(
                        {name(i, QStringLiteral("colour bar")), QRectF(scale->axis()->axisRect()->rect())});
                    axisBoxes(scale->axis(), name(i, QStringLiteral("colour scale")));
                } else if (auto* title = qobject_cast<QCPTextElement*>(element)) {
                    const QSizeF size = richTextSize(title->text(), title->font());
                    const QRect r = title->rect();
                    boxes.push_back(
                        {name(i, QStringLiteral("title")),
                         QRectF(r.center().x() - size.width() / 2, r.top(), size.width(), size.height())});
                }
            }
        }
        for (QCPAbstractItem* item : items.markerItems) {
            auto* label = qobject_cast<QCPItemText*>(item);
            if (!label || !label->visible())
                continue;
            const QSizeF size = plainTextSize(label->font(), label->text()) +
                                QSizeF(label->padding().left() + label->padding().right(),
                                       label->padding().top() + label->padding().bottom());
            const QPointF at = label->position->pixelPosition();
            const Qt::Alignment a = label->positionAlignment();
            const double left = a & Qt::AlignRight     ? at.x() - size.width()
                                : a & Qt::AlignHCenter ? at.x() - size.width() / 2
                                                       : at.x();
            boxes.push_back(
                {name(i, QStringLiteral("marker ")) + label->text(), QRectF(QPointF(left, at.y()), size)});
        }
    }
    int legendIndex = 0;
    for (QCPLegend* legend : legends()) {
        if (!legend->visible() || legend->itemCount() == 0)
            continue;
        // What the legend draws: in a grid cell (below a plot) the element spans the cell, but
        // its entries only their own width.
        const QRect outer = legend->outerRect();
        const QMargins m = legend->margins();
        const QSize used = legend->minimumOuterSizeHint();
        const bool inGrid = !qobject_cast<QCPLayoutInset*>(legend->layout());
        // A corner plot's legend in its own cell is named, so that a test can keep it off the frames.
        const bool corner = legend == m_sharedLegend && cornerLegendHost();
        boxes.push_back(
            {corner ? QStringLiteral("corner legend") : QStringLiteral("legend %1").arg(legendIndex++),
             inGrid ? QRectF(outer.left() + m.left(), outer.top() + m.top(),
                             used.width() - m.left() - m.right(), used.height() - m.top() - m.bottom())
                    : QRectF(outer)});
    }
    for (std::size_t i = 0; i < m_plots.size(); ++i)
        if (m_plots[i].rect)
            boxes.push_back({name(i, QStringLiteral("frame")), QRectF(m_plots[i].rect->rect())});
    if (qEnvironmentVariableIsSet("EVX_DEBUG_LAYOUT"))
        for (std::size_t i = 0; i < m_plots.size(); ++i)
            qDebug("plot %zu frame %d %d %d %d min %d %d", i, m_plots[i].rect->rect().x(),
                   m_plots[i].rect->rect().y(), m_plots[i].rect->rect().width(),
                   m_plots[i].rect->rect().height(), m_plots[i].rect->minimumSize().width(),
                   m_plots[i].rect->minimumSize().height());
    return boxes;
}

} // namespace evx
