// PlotView sizes: every length from the font size and the resolution, the tick count of each
// axis from the room it has, and the layout of an export for tests.
//
// The lengths in the build code are the ones the view was tuned with on screen (9 pt text on a
// 96 dpi screen, in pixels); len() scales them by (font pt / 9) x (units per pt / (96 / 72)).
// Fonts are sized in layout units (setPixelSize), not points: QCustomPlot lays text out with
// screen font metrics, which only match the page when the size is given in its own units.

#include "plot/plot_view.h"
#include "plot/rich_text.h"

#include "plot/plot_view_style.h"

#include <qcustomplot.h>

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <limits>

namespace evx {

namespace {

constexpr double kReferenceFontPt = PlotView::kScreenFontPt;
constexpr double kReferenceUnitsPerPt = PrintSize::kScreenDpi / PrintSize::kPointsPerInch;
constexpr double kLabelFont = 1.1; // axis labels, relative to the tick labels
constexpr int kMaxTicks = 5;       // QCustomPlot's default; enough on a large plot

// `text` broken at spaces into lines no wider than `width`; a word longer than that stays whole.
QString wrapText(const QString& text, const QFont& font, double width)
{
    const QFontMetricsF metrics(font);
    if (text.isEmpty() || metrics.horizontalAdvance(text) <= width)
        return text;
    QStringList lines;
    QString line;
    for (const QString& word : wrapWords(text)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    lines << line;
    return lines.join(QLatin1Char('\n'));
}

// `text` wrapped as wrapText does when every word fits `width`; else (a frame shorter than a
// word of its y label, on a page too short for the figure) on one line, cut to `width` with an
// ellipsis: the drawing keeps to its frame, the figure's JSON and CSV keep the whole label. A
// word with scripts is cut only whole, so that no half of its markup shows.
QString fitText(const QString& text, const QFont& font, double width)
{
    // Measured as the label's box is (plainTextSize), a little wider than the advance.
    const QFontMetricsF metrics(font);
    const double slack = std::max(0.0, plainTextSize(font, text).width() - metrics.horizontalAdvance(text));
    const QString wrapped = wrapText(text, font, width - slack);
    if (plainTextSize(font, wrapped).width() <= width)
        return wrapped;
    const QString ellipsis(QChar(0x2026));
    QStringList words = wrapWords(text);
    while (!words.isEmpty()) {
        const QString last = words.takeLast();
        const QString before = words.isEmpty() ? QString() : words.join(QLatin1Char(' ')) + QLatin1Char(' ');
        if (!hasRichScripts(last)) {
            // Cut inside the last word; only there, since an earlier one may have scripts.
            const QString cut = metrics.elidedText(before + last, Qt::ElideRight, width - slack);
            if (cut.size() > before.size() + 1 && cut.startsWith(before))
                return cut;
        }
        if (!words.isEmpty() && plainTextSize(font, before + ellipsis).width() <= width)
            return before + ellipsis;
    }
    return {};
}

} // namespace

PlotView::Scale PlotView::screenScale() const
{
    return {kScreenFontPt * m_fontScale, logicalDpiY() / PrintSize::kPointsPerInch};
}

double PlotView::len(double screenPixels) const
{
    return screenPixels * (m_scale.fontPt / kReferenceFontPt) * (m_scale.unitsPerPt / kReferenceUnitsPerPt);
}

int PlotView::ilen(double screenPixels) const
{
    return int(std::lround(len(screenPixels)));
}

QFont PlotView::textFont(double relativeSize, bool bold) const
{
    QFont f(font());
    f.setPixelSize(std::max(1, int(std::lround(relativeSize * m_scale.fontPt * m_scale.unitsPerPt))));
    f.setBold(bold);
    return f;
}

void PlotView::styleAxis(QCPAxis* axis) const
{
    axis->setLabelFont(textFont(kLabelFont));
    axis->setTickLabelFont(textFont(1.0));
    axis->setLabelPadding(ilen(4));
    // Below the frame, tick labels start under the lowest y tick label, which is centred on the
    // frame's corner: the two never touch there.
    axis->setTickLabelPadding(ilen(axis->axisType() == QCPAxis::atBottom ? 7.5 : 4));
    axis->setPadding(ilen(5));
    axis->setTickLength(ilen(5), 0);
    axis->setSubTickLength(ilen(2), 0);
    const QPen pen(Qt::black, len(1), Qt::SolidLine, Qt::SquareCap);
    axis->setBasePen(pen);
    axis->setTickPen(pen);
    axis->setSubTickPen(pen);
    const bool high = m_theme == Theme::HighContrast; // a faint grid vanishes on a projector
    axis->grid()->setPen(QPen(QColor(0, 0, 0, high ? 70 : 28), len(1), Qt::SolidLine));
    axis->grid()->setZeroLinePen(QPen(QColor(0, 0, 0, high ? 130 : 60), len(1), Qt::SolidLine));
}

void PlotView::setTheme(Theme theme)
{
    if (theme == m_theme)
        return;
    captureLockedRanges();
    m_theme = theme;
    rebuild(); // every element is made in the new theme, as for a new figure
    applyLocksOrFit();
}

void PlotView::setFontScale(double scale)
{
    if (!(scale > 0) || scale == m_fontScale)
        return;
    m_fontScale = scale;
    setScale(screenScale());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    updateGeometry(); // rows need more height at a larger text
}

void PlotView::setScale(const Scale& scale)
{
    if (scale == m_scale)
        return;
    captureLockedRanges();
    m_scale = scale;
    rebuild(); // every element is made at the new sizes, as for a new figure
    applyLocksOrFit();
}

void PlotView::layOut()
{
    // QCustomPlot rounds each row's (and column's) share of its grid to whole units on its own
    // (QCPLayout::getSectionSizes), so n rows may end up to n/2 units past their grid: the last
    // legend of a long column figure a quarter point or two off the page. What passes the page
    // is taken back as a margin of the outer grid and the layout computed again, so that the
    // figure ends within the page exactly (no more than the rounding: a page too short for the
    // figure's least sizes is squeezed by QCustomPlot, not by this).
    QCPLayoutGrid* layout = m_plot->plotLayout();
    const QRect page = m_plot->viewport();
    const int maxTaken = 4 * (layout->rowCount() + layout->columnCount());
    QMargins taken;
    layout->setMargins(taken);
    for (int round = 0; round < 4; ++round) {
        layout->update(QCPLayoutElement::upPreparation);
        layout->update(QCPLayoutElement::upMargins);
        layout->update(QCPLayoutElement::upLayout);
        int right = page.x() + page.width(), bottom = page.y() + page.height();
        for (const QCPLayoutElement* element : layout->elements(true)) {
            if (!element)
                continue;
            const QRect r = element->outerRect();
            right = std::max(right, r.x() + r.width());
            bottom = std::max(bottom, r.y() + r.height());
        }
        const int overX = right - (page.x() + page.width()), overY = bottom - (page.y() + page.height());
        if ((overX == 0 && overY == 0) || taken.right() + overX > maxTaken ||
            taken.bottom() + overY > maxTaken)
            break;
        taken += QMargins(0, 0, overX, overY);
        layout->setMargins(taken);
    }
}

// Tick counts: the most ticks (up to QCustomPlot's default of five) whose labels, as the
// ticker would write them for the axis's range, stand apart by a gap of about one em.
// Labels and titles: broken into lines as long as their axis or cell. Corner plots: tick
// labels a neighbour below or to the left already shows are left out.
bool PlotView::coversCurve(int plotIndex, const QRectF& box) const
{
    const Plot& plot = m_figure.plots[static_cast<std::size_t>(plotIndex)];
    const PlotItems& items = m_plots[static_cast<std::size_t>(plotIndex)];
    const QCPAxis* xAxis = items.rect->axis(QCPAxis::atBottom);
    const QCPAxis* yAxis = items.rect->axis(QCPAxis::atLeft);
    for (const Entry& e : items.entries) {
        if (e.isBand || m_hidden.contains(keyFor(plotIndex, e.name)))
            continue;
        const Series& s = plot.series[static_cast<std::size_t>(e.source)];
        const std::size_t n = std::min(s.x.size(), s.y.size());
        QPointF last(std::nan(""), std::nan(""));
        for (std::size_t k = 0; k < n; ++k) {
            const QPointF at(xAxis->coordToPixel(s.x[k]), yAxis->coordToPixel(s.y[k]));
            if (!std::isfinite(at.x()) || !std::isfinite(at.y())) {
                last = QPointF(std::nan(""), std::nan(""));
                continue;
            }
            if (box.contains(at))
                return true;
            // A segment of a line may cross the box between two points outside it.
            if (s.kind != SeriesKind::Scatter && std::isfinite(last.x())) {
                const int steps = int(std::min(64.0, QLineF(last, at).length() / 4));
                for (int t = 1; t < steps; ++t)
                    if (box.contains(last + (at - last) * (double(t) / steps)))
                        return true;
            }
            last = at;
        }
    }
    return false;
}

bool PlotView::fitToRoom()
{
    const double em = m_scale.fontPt * m_scale.unitsPerPt;
    bool changed = fitFrames();
    auto fitTicks = [&](QCPAxis* axis) {
        if (!axis || !axis->visible() || !axis->tickLabels() || !axis->axisRect())
            return;
        QCPAxisTicker* ticker = axis->ticker().data();
        const bool horizontal = axis->orientation() == Qt::Horizontal;
        const QFont font = axis->tickLabelFont();
        const QString format = axis->numberFormat();
        const int before = ticker->tickCount();
        int chosen = 1; // when even two labels collide, one
        for (int count = kMaxTicks; count > 1; --count) {
            ticker->setTickCount(count);
            QVector<double> ticks;
            QVector<QString> labels;
            ticker->generate(axis->range(), m_plot->locale(), format.isEmpty() ? QChar('g') : format.at(0),
                             axis->numberPrecision(), ticks, nullptr, &labels);
            double extent = 0, spacing = std::numeric_limits<double>::infinity(), last = std::nan("");
            for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
                if (!axis->range().contains(ticks[i]))
                    continue;
                const QSizeF size = plainTextSize(font, labels[i]);
                extent = std::max(extent, horizontal ? size.width() : size.height());
                const double at = axis->coordToPixel(ticks[i]);
                if (std::isfinite(last))
                    spacing = std::min(spacing, std::abs(at - last));
                last = at;
            }
            if (spacing >= extent + (horizontal ? 1.2 : 0.8) * em) {
                chosen = count;
                break;
            }
        }
        ticker->setTickCount(chosen);
        changed = changed || chosen != before;
    };
    // A y label is cut to its frame when a word of it is longer (fitText); an x label's word
    // may reach past a narrow corner cell instead ("eccentricity" at 89 mm), as the frames
    // beside it leave room below them.
    auto setLabel = [&](QCPAxis* axis, const std::string& text, double room, bool shown) {
        const QString whole = QString::fromStdString(text);
        const bool vertical = axis->orientation() == Qt::Vertical;
        const QString wrapped = !shown     ? QString()
                                : vertical ? fitText(whole, axis->labelFont(), room)
                                           : wrapText(whole, axis->labelFont(), room);
        if (axis->label() != wrapped || axis->tickLabels() != shown) {
            axis->setLabel(wrapped);
            axis->setTickLabels(shown);
            changed = true;
        }
    };
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        const PlotItems& items = m_plots[i];
        const Plot& plot = m_figure.plots[i];
        if (!items.rect)
            continue;
        QCPAxis* xAxis = items.rect->axis(QCPAxis::atBottom);
        QCPAxis* yAxis = items.rect->axis(QCPAxis::atLeft);
        const QSizeF room = labelRoom(i);
        setLabel(xAxis, plot.xLabel, room.width(), !items.xShared);
        // QCustomPlot centres a y label a unit above the frame's middle (axisLabelBox): two
        // units less keep it within the frame at both ends.
        setLabel(yAxis, plot.yLabel, room.height() - 2, !items.yShared && !items.bareDensity);
        fitTicks(xAxis);
        fitTicks(yAxis);
        if (!items.cell)
            continue;
        int map = 0;
        for (int k = 0; k < items.cell->elementCount(); ++k) {
            QCPLayoutElement* element = items.cell->elementAt(k);
            if (auto* scale = qobject_cast<QCPColorScale*>(element)) {
                while (map < int(plot.heatMaps.size()) && !items.maps[std::size_t(map)])
                    ++map;
                if (map < int(plot.heatMaps.size())) {
                    const QString wrapped = fitText(
                        richLabelPlainText(QString::fromStdString(plot.heatMaps[std::size_t(map)].name)),
                        scale->axis()->labelFont(), scale->axis()->axisRect()->rect().height());
                    if (scale->label() != wrapped) {
                        scale->setLabel(wrapped);
                        changed = true;
                    }
                }
                ++map;
                fitTicks(scale->axis());
            } else if (auto* title = qobject_cast<QCPTextElement*>(element)) {
                // The room is the cell's share of the page: a long title would otherwise widen
                // its cell past the page.
                const double room = columnRoom(items) - title->margins().left() - title->margins().right();
                const QString wrapped = wrapText(QString::fromStdString(plot.title), title->font(), room);
                if (title->text() != wrapped) {
                    title->setText(wrapped);
                    changed = true;
                }
            }
        }
    }
    for (std::size_t plotIndex = 0; plotIndex < m_plots.size(); ++plotIndex) {
        const PlotItems& items = m_plots[plotIndex];
        if (!items.rect)
            continue;
        // A marker's name goes on the side of its line where it fits (the right unless its
        // neighbour is close, addMarkers) and misses the names already placed, the curves and a
        // legend inside the frame: at the top of the line, else on either side lower down it (a
        // peak under the top of the line, as at C* in bnn-identifiability); else at the top on a
        // side where it misses the names only; else it is left out. Placed from the right, where
        // names must turn left.
        std::vector<QCPItemText*> labels;
        for (QCPAbstractItem* item : items.markerItems)
            if (auto* label = qobject_cast<QCPItemText*>(item))
                labels.push_back(label);
        std::stable_sort(labels.begin(), labels.end(), [](QCPItemText* a, QCPItemText* b) {
            return a->position->pixelPosition().x() > b->position->pixelPosition().x();
        });
        std::vector<QRectF> placed;
        const QRect frame = items.rect->rect();
        const QRectF legendBox =
            items.legend && items.legend->visible() && items.legend->layout() != items.cell
                ? QRectF(items.legend->outerRect())
                : QRectF();
        for (QCPItemText* label : labels) {
            const QSizeF text = plainTextSize(label->font(), label->text());
            const QMarginsF pad(label->padding());
            const double width = text.width() + pad.left() + pad.right();
            const double height = text.height() + pad.top() + pad.bottom();
            const double x = label->position->pixelPosition().x();
            const bool wantsRight = label->property("evxPreferLeft").toBool() == false;
            auto boxAt = [&](bool right, double top) {
                return QRectF(right ? x : x - width, top, width, height);
            };
            auto free = [&](bool right, double top, bool ofCurves) {
                const QRectF box = boxAt(right, top);
                if (right ? box.right() > frame.right() : box.left() < frame.left())
                    return false;
                if (ofCurves && (coversCurve(int(plotIndex), box) || legendBox.intersects(box)))
                    return false;
                return std::none_of(placed.begin(), placed.end(),
                                    [&](const QRectF& r) { return r.intersects(box); });
            };
            bool onRight = wantsRight;
            double top = frame.top();
            auto placeAt = [&](double y, bool ofCurves) {
                for (const bool right : {wantsRight, !wantsRight})
                    if (free(right, y, ofCurves)) {
                        onRight = right;
                        top = y;
                        return true;
                    }
                return false;
            };
            bool fits = false;
            const double lowest = frame.bottom() - height, step = std::max(1.0, frame.height() / 8.0);
            for (double y = frame.top(); !fits && y <= lowest; y += step)
                fits = placeAt(y, true);
            if (!fits)
                fits = placeAt(frame.top(), false);
            if (fits)
                placed.push_back(boxAt(onRight, top));
            const Qt::Alignment alignment = Qt::AlignTop | (onRight ? Qt::AlignLeft : Qt::AlignRight);
            const double ratio = frame.height() > 0 ? (top - frame.top()) / frame.height() : 0;
            if (label->visible() != fits || label->positionAlignment() != alignment ||
                std::abs(label->position->coords().y() - ratio) > 1e-9) {
                label->setVisible(fits);
                label->setPositionAlignment(alignment);
                label->position->setCoords(label->position->coords().x(), ratio);
                changed = true;
            }
        }
        // Names in a legend below its plot break into lines as long as a column of the legend
        // (fitLegendBelow) is wide: QCustomPlot clips, rather than wraps, a name too long.
        if (items.legend) {
            const bool below = items.legend->layout() == items.cell;
            const QMargins m = items.legend->margins();
            const int columns = below ? std::max(1, items.legend->columnCount()) : 1;
            const double entry = items.legend->iconSize().width() + items.legend->iconTextPadding();
            const double room = std::max(8 * em, (columnRoom(items) - m.left() - m.right() -
                                                  (columns - 1) * items.legend->columnSpacing()) /
                                                         columns -
                                                     entry);
            for (const Entry& e : items.entries) {
                if (!e.legendItem || e.plottables.empty())
                    continue;
                const QString name = below ? wrapText(e.name, items.legend->font(), room) : e.name;
                if (e.plottables.front()->name() != name) {
                    e.plottables.front()->setName(name);
                    changed = true;
                }
            }
        }
    }
    changed = equaliseGridCells() || changed;
    changed = fitCornerLegend() || changed;

    // An axis whose labels a neighbour shows ticks as that neighbour does (rows from the
    // bottom, columns from the left, so the neighbour is settled first).
    std::vector<std::size_t> order(m_plots.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    for (const bool x : {true, false}) {
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const Plot& p = m_figure.plots[a];
            const Plot& q = m_figure.plots[b];
            return x ? p.row > q.row : p.column < q.column;
        });
        for (std::size_t i : order) {
            if (!(x ? m_plots[i].xShared : m_plots[i].yShared))
                continue;
            const Plot& p = m_figure.plots[i];
            for (std::size_t j = 0; j < m_plots.size(); ++j) {
                const Plot& q = m_figure.plots[j];
                if (x ? (q.column == p.column && q.row == p.row + 1)
                      : (q.row == p.row && q.column == p.column - 1)) {
                    QCPAxis* mine = m_plots[i].rect->axis(x ? QCPAxis::atBottom : QCPAxis::atLeft);
                    QCPAxis* theirs = m_plots[j].rect->axis(x ? QCPAxis::atBottom : QCPAxis::atLeft);
                    if (mine->ticker()->tickCount() != theirs->ticker()->tickCount()) {
                        mine->ticker()->setTickCount(theirs->ticker()->tickCount());
                        changed = true;
                    }
                }
            }
        }
    }
    return changed;
}

void PlotView::layOutForSize()
{
    // Each step changes the room of the others a little (a wrapped title lowers the plot, a
    // legend below it shortens it, fewer ticks narrow the margin): three rounds settle it,
    // or up to five when the third still changed something (a heat map's frame that reached
    // its least aspect narrows its colour scale's label, which widens its title's room).
    for (int pass = 0; pass < 5; ++pass) {
        layOut();
        applyLocksOrFit();
        layOut();
        if (!fitToRoom() && pass >= 2)
            break;
    }
    m_placedFor = m_plot->viewport().size();
}

} // namespace evx
