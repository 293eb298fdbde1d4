// PlotView room: how much of the page each part of the figure gets. The frames' least sizes
// (and what they give up on a page too short for the figure's text), the width a cell and an
// axis label may take, equal frames in a grid that names its cells, and the natural height of
// an export asked for by width only.

#include "plot/plot_view.h"
#include "plot/rich_text.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <map>

namespace evx {

namespace {

double longestWord(const QString& text, const QFont& font)
{
    const QFontMetricsF metrics(font);
    double longest = 0;
    for (const QString& word : wrapWords(text))
        longest = std::max(longest, metrics.horizontalAdvance(word));
    return longest;
}

} // namespace

bool PlotView::fitFrames()
{
    // A frame is at least as long as the longest word of its axis labels.
    const double em = m_scale.fontPt * m_scale.unitsPerPt;
    std::vector<QSize> least(m_plots.size()), before(m_plots.size());
    std::vector<int> floor(m_plots.size(), 0);
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        const PlotItems& items = m_plots[i];
        const Plot& plot = m_figure.plots[i];
        if (!items.rect)
            continue;
        before[i] = items.rect->minimumSize();
        const QFont xFont = items.rect->axis(QCPAxis::atBottom)->labelFont();
        const QFont yFont = items.rect->axis(QCPAxis::atLeft)->labelFont();
        least[i] = QSize(
            std::max(ilen(60), int(std::ceil(longestWord(QString::fromStdString(plot.xLabel), xFont) + em))),
            std::max(ilen(45), int(std::ceil(longestWord(QString::fromStdString(plot.yLabel), yFont) + em))));
        floor[i] = int(std::ceil(kLeastFrameEmsShort * em));
        items.rect->setMinimumSize(least[i]);
    }
    // Where the page affords it, a flowing plot's frame is at least kLeastFrameAspect times as
    // high as wide (as wide as the last layout made it): QCustomPlot shares a page's height
    // equally between its rows, and a row with a legend below its frame would get a flat frame
    // while the rows beside it have room to spare.
    // Failing that, every frame as high as the page affords up to kLeastFrameEms ems, the height
    // the screen view asks for per row (minimumSizeHint): a wide, short window
    // (bnn-identifiability at 1280 x 720) otherwise left the plot with a legend below a 45 px
    // frame while the frames above and below it had twice that.
    const QCPLayoutGrid* page = m_plot->plotLayout();
    if (!hasExplicitGrid()) {
        auto affords = [&](auto height) {
            std::vector<QSize> want = least;
            for (std::size_t i = 0; i < m_plots.size(); ++i) {
                if (!m_plots[i].rect)
                    continue;
                want[i].setHeight(std::max(least[i].height(), height(m_plots[i].rect->rect().width())));
                m_plots[i].rect->setMinimumSize(want[i]);
            }
            if (page->minimumOuterSizeHint().height() > m_plot->viewport().height())
                return false;
            least = want;
            return true;
        };
        const int most = int(std::ceil(kLeastFrameEms * em));
        if (!affords([](int wide) { return int(std::ceil(kLeastFrameAspect * wide)); }) &&
            !affords([most](int) { return most; })) {
            // The most the page affords: each trial lays out the page's least size, so only when
            // the 7 ems do not fit (a few trials per layout of a short window).
            for (int lo = 0, hi = most; hi - lo > 1;) {
                const int mid = (lo + hi) / 2;
                if (affords([mid](int) { return mid; }))
                    lo = mid;
                else
                    hi = mid;
            }
        }
        for (std::size_t i = 0; i < m_plots.size(); ++i)
            if (m_plots[i].rect)
                m_plots[i].rect->setMinimumSize(least[i]);
    }
    // A page too short for the figure's text (a column figure of many plots, with titles and
    // legends below the frames) takes the shortage from the frames, down to kLeastFrameEmsShort
    // ems (a long y label may then pass its frame; the legends and titles stay legible): QCustomPlot would
    // shrink every row in proportion to its least height, text and all, and lines of a legend or a title
    // would run into each other.
    // Every frame gives up the same `cut`, or all it has above its floor: the least cut whose
    // rows together give the shortage (a row of plots side by side gives what its frame with the
    // least to spare gives).
    const int shortage = page->minimumOuterSizeHint().height() - m_plot->viewport().height();
    int cut = 0;
    if (shortage > 0 && !hasExplicitGrid()) {
        const int columns = std::max(1, m_builtFlowColumns);
        std::map<std::size_t, int> spare; // by row of the page
        for (std::size_t i = 0; i < m_plots.size(); ++i) {
            if (!m_plots[i].rect)
                continue;
            const int mine = std::max(0, least[i].height() - floor[i]);
            const auto [at, fresh] = spare.emplace(i / std::size_t(columns), mine);
            if (!fresh)
                at->second = std::min(at->second, mine);
        }
        int most = 0;
        for (const auto& [row, room] : spare)
            most = std::max(most, room);
        auto given = [&](int c) {
            int sum = 0;
            for (const auto& [row, room] : spare)
                sum += std::min(c, room);
            return sum;
        };
        cut = most;
        for (int lo = 0, hi = most; lo <= hi;) { // the least cut that gives the shortage
            const int mid = (lo + hi) / 2;
            if (given(mid) >= shortage) {
                cut = mid;
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
    }
    bool changed = false;
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        QCPAxisRect* rect = m_plots[i].rect;
        if (!rect)
            continue;
        QSize want = least[i];
        want.setHeight(std::max(std::min(floor[i], want.height()), want.height() - cut));
        rect->setMinimumSize(want);
        changed = changed || want != before[i];
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
    // A grid whose cells carry titles has a title above every frame: a y label taller than
    // its frame would run into one, so it keeps to the frame (bnn-uncertainty at 89 mm).
    const bool titled = std::any_of(m_figure.plots.begin(), m_figure.plots.end(),
                                    [](const Plot& p) { return p.showTitle && !p.title.empty(); });
    if (titled)
        down = frame.height();
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

double PlotView::naturalHeightMm(const Figure& figure, double widthMm, double fontPt)
{
    // The estimate is a floor (what the figure always got); a page whose frames it leaves
    // short of kLeastFrameAspect grows by what they lack, measured on the figure laid out at
    // that size. A grown frame moves no other row's text, so a few rounds settle it.
    double height = estimatedHeightMm(figure, widthMm, fontPt);
    // Without a QApplication (the command line's parser) there is no text to measure.
    if (figure.plots.empty() || !(widthMm > 0) || !(fontPt > 0) ||
        !qobject_cast<QApplication*>(QCoreApplication::instance()))
        return height;
    PlotView view;
    view.setFigure(figure);
    auto grown = [&](double from, double aspect, double most) {
        for (int round = 0; round < 8 && from < most; ++round) {
            const double lacking =
                view.framesLackMm(PrintSize{widthMm, from, fontPt, PrintSize::kScreenDpi}, aspect);
            if (lacking <= 0)
                break;
            from = std::min(most, from + lacking);
        }
        return from;
    };
    // Flatter frames only to keep the figure on one page: a figure too tall for a page at
    // either aspect keeps the roomier frames.
    const double page = std::max(height, kMaxNaturalHeightMm);
    const double roomy = grown(height, kLeastFrameAspect, page);
    if (roomy < page || grown(page, kLeastPageFrameAspect, page + 1) <= page)
        return roomy;
    return grown(roomy, kLeastFrameAspect, kMaxGrownHeightMm);
}

// What the frames lack in height (layout units) as laid out now: the rows of the page summed.
double PlotView::framesLack(double aspect) const
{
    const double em = m_scale.fontPt * m_scale.unitsPerPt;
    // Plots side by side share a row of the page: the row grows by what its shortest frame lacks.
    std::map<int, double> lackByRow;
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        const PlotItems& items = m_plots[i];
        if (!items.rect)
            continue;
        const QRect frame = items.rect->rect();
        const QCPAxis* yAxis = items.rect->axis(QCPAxis::atLeft);
        const double label =
            yAxis->label().isEmpty()
                ? 0
                : longestWord(QString::fromStdString(m_figure.plots[i].yLabel), yAxis->labelFont()) + em;
        const double want = std::max(aspect * frame.width(), label);
        const QCPLayoutElement* row =
            items.cell ? static_cast<const QCPLayoutElement*>(items.cell) : items.rect;
        double& lack = lackByRow[row->outerRect().top()];
        lack = std::max(lack, want - frame.height());
    }
    double total = 0;
    for (const auto& [top, lack] : lackByRow)
        total += std::ceil(
            std::max(0.0, lack)); // whole units: a page a fraction taller may round to the same canvas
    return total;
}

double PlotView::estimatedHeightMm(const Figure& figure, double widthMm, double fontPt)
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
