// Helpers shared by the PlotView test suites (figures to draw and ways to find what the
// view made of them in QCustomPlot).
#pragma once

#include "plot/plot_view.h"

#include <qcustomplot.h>

#include <QScrollArea>
#include <QSet>
#include <QTest>

#include <memory>
#include <string>
#include <vector>

namespace evx::plot_test {

// y = f(x) at n evenly spaced x from -1 to 1.
template <class F> Series curve(const std::string& name, F f, int n)
{
    Series s;
    s.name = name;
    for (int i = 0; i < n; ++i) {
        const double x = -1.0 + 2.0 * i / (n - 1);
        s.x.push_back(x);
        s.y.push_back(f(x));
    }
    return s;
}

inline Series line(const std::string& name, double slope, int n = 50, double offset = 0.0)
{
    return curve(
        name, [&](double x) { return offset + slope * x; }, n);
}

inline Figure onePlot(std::vector<Series> series, const std::string& title = "P")
{
    Figure f;
    Plot p;
    p.title = title;
    p.xLabel = "x";
    p.yLabel = "y";
    p.series = std::move(series);
    f.plots.push_back(std::move(p));
    return f;
}

inline QCPLegend* legendOf(QCPAxisRect* rect)
{
    for (int i = 0; rect && i < rect->insetLayout()->elementCount(); ++i) {
        if (auto* legend = qobject_cast<QCPLegend*>(rect->insetLayout()->elementAt(i)))
            return legend;
    }
    return nullptr;
}

inline QStringList legendNames(QCPLegend* legend)
{
    QStringList names;
    for (int i = 0; legend && i < legend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            names << item->plottable()->name();
    }
    return names;
}

template <class T> QList<T*> plottablesOf(QCPAxisRect* rect)
{
    QList<T*> result;
    for (QCPAbstractPlottable* p : rect->plottables()) {
        if (auto* t = qobject_cast<T*>(p))
            result << t;
    }
    return result;
}

// Items drawn as part of the figure (the hover read-out lives on the overlay layer).
template <class T> QList<T*> figureItems(QCustomPlot* plot)
{
    QList<T*> result;
    for (int i = 0; i < plot->itemCount(); ++i) {
        if (auto* t = qobject_cast<T*>(plot->item(i)); t && t->layer()->name() != QLatin1String("overlay"))
            result << t;
    }
    return result;
}

// The figure's text item that says `text` (a marker's name), or nullptr.
inline QCPItemText* figureText(QCustomPlot* plot, const QString& text)
{
    for (QCPItemText* t : figureItems<QCPItemText>(plot))
        if (t->text() == text)
            return t;
    return nullptr;
}

// The hover read-out.
inline QCPItemText* overlayText(QCustomPlot* plot)
{
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* t = qobject_cast<QCPItemText*>(plot->item(i));
        if (t && t->layer()->name() == QLatin1String("overlay"))
            return t;
    }
    return nullptr;
}

inline QPoint centreOf(QCPAxisRect* rect)
{
    return rect->rect().center();
}

inline int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    }
    return colours.size();
}

// A shown view (1000x700 unless said), laid out and drawn once.
inline std::unique_ptr<PlotView> shownView(const Figure& figure, QSize size = QSize(1000, 700))
{
    auto view = std::make_unique<PlotView>();
    view->resize(size);
    view->show();
    if (!QTest::qWaitForWindowExposed(view.get()))
        qWarning("window not exposed");
    view->setFigure(figure);
    view->renderNow();
    return view;
}

// A view in a scroll area as MainWindow holds it (the view as high as its least height or the
// area), shown at `size` and drawn; null if the window never appeared.
inline PlotView* scrolledView(QScrollArea& area, const Figure& figure, QSize size)
{
    area.setWidgetResizable(true);
    auto* view = new PlotView;
    area.setWidget(view);
    area.resize(size);
    view->setFigure(figure);
    area.show();
    if (!QTest::qWaitForWindowExposed(&area))
        return nullptr;
    view->renderNow();
    return view;
}

// One em of the view's on-screen font, in pixels (sizes that must not be crushed are in ems).
inline double screenEm(const PlotView& view)
{
    return PlotView::kScreenFontPt * view.logicalDpiY() / 72.0;
}

} // namespace evx::plot_test
