// PlotView export: raster and vector files rendered offscreen at a chosen size.

#include "plot/plot_view.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <cmath>
#include <memory>

namespace evx {

namespace {

// PDF and SVG are laid out in quarter points: fine enough for integer lengths (margins, tick
// lengths, font pixel sizes) to keep the proportions of an 8 pt figure.
constexpr double kVectorUnitsPerPt = 4;

// Qt writes the MediaBox in whole points (QPageLayout::fullRectPoints); put the exact size in
// its place, written to the same length so the cross-reference offsets stay right.
bool setExactMediaBox(QByteArray& pdf, double widthPt, double heightPt)
{
    static const QRegularExpression box(QStringLiteral(R"(/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\])"));
    const QRegularExpressionMatch m = box.match(QString::fromLatin1(pdf));
    if (!m.hasMatch())
        return false;
    auto sameLength = [](double value, qsizetype length) {
        const int digits = value < 1 ? 1 : int(std::floor(std::log10(value))) + 1;
        QByteArray text = QByteArray::number(value, 'f', std::max<qsizetype>(0, length - digits - 1));
        while (text.size() < length)
            text.prepend('0');
        return text;
    };
    const QByteArray w = sameLength(widthPt, m.capturedLength(1));
    const QByteArray h = sameLength(heightPt, m.capturedLength(2));
    if (w.size() != m.capturedLength(1) || h.size() != m.capturedLength(2))
        return false;
    pdf.replace(m.capturedStart(1), w.size(), w);
    pdf.replace(m.capturedStart(2), h.size(), h);
    return true;
}

// QSvgGenerator writes width and height from whole units; state the exact millimetres.
void setExactSvgSize(QByteArray& svg, double widthMm, double heightMm)
{
    static const QRegularExpression size(QStringLiteral(R"(<svg width="[^"]*" height="[^"]*")"));
    const QString head = QString::fromUtf8(svg.left(400));
    const QRegularExpressionMatch m = size.match(head);
    if (m.hasMatch())
        svg.replace(m.capturedStart(), m.capturedLength(),
                    QStringLiteral(R"(<svg width="%1mm" height="%2mm")")
                        .arg(widthMm, 0, 'g', 10)
                        .arg(heightMm, 0, 'g', 10)
                        .toUtf8());
}

} // namespace

// While alive, the plot is laid out as the export shows it: at the export's sizes (fonts,
// lines, margins from its font size and resolution), on its canvas, with no hover read-out
// and no legend entries of hidden series. On destruction everything is put back and the
// on-screen layout is queued to be recomputed.
class PlotView::ExportScope {
public:
    ExportScope(PlotView& view, const Scale& scale, QSize canvas)
        : m_view(view), m_overlayVisible(view.m_overlay->visible()), m_scale(view.m_scale),
          m_viewport(view.m_plot->viewport())
    {
        m_view.captureLockedRanges(); // a pan since the last figure stays in the export
        m_view.m_plot->setViewport(QRect(QPoint(0, 0), canvas));
        m_view.setScale(scale);
        m_view.keepFlowColumns();
        m_view.m_overlay->setVisible(false);
        for (QCPLegend* legend : m_view.legends()) {
            Saved saved{legend, {}, legend->visible()};
            for (int i = 0; i < legend->itemCount(); ++i)
                if (QCPAbstractLegendItem* item = legend->item(i)) // a wrapped legend has empty cells
                    saved.items.push_back(item);
            m_saved.push_back(std::move(saved));
        }
        for (std::size_t i = 0; i < m_view.m_plots.size(); ++i) {
            for (Entry& e : m_view.m_plots[i].entries) {
                if (!e.legendItem || !m_view.m_hidden.contains(m_view.keyFor(static_cast<int>(i), e.name)))
                    continue;
                QCPLegend* legend = e.legendItem->parentLegend();
                legend->take(e.legendItem);
                e.legendItem->setVisible(false); // a taken layerable would still be drawn
                legend->simplify();
                legend->setVisible(legend->itemCount() > 0 && legend->visible());
            }
        }
        m_view.m_plot->setViewport(QRect(QPoint(0, 0), canvas));
        m_view.layOutForSize();
    }

    ~ExportScope()
    {
        m_view.m_overlay->setVisible(m_overlayVisible);
        for (const Saved& saved : m_saved) {
            int items = 0;
            for (int i = 0; i < saved.legend->itemCount(); ++i)
                items += saved.legend->item(i) != nullptr;
            if (items != static_cast<int>(saved.items.size())) {
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
        m_view.m_plot->setViewport(m_viewport);
        m_view.setScale(m_scale);
        m_view.keepFlowColumns();
        m_view.layOutForSize();
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
    Scale m_scale;
    QRect m_viewport;
    std::vector<Saved> m_saved;
};

QImage PlotView::toImage(int width, int height)
{
    if (width <= 0 || height <= 0)
        return {};
    ExportScope scope(*this, m_scale, QSize(width, height));
    return m_plot->toPixmap(width, height).toImage();
}

QByteArray PlotView::encode(ImageFormat format, int width, int height)
{
    if (width <= 0 || height <= 0)
        return {};
    return encode(format, PrintSize::fromPixels(QSize(width, height), kScreenFontPt * m_fontScale));
}

std::vector<PlotView::TextBox> PlotView::exportLayout(ImageFormat format, const PrintSize& size)
{
    const double unitsPerPt =
        format == ImageFormat::Png ? size.dpi / PrintSize::kPointsPerInch : kVectorUnitsPerPt;
    const QSize canvas = format == ImageFormat::Png ? size.pixels()
                                                    : QSize(int(std::lround(size.widthPt() * unitsPerPt)),
                                                            int(std::lround(size.heightPt() * unitsPerPt)));
    if (canvas.isEmpty())
        return {};
    ExportScope scope(*this, Scale{size.fontPt, unitsPerPt}, canvas);
    layOut();
    return textBoxes();
}

double PlotView::framesLackMm(const PrintSize& size, double aspect)
{
    const QSize canvas(int(std::lround(size.widthPt() * kVectorUnitsPerPt)),
                       int(std::lround(size.heightPt() * kVectorUnitsPerPt)));
    if (canvas.isEmpty())
        return 0;
    ExportScope scope(*this, Scale{size.fontPt, kVectorUnitsPerPt}, canvas);
    layOut();
    return framesLack(aspect) / kVectorUnitsPerPt / PrintSize::kPointsPerInch * PrintSize::kMmPerInch;
}

QImage PlotView::renderImage(const PrintSize& size)
{
    if (!(size.widthMm > 0) || !(size.heightMm > 0) || !(size.fontPt > 0) || !(size.dpi > 0))
        return {};
    const QSize pixels = size.pixels();
    if (pixels.isEmpty())
        return {};
    ExportScope scope(*this, Scale{size.fontPt, size.dpi / PrintSize::kPointsPerInch}, pixels);
    QImage image = m_plot->toPixmap(pixels.width(), pixels.height()).toImage();
    const int dotsPerMetre = int(std::lround(size.dpi / PrintSize::kMmPerInch * 1000));
    image.setDotsPerMeterX(dotsPerMetre);
    image.setDotsPerMeterY(dotsPerMetre);
    return image;
}

// Files are encoded in memory and written by the caller in one checked, atomic step: the
// writers QCustomPlot offers open the target themselves and cannot report a failed write.
QByteArray PlotView::encode(ImageFormat format, const PrintSize& size)
{
    if (!(size.widthMm > 0) || !(size.heightMm > 0) || !(size.fontPt > 0) || !(size.dpi > 0))
        return {};
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (format == ImageFormat::Png) {
        const QImage image = renderImage(size);
        if (image.isNull() || !image.save(&buffer, "PNG"))
            return {};
        return bytes;
    }
    const double unitsPerPt = kVectorUnitsPerPt;
    const QSizeF exact(size.widthPt() * unitsPerPt, size.heightPt() * unitsPerPt);
    const QSize canvas(int(std::lround(exact.width())), int(std::lround(exact.height())));
    if (canvas.isEmpty())
        return {};
    ExportScope scope(*this, Scale{size.fontPt, unitsPerPt}, canvas);
    QCPPainter painter;
    std::unique_ptr<QPaintDevice> device;
    double shiftY = 0; // device units that put the canvas's top at the top of the exact page
    if (format == ImageFormat::Svg) {
        auto generator = std::make_unique<QSvgGenerator>();
        generator->setOutputDevice(&buffer);
        generator->setResolution(int(std::lround(PrintSize::kPointsPerInch * unitsPerPt)));
        generator->setSize(canvas);
        generator->setViewBox(QRectF(QPointF(0, 0), exact));
        generator->setTitle(QStringLiteral("Evidence Explorer figure"));
        device = std::move(generator);
    } else {
        auto writer = std::make_unique<QPdfWriter>(&buffer);
        writer->setCreator(QStringLiteral("Evidence Explorer"));
        writer->setResolution(int(std::lround(PrintSize::kPointsPerInch * unitsPerPt)));
        writer->setPageLayout(QPageLayout(QPageSize(QSizeF(size.widthMm, size.heightMm),
                                                    QPageSize::Millimeter, QString(), QPageSize::ExactMatch),
                                          QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        // Qt flips y about the page height in whole points; the exact page is taller or
        // shorter by a fraction of a point, which setExactMediaBox adds at the top.
        shiftY = (writer->pageLayout().fullRectPoints().height() - size.heightPt()) * unitsPerPt;
        device = std::move(writer);
    }
    if (!painter.begin(device.get()))
        return {};
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    // Non-cosmetic pens: line widths scale with the page like everything else.
    painter.setMode(QCPPainter::pmNonCosmetic);
    painter.translate(0, shiftY);
    m_plot->toPainter(&painter, canvas.width(), canvas.height());
    if (!painter.end())
        return {};
    device.reset(); // a PDF is finished when its writer goes
    if (format == ImageFormat::Pdf && !setExactMediaBox(bytes, size.widthPt(), size.heightPt()))
        return {};
    if (format == ImageFormat::Svg)
        setExactSvgSize(bytes, size.widthMm, size.heightMm);
    return bytes;
}

} // namespace evx
