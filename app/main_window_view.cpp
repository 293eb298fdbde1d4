// The main window's view settings: a geometry that fits the screen it opens on, the parameter
// dock as wide as its content, and presentation mode (large text and thick lines for a
// lecture hall, F11, with Ctrl+Plus / Ctrl+Minus / Ctrl+0 for the text size). All of them
// are remembered in QSettings.
#include "main_window.h"

#include "params/parameter_panel.h"
#include "plot/plot_view.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace evx {

namespace {

constexpr double kTextStep = 1.15; // one Ctrl+Plus
constexpr double kMinTextScale = 0.7, kMaxTextScale = 4;

} // namespace

QRect MainWindow::fittedGeometry(const QRect& saved, const QRect& available)
{
    if (saved.isValid() && available.contains(saved))
        return saved;
    // Nine tenths of the screen, centred: room for a panel at the edge and the title bar.
    const QSize size(int(0.9 * available.width()), int(0.9 * available.height()));
    QRect fitted(QPoint(0, 0), size);
    fitted.moveCenter(available.center());
    return fitted;
}

void MainWindow::restoreView()
{
    QSettings settings;
    m_normalScale =
        std::clamp(settings.value("view/textScale", 1.0).toDouble(), kMinTextScale, kMaxTextScale);
    m_presentationScale =
        std::clamp(settings.value("view/presentationTextScale", kDefaultPresentationScale).toDouble(),
                   kMinTextScale, kMaxTextScale);
    restoreState(settings.value("view/state").toByteArray());
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1440, 900);
    setGeometry(fittedGeometry(settings.value("view/geometry").toRect(), available));
    setPresentationMode(settings.value("view/presentation", false).toBool());
    setHighContrast(settings.value("view/highContrast", false).toBool());
}

void MainWindow::saveView() const
{
    QSettings settings;
    settings.setValue("view/geometry", geometry());
    settings.setValue("view/state", saveState());
    settings.setValue("view/presentation", m_presentation);
    settings.setValue("view/highContrast", isHighContrast());
    settings.setValue("view/textScale", m_normalScale);
    settings.setValue("view/presentationTextScale", m_presentationScale);
}

void MainWindow::setPresentationMode(bool on)
{
    // The plot takes the room of the scenario list and the summary (F1 and F2 bring the
    // summary back); leaving the mode shows them as they were.
    QDockWidget* browser = findChild<QDockWidget*>("scenarios");
    if (on && !m_presentation) {
        m_hiddenForPresentation.clear();
        for (QWidget* w : {static_cast<QWidget*>(browser), static_cast<QWidget*>(m_bottomTabs)})
            if (w && w->isVisibleTo(this)) {
                m_hiddenForPresentation << w;
                w->hide();
            }
    } else if (!on && m_presentation) {
        for (QWidget* w : m_hiddenForPresentation)
            w->show();
        m_hiddenForPresentation.clear();
    }
    m_presentation = on;
    m_presentationAction->setChecked(on);
    applyTextScale();
}

void MainWindow::setHighContrast(bool on)
{
    m_plotView->setTheme(on ? PlotView::Theme::HighContrast : PlotView::Theme::Standard);
    m_highContrastAction->setChecked(on);
    // The panels too: black on white, with a black selection, whatever the desktop's style;
    // leaving the theme gives the style's own palette back.
    QPalette palette = QApplication::style()->standardPalette();
    if (on) {
        for (QPalette::ColorRole role : {QPalette::Window, QPalette::Base, QPalette::Button})
            palette.setColor(role, Qt::white);
        palette.setColor(QPalette::AlternateBase, QColor(235, 235, 235));
        for (QPalette::ColorRole role :
             {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText})
            palette.setColor(role, Qt::black);
        palette.setColor(QPalette::Highlight, Qt::black);
        palette.setColor(QPalette::HighlightedText, Qt::white);
        palette.setColor(QPalette::PlaceholderText, QColor(60, 60, 60));
        setPalette(palette);
    } else {
        setPalette(QPalette());
    }
}

bool MainWindow::isHighContrast() const
{
    return m_plotView->theme() == PlotView::Theme::HighContrast;
}

void MainWindow::changeTextScale(int steps)
{
    double& scale = m_presentation ? m_presentationScale : m_normalScale;
    if (steps == 0)
        scale = m_presentation ? kDefaultPresentationScale : 1.0;
    else
        scale = std::clamp(scale * std::pow(kTextStep, steps), kMinTextScale, kMaxTextScale);
    applyTextScale();
    statusBar()->showMessage(tr("Text at %1 %").arg(std::lround(100 * scale)), 2000);
}

double MainWindow::textScale() const
{
    return m_presentation ? m_presentationScale : m_normalScale;
}

void MainWindow::applyTextScale()
{
    const double scale = textScale();
    m_plotView->setFontScale(scale);
    // The panels grow by half as much as the plot: readable from the back, while the plot
    // keeps most of the window.
    QFont font = QApplication::font();
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * (1 + 0.5 * (scale - 1)));
    // The banners have style sheets, which stop a parent's font: they are set one by one.
    for (QWidget* w :
         {static_cast<QWidget*>(m_bottomTabs), centralWidget(), static_cast<QWidget*>(statusBar()),
          static_cast<QWidget*>(m_errorBanner), static_cast<QWidget*>(m_warningBanner)})
        w->setFont(font);
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        dock->setFont(font);
    fitParameterDock();
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // The dock's cap and the labels' place (beside or above) follow the window's width, so a
    // window dragged narrower, or moved to a smaller screen, keeps every control in view.
    // A drag sends many events; one refit once they have been handled is enough.
    if (event->size().width() == event->oldSize().width() || m_dockFitQueued)
        return;
    m_dockFitQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_dockFitQueued = false;
        fitParameterDock();
    });
}

void MainWindow::fitParameterDock()
{
    // The dock is at least as wide as the form (every label and spin box shows, no sideways
    // scrolling) unless that is more than 45 % of the window; a wider dock the user made (or
    // restored from the last session, saveState) stays as it is.
    // A form that would pass the cap with its labels beside the controls (large presentation
    // text, a 1024 x 768 screen) puts them above, so that every control shows without
    // scrolling sideways.
    auto* scroll = qobject_cast<QScrollArea*>(m_panelDock->widget());
    const int chrome = scroll->verticalScrollBar()->sizeHint().width() + 2 * scroll->frameWidth() + 2;
    const int cap = std::max(200, int(0.45 * width()));
    m_panel->setLabelsAbove(m_panel->besideWidth() + chrome > cap);
    m_panel->layout()->invalidate(); // a new form: the cached minimum is the old one's
    const int content = m_panel->minimumSizeHint().width() + chrome;
    const int least = std::min(content, cap);
    scroll->setMinimumWidth(least);
    const int wanted = std::min(std::max(least, m_panelDock->width()), cap);
    if (wanted != m_panelDock->width())
        resizeDocks({m_panelDock}, {wanted}, Qt::Horizontal);
}

} // namespace evx
