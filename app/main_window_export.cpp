// The main window's exports: to a file at the window's pixels or at a print size chosen in
// the export dialog, and to the clipboard.
#include "main_window.h"

#include "animation_dialog.h"
#include "export_dialog.h"
#include "exporter.h"
#include "params/parameter_panel.h"
#include "plot/plot_view.h"

#include <QApplication>
#include <QClipboard>
#include <QMessageBox>
#include <QStatusBar>

namespace evx {

QString MainWindow::exportFigureFile(const QString& path, QSize size)
{
    if (!m_scenario || m_figure.plots.empty())
        return tr("there is no figure to export yet");
    if (!size.isValid())
        size = m_plotView->size().expandedTo(QSize(800, 500));
    const ParameterValues values = m_panel->values();
    return exportFigure(path, {currentScenarioId(), m_scenario->schema(), values, m_figure}, *m_plotView,
                        size);
}

QString MainWindow::exportFigureFile(const QString& path, const PrintSize& size)
{
    if (!m_scenario || m_figure.plots.empty())
        return tr("there is no figure to export yet");
    const ParameterValues values = m_panel->values();
    return exportFigure(path, {currentScenarioId(), m_scenario->schema(), values, m_figure}, *m_plotView,
                        size);
}

void MainWindow::onExport()
{
    if (m_figure.plots.empty()) {
        QMessageBox::warning(this, tr("Cannot export"), tr("There is no figure to export yet."));
        return;
    }
    ExportDialog dialog(currentScenarioId(), m_figure, m_plotView->size(),
                        PlotView::kScreenFontPt * textScale(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString path = dialog.path();
    const QString error = exportFigureFile(path, dialog.printSize());
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Cannot export"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
}

void MainWindow::onExportAnimation()
{
    if (!m_scenario || m_figure.plots.empty()) {
        QMessageBox::warning(this, tr("Cannot export"), tr("There is no figure to animate yet."));
        return;
    }
    RunInput input = m_input;
    input.values = m_panel->values();
    // Frames at the window's pixels (at least 720p), with its text size, theme and hidden curves.
    AnimationDialog dialog(m_scenario, input, m_plotView->size().expandedTo(kDefaultAnimationSize),
                           PlotView::kScreenFontPt * textScale(), this);
    dialog.setHighContrast(m_plotView->theme() == PlotView::Theme::HighContrast);
    dialog.setHiddenSeries(m_plotView->hiddenSeries());
    if (dialog.exec() == QDialog::Accepted)
        statusBar()->showMessage(tr("Exported %1").arg(dialog.path()), 5000);
}

void MainWindow::onCopyImage()
{
    const QSize size = m_plotView->size();
    QApplication::clipboard()->setImage(m_plotView->toImage(size.width(), size.height()));
    statusBar()->showMessage(tr("Figure copied to the clipboard"), 3000);
}

} // namespace evx
