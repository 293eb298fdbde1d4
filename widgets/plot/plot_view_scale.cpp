// PlotView sizes: every length from the font size and the resolution, the tick count of each
// axis from the room it has, and the layout of an export for tests.
//
// The lengths in the build code are the ones the view was tuned with on screen (9 pt text on a
// 96 dpi screen, in pixels); len() scales them by (font pt / 9) x (units per pt / (96 / 72)).
// Fonts are sized in layout units (setPixelSize), not points: QCustomPlot lays text out with
// screen font metrics, which only match the page when the size is given in its own units.

#include "plot/plot_view.h"

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

QSizeF textSize(const QFont& font, const QString& text)
{
    return QFontMetricsF(font).boundingRect(QRectF(), Qt::TextDontClip | Qt::AlignCenter, text).size();
}

// `text` broken at spaces into lines no wider than `width`; a word longer than that stays whole.
QString wrapText(const QString& text, const QFont& font, double width)
{
    const QFontMetricsF metrics(font);
    if (text.isEmpty() || metrics.horizontalAdvance(text) <= width)
        return text;
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
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

double longestWord(const QString& text, const QFont& font)
{
    const QFontMetricsF metrics(font);
    double longest = 0;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        longest = std::max(longest, metrics.horizontalAdvance(word));
    return longest;
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
    axis->grid()->setPen(QPen(QColor(0, 0, 0, 28), len(1), Qt::SolidLine));
    axis->grid()->setZeroLinePen(QPen(QColor(0, 0, 0, 60), len(1), Qt::SolidLine));
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
    QCPLayoutGrid* layout = m_plot->plotLayout();
    layout->update(QCPLayoutElement::upPreparation);
    layout->update(QCPLayoutElement::upMargins);
    layout->update(QCPLayoutElement::upLayout);
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
    bool changed = false;
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
                const QSizeF size = textSize(font, labels[i]);
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
    auto setLabel = [&](QCPAxis* axis, const std::string& text, double room, bool shown) {
        const QString wrapped =
            shown ? wrapText(QString::fromStdString(text), axis->labelFont(), room) : QString();
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
        // A frame is at least as long as the longest word of its axis labels.
        const QSize least(
            std::max(
                ilen(60),
                int(std::ceil(longestWord(QString::fromStdString(plot.xLabel), xAxis->labelFont()) + em))),
            std::max(
                ilen(45),
                int(std::ceil(longestWord(QString::fromStdString(plot.yLabel), yAxis->labelFont()) + em))));
        if (items.rect->minimumSize() != least) {
            items.rect->setMinimumSize(least);
            changed = true;
        }
        const QSizeF room = labelRoom(i);
        setLabel(xAxis, plot.xLabel, room.width(), !items.xShared);
        setLabel(yAxis, plot.yLabel, room.height(), !items.yShared && !items.bareDensity);
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
                    const QString wrapped =
                        wrapText(QString::fromStdString(plot.heatMaps[std::size_t(map)].name),
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
        // neighbour is close, addMarkers) and misses the names already placed and the curves,
        // else on a side where it misses the names only, else it is left out. Placed from the
        // right, where names must turn left.
        std::vector<QCPItemText*> labels;
        for (QCPAbstractItem* item : items.markerItems)
            if (auto* label = qobject_cast<QCPItemText*>(item))
                labels.push_back(label);
        std::stable_sort(labels.begin(), labels.end(), [](QCPItemText* a, QCPItemText* b) {
            return a->position->pixelPosition().x() > b->position->pixelPosition().x();
        });
        std::vector<QRectF> placed;
        const QRect frame = items.rect->rect();
        for (QCPItemText* label : labels) {
            const QSizeF text = textSize(label->font(), label->text());
            const QMarginsF pad(label->padding());
            const double width = text.width() + pad.left() + pad.right();
            const double height = text.height() + pad.top() + pad.bottom();
            const QPointF at = label->position->pixelPosition();
            const bool wantsRight = label->property("evxPreferLeft").toBool() == false;
            auto free = [&](bool right, bool ofCurves) {
                const QRectF box(right ? at.x() : at.x() - width, at.y(), width, height);
                if (right ? box.right() > frame.right() : box.left() < frame.left())
                    return false;
                if (ofCurves && coversCurve(int(plotIndex), box))
                    return false;
                return std::none_of(placed.begin(), placed.end(),
                                    [&](const QRectF& r) { return r.intersects(box); });
            };
            bool fits = false, onRight = wantsRight;
            for (const bool ofCurves : {true, false}) {
                for (const bool right : {wantsRight, !wantsRight}) {
                    if (!fits && free(right, ofCurves)) {
                        fits = true;
                        onRight = right;
                    }
                }
            }
            if (fits)
                placed.emplace_back(onRight ? at.x() : at.x() - width, at.y(), width, height);
            const Qt::Alignment alignment = Qt::AlignTop | (onRight ? Qt::AlignLeft : Qt::AlignRight);
            if (label->visible() != fits || label->positionAlignment() != alignment) {
                label->setVisible(fits);
                label->setPositionAlignment(alignment);
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

// The width a plot's cell may take: its share of the page (a long title or legend would
// otherwise widen its column past the page), less the colour scales beside the frame.
double PlotView::columnRoom(const PlotItems& items) const
{
    const QCPLayoutGrid* grid = m_plot->plotLayout();
    const int columns = std::max(1, grid->columnCount());
    const double share =
        (m_plot->viewport().width() - (columns - 1) * grid->columnSpacing()) / double(columns);
    const double cell = items.cell->outerRect().width();
    const double beside = cell - items.rect->outerRect().width();
    return std::min(cell, share) - beside;
}

// How long an axis label may be: its frame's length, or in a grid that names its cells (the
// outer labels of a corner plot) the distance to the neighbouring frames, less a gap.
QSizeF PlotView::labelRoom(std::size_t index) const
{
    const QRect frame = m_plots[index].rect->rect();
    if (!hasExplicitGrid())
        return frame.size();
    const QRect page = m_plot->viewport();
    const double em = m_scale.fontPt * m_scale.unitsPerPt;
    const QPointF centre = QRectF(frame).center();
    double across = 2 * std::min(centre.x() - page.left(), page.right() - centre.x());
    double down = 2 * std::min(centre.y() - page.top(), page.bottom() - centre.y());
    for (const PlotItems& other : m_plots) {
        const QPointF c = QRectF(other.rect->rect()).center();
        if (std::abs(c.y() - centre.y()) < 1 && std::abs(c.x() - centre.x()) >= 1)
            across = std::min(across, std::abs(c.x() - centre.x()));
        if (std::abs(c.x() - centre.x()) < 1 && std::abs(c.y() - centre.y()) >= 1)
            down = std::min(down, std::abs(c.y() - centre.y()));
    }
    return {std::max<double>(frame.width(), across - em), std::max<double>(frame.height(), down - em)};
}

// In a grid that names its cells every frame gets the same size: the columns and rows with
// labels in their margins get that much more of the page.
bool PlotView::equaliseGridCells()
{
    if (!hasExplicitGrid() || m_plots.empty())
        return false;
    QCPLayoutGrid* grid = m_plot->plotLayout();
    const int columns = grid->columnCount(), rows = grid->rowCount();
    std::vector<double> across(std::size_t(columns), 0.0), down(std::size_t(rows), 0.0);
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        const QMargins m = m_plots[i].rect->margins();
        const Plot& p = m_figure.plots[i];
        across[std::size_t(p.column)] = std::max(across[std::size_t(p.column)], double(m.left() + m.right()));
        down[std::size_t(p.row)] = std::max(down[std::size_t(p.row)], double(m.top() + m.bottom()));
    }
    auto factors = [](const std::vector<double>& margins, double total) {
        double sum = 0;
        for (double m : margins)
            sum += m;
        const double frame = std::max(1.0, (total - sum) / double(margins.size()));
        QList<double> f;
        for (double m : margins)
            f << m + frame;
        return f;
    };
    const QRect view = m_plot->viewport();
    const QList<double> c = factors(across, view.width() - (columns - 1) * grid->columnSpacing());
    const QList<double> r = factors(down, view.height() - (rows - 1) * grid->rowSpacing());
    auto differ = [](const QList<double>& a, const QList<double>& b) {
        if (a.size() != b.size())
            return true;
        for (qsizetype i = 0; i < a.size(); ++i)
            if (std::abs(a[i] - b[i]) > 0.5)
                return true;
        return false;
    };
    const bool changed = differ(c, grid->columnStretchFactors()) || differ(r, grid->rowStretchFactors());
    if (changed) {
        grid->setColumnStretchFactors(c);
        grid->setRowStretchFactors(r);
    }
    return changed;
}

void PlotView::layOutForSize()
{
    // Each step changes the room of the others a little (a wrapped title lowers the plot, a
    // legend below it shortens it, fewer ticks narrow the margin): three rounds settle it.
    for (int pass = 0; pass < 3; ++pass) {
        layOut();
        applyLocksOrFit();
        layOut();
        fitToRoom();
    }
    m_placedFor = m_plot->viewport().size();
}

double PlotView::naturalHeightMm(const Figure& figure, double widthMm, double fontPt)
{
    const double em = fontPt * PrintSize::kMmPerInch / PrintSize::kPointsPerInch;
    const int count = static_cast<int>(figure.plots.size());
    if (count == 0)
        return 0.75 * widthMm;
    int rows = 0, columns = 0;
    bool explicitGrid = true;
    for (const Plot& p : figure.plots) {
        explicitGrid = explicitGrid && p.row >= 0 && p.column >= 0;
        rows = std::max(rows, p.row + 1);
        columns = std::max(columns, p.column + 1);
    }
    const double margin = 5 * em;  // y tick labels and label beside a frame
    const double under = 3.5 * em; // x tick labels and label below it
    if (explicitGrid)              // square frames; the shared axes label only the outer edge
        return std::min((widthMm - margin) * rows / columns + under + em,
                        std::max(kMaxNaturalHeightMm, widthMm));
    columns = count > 3 && widthMm >= kTwoColumnEms * em ? 2 : 1;
    rows = (count + columns - 1) / columns;
    const double cell = widthMm / columns;
    // Rough text widths (0.55 em a character) tell how many lines a title wraps to and
    // whether a legend goes below its frame (PlotView::placeLegend).
    std::vector<double> rowHeight(std::size_t(rows), 0.0);
    for (int i = 0; i < count; ++i) {
        const Plot& p = figure.plots[std::size_t(i)];
        const double frame = std::max(0.6 * (cell - margin), 12 * em);
        double height = frame + under;
        if (p.showTitle && !p.title.empty())
            height += 1.3 * 1.2 * em * std::ceil(0.6 * 1.2 * em * double(p.title.size()) / cell);
        std::size_t entries = 0, longest = 0;
        for (const Series& s : p.series) {
            ++entries;
            longest = std::max(longest, s.name.size());
        }
        for (const Band& b : p.bands) {
            ++entries;
            longest = std::max(longest, b.name.size());
        }
        const double legendWidth = (0.55 * double(longest) + 4) * em;
        if (entries > 0 && (1.3 * em * double(entries) > 0.35 * frame || legendWidth > 0.6 * cell)) {
            const double perRow = std::max(1.0, std::floor(cell / legendWidth));
            height += 1.3 * em * std::ceil(double(entries) / perRow);
        }
        rowHeight[std::size_t(i / columns)] = std::max(rowHeight[std::size_t(i / columns)], height);
    }
    double total = 0;
    for (double h : rowHeight)
        total += h;
    return std::min(total, std::max(kMaxNaturalHeightMm, widthMm));
}

} // namespace evx
