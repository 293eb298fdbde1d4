// PlotView export: raster and vector files rendered offscreen at a chosen size.

#include "plot/plot_view.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <memory>

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
        for (QCPLegend* legend : m_view.legends()) {
            Saved saved{legend, {}, legend->visible()};
            for (int i = 0; i < legend->itemCount(); ++i)
                saved.items.push_back(legend->item(i));
            m_saved.push_back(std::move(saved));
        }
        for (std::size_t i = 0; i < m_view.m_plots.size(); ++i) {
            for (Entry& e : m_view.m_plots[i].entries) {
                if (!e.legendItem || !m_view.m_hidden.contains(m_view.keyFor(static_cast<int>(i), e.name)))
                    continue;
                QCPLegend* legend = e.legendItem->parentLegend();
                legend->take(e.legendItem);
                e.legendItem->setVisible(false);  // a taken layerable would still be drawn
                legend->simplify();
                legend->setVisible(legend->itemCount() > 0 && legend->visible());
            }
        }
    }

    ~ExportScope()
    {
        m_view.m_overlay->setVisible(m_overlayVisible);
        for (const Saved& saved : m_saved) {
            if (saved.legend->itemCount() != static_cast<int>(saved.items.size())) {
                // Re-add every item so the legend keeps its order.
                for (QCPAbstractLegendItem* item : saved.items) {
                    if (saved.legend->hasItem(item))
                        saved.legend->take(item);
                }
                saved.legend->simplify();
                for (QCPAbstractLegendItem* item : saved.items) {
                    saved.legend->addItem(item);
                    item->setVisible(true);
                }
            }
            saved.legend->setVisible(saved.visible);
        }
        m_view.m_plot->replot(QCustomPlot::rpQueuedReplot);
    }

    ExportScope(const ExportScope&) = delete;
    ExportScope& operator=(const ExportScope&) = delete;

private:
    struct Saved {
        QCPLegend* legend;
        std::vector<QCPAbstractLegendItem*> items;
        bool visible;
    };
    PlotView& m_view;
    bool m_overlayVisible;
    std::vector<Saved> m_saved;
};

QImage PlotView::toImage(int width, int height)
{
    if (width <= 0 || height <= 0)
        return {};
    ExportScope scope(*this);
    return m_plot->toPixmap(width, height).toImage();
}

// Files are encoded in memory and written by the caller in one checked, atomic step: the
// writers QCustomPlot offers open the target themselves and cannot report a failed write.
QByteArray PlotView::encode(ImageFormat format, int width, int height)
{
    if (width <= 0 || height <= 0)
        return {};
    ExportScope scope(*this);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (format == ImageFormat::Png) {
        if (!m_plot->toPixmap(width, height).save(&buffer, "PNG"))
            return {};
        return bytes;
    }
    QCPPainter painter;
    std::unique_ptr<QPaintDevice> device;
    if (format == ImageFormat::Svg) {
        auto generator = std::make_unique<QSvgGenerator>();
        generator->setOutputDevice(&buffer);
        generator->setSize(QSize(width, height));
        generator->setViewBox(QRect(0, 0, width, height));
        generator->setResolution(96);  // CSS pixels: browsers and Inkscape show width x height px
        generator->setTitle(QStringLiteral("Evidence Explorer figure"));
        device = std::move(generator);
    } else {
        // One figure pixel is one point of a page exactly the figure's size.
        auto writer = std::make_unique<QPdfWriter>(&buffer);
        writer->setCreator(QStringLiteral("Evidence Explorer"));
        writer->setResolution(72);
        writer->setPageLayout(QPageLayout(QPageSize(QSizeF(width, height), QPageSize::Point, QString(),
                                                    QPageSize::ExactMatch),
                                          QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        device = std::move(writer);
    }
    if (!painter.begin(device.get()))
        return {};
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    // Non-cosmetic pens: line widths scale with the page like everything else.
    painter.setMode(QCPPainter::pmNonCosmetic);
    m_plot->toPainter(&painter, width, height);
    if (!painter.end())
        return {};
    device.reset();  // a PDF is finished when its writer goes
    return bytes;
}

}  // namespace evx
