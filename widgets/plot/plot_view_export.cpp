// PlotView export: raster and vector files rendered offscreen at a chosen size.

#include "plot/plot_view.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QSvgGenerator>

namespace evx {

// While alive, the plot shows what belongs in an exported figure: no hover read-out and no
// legend entries of hidden series. On destruction everything is put back and the on-screen
// layout, which the export computed at the export size, is queued to be recomputed.
class PlotView::ExportScope {
public:
    explicit ExportScope(PlotView& view)
        : m_view(view)
        , m_overlayVisible(view.m_overlay->visible())
    {
        m_view.m_overlay->setVisible(false);
        for (std::size_t i = 0; i < m_view.m_plots.size(); ++i) {
            PlotItems& p = m_view.m_plots[i];
            if (!p.legend)
                continue;
            m_legendVisible.push_back(p.legend->visible());
            bool changed = false;
            for (Entry& e : p.entries) {
                if (e.legendItem && m_view.m_hidden.contains(m_view.keyFor(static_cast<int>(i), e.name))) {
                    p.legend->take(e.legendItem);
                    e.legendItem->setVisible(false);  // a taken layerable would still be drawn
                    changed = true;
                }
            }
            if (changed) {
                p.legend->simplify();
                p.legend->setVisible(p.legend->itemCount() > 0 && p.legend->visible());
            }
        }
    }

    ~ExportScope()
    {
        m_view.m_overlay->setVisible(m_overlayVisible);
        std::size_t k = 0;
        for (PlotItems& p : m_view.m_plots) {
            if (!p.legend)
                continue;
            bool taken = false;
            for (const Entry& e : p.entries)
                taken = taken || (e.legendItem && !p.legend->hasItem(e.legendItem));
            if (taken) {
                // Re-add every item so the legend order stays the entry order.
                for (const Entry& e : p.entries) {
                    if (e.legendItem && p.legend->hasItem(e.legendItem))
                        p.legend->take(e.legendItem);
                }
                p.legend->simplify();
                for (const Entry& e : p.entries) {
                    if (e.legendItem) {
                        p.legend->addItem(e.legendItem);
                        e.legendItem->setVisible(true);
                    }
                }
            }
            p.legend->setVisible(m_legendVisible[k++]);
        }
        m_view.m_plot->replot(QCustomPlot::rpQueuedReplot);
    }

    ExportScope(const ExportScope&) = delete;
    ExportScope& operator=(const ExportScope&) = delete;

private:
    PlotView& m_view;
    bool m_overlayVisible;
    std::vector<bool> m_legendVisible;
};

QImage PlotView::toImage(int width, int height)
{
    if (width <= 0 || height <= 0)
        return {};
    ExportScope scope(*this);
    return m_plot->toPixmap(width, height).toImage();
}

bool PlotView::savePng(const QString& path, int width, int height)
{
    if (width <= 0 || height <= 0)
        return false;
    ExportScope scope(*this);
    return m_plot->savePng(path, width, height);
}

bool PlotView::savePdf(const QString& path, int width, int height)
{
    if (width <= 0 || height <= 0)
        return false;
    ExportScope scope(*this);
    // Non-cosmetic pens: line widths scale with the page like everything else.
    return m_plot->savePdf(path, width, height, QCP::epNoCosmetic, QStringLiteral("Evidence Explorer"));
}

bool PlotView::saveSvg(const QString& path, int width, int height)
{
    if (width <= 0 || height <= 0)
        return false;
    ExportScope scope(*this);
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(QSize(width, height));
    generator.setViewBox(QRect(0, 0, width, height));
    generator.setResolution(96);  // CSS pixels: browsers and Inkscape show width x height px
    generator.setTitle(QStringLiteral("Evidence Explorer figure"));
    QCPPainter painter;
    if (!painter.begin(&generator))
        return false;
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNonCosmetic);
    m_plot->toPainter(&painter, width, height);
    return painter.end() && QFileInfo(path).size() > 0;
}

}  // namespace evx
