#include "main_window.h"

#include "browser/scenario_browser.h"
#include "command_line.h"
#include "exporter.h"
#include "params/parameter_panel.h"
#include "plot/plot_view.h"
#include "plot/rich_text.h"
#include "reading_guide_dialog.h"
#include "runner.h"
#include "scenarios/registry.h"
#include "session.h"
#include "summary/summary_table.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

// Resources compiled into a static library must be registered by hand, and outside any
// namespace.
static void initialiseResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace evx {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_runner(std::make_unique<Runner>())
{
    initialiseResources();
    buildWidgets();
    buildLessonDock();
    buildMenus();
    connect(m_runner.get(), &Runner::finished, this, &MainWindow::onFinished);
    connect(m_runner.get(), &Runner::failed, this, &MainWindow::onFailed);
    connect(m_runner.get(), &Runner::progressed, this,
            [this](quint64 revision, const Figure& partial, double fraction) {
                m_plotView->setStreamedFigure(partial, revision); // held, as during a drag
                m_busy->setRange(0, 100);
                m_busy->setValue(int(100 * fraction));
            });
    openScenario(QString::fromStdString(ScenarioRegistry::instance().all().front()->info().id));
    restoreView();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildWidgets()
{
    m_browser = new ScenarioBrowser;
    std::vector<ScenarioInfo> infos;
    for (const auto& s : ScenarioRegistry::instance().all())
        infos.push_back(s->info());
    m_browser->setScenarios(infos);
    connect(m_browser, &ScenarioBrowser::scenarioActivated, this,
            [this](const QString& id) { openScenario(id); });
    auto* browserDock = new QDockWidget(tr("Scenarios"), this);
    browserDock->setObjectName("scenarios");
    browserDock->setWidget(m_browser);
    m_browser->setAccessibleName(tr("Scenarios"));
    addDockWidget(Qt::LeftDockWidgetArea, browserDock);

    m_panel = new ParameterPanel;
    connect(m_panel, &ParameterPanel::valuesChanged, this, [this] {
        setWindowModified(true);
        requestRun();
    });
    connect(m_panel, &ParameterPanel::sliderHeld, this, &MainWindow::updateHold);
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_panel);
    scroll->setWidgetResizable(true);
    scroll->setAccessibleName(tr("Parameters"));
    auto* panelDock = new QDockWidget(tr("Parameters"), this);
    panelDock->setObjectName("parameters");
    panelDock->setWidget(scroll);
    addDockWidget(Qt::LeftDockWidgetArea, panelDock);
    m_panelDock = panelDock;
    resizeDocks({browserDock, panelDock}, {220, 480}, Qt::Vertical);
    resizeDocks({panelDock}, {360}, Qt::Horizontal);

    m_errorBanner = new QLabel;
    m_errorBanner->setWordWrap(true);
    m_errorBanner->setStyleSheet("QLabel { background: #fde2e1; color: #8a1c13; padding: 6px; "
                                 "border: 1px solid #d55e00; border-radius: 3px; }");
    m_errorBanner->hide();
    m_warningBanner = new QLabel;
    m_warningBanner->setWordWrap(true);
    m_warningBanner->setStyleSheet("QLabel { background: #fff4d6; color: #6b4a00; padding: 6px; "
                                   "border: 1px solid #e69f00; border-radius: 3px; }");
    m_warningBanner->hide();
    m_plotView = new PlotView;
    m_plotView->setMinimumWidth(320); // a 1024 x 768 screen still holds the docks beside it
    // A figure of many rows (or large presentation text) in a short window scrolls rather than
    // crushing its plots: the view is never shorter than its minimumSizeHint.
    auto* plotScroll = new QScrollArea;
    plotScroll->setWidgetResizable(true);
    plotScroll->setFrameShape(QFrame::NoFrame);
    plotScroll->setWidget(m_plotView);
    plotScroll->setAccessibleName(tr("Figure"));

    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(4, 4, 4, 0);
    topLayout->addWidget(m_errorBanner);
    topLayout->addWidget(m_warningBanner);
    topLayout->addWidget(plotScroll, 1);

    m_summary = new SummaryTable;
    m_explanation = new QTextBrowser;
    // Links in a page may set values (evx:set?…, as in lesson captions): activateLink decides.
    m_explanation->setOpenLinks(false);
    connect(m_explanation, &QTextBrowser::anchorClicked, this,
            [this](const QUrl& url) { activateLink(url); });
    m_bottomTabs = new QTabWidget;
    m_bottomTabs->addTab(m_summary, tr("Summary"));
    m_bottomTabs->addTab(m_explanation, tr("About this scenario"));
    m_tablesView = new QTextBrowser; // a tab of its own only while the figure has tables

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(top);
    splitter->addWidget(m_bottomTabs);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({3000, 1000}); // weights: the scrolling plot view hints no height of its own
    setCentralWidget(splitter);

    m_timing = new QLabel;
    m_busy = new QProgressBar;
    m_busy->setMaximumWidth(140);
    m_busy->setRange(0, 0);
    m_busy->hide();
    statusBar()->addPermanentWidget(m_busy);
    statusBar()->addPermanentWidget(m_timing);
    connect(m_plotView, &PlotView::pointClicked, this, &MainWindow::onPointClicked);
    m_clickTimer = new QTimer(this);
    m_clickTimer->setSingleShot(true);
    m_clickTimer->setInterval(QApplication::doubleClickInterval());
    connect(m_clickTimer, &QTimer::timeout, this, [this] { addPoint(m_pendingClick[1], m_pendingClick[2]); });
    m_playTimer = new QTimer(this);
    m_playTimer->setInterval(400);
    connect(m_playTimer, &QTimer::timeout, this, &MainWindow::playStep);
    connect(m_plotView, &PlotView::rendered, this, [this] {
        // What a user wants to know is how fresh the figure is; the split between the engine and
        // the drawing is for developers, so it goes to the tooltip.
        const double totalMs = m_lastComputeMs + m_plotView->lastRenderMs();
        m_timing->setText(totalMs < 1000 ? tr("updated in %1 ms").arg(totalMs, 0, 'f', 0)
                                         : tr("updated in %1 s").arg(totalMs / 1000, 0, 'f', 1));
        m_timing->setToolTip(tr("compute %1 ms · render %2 ms")
                                 .arg(m_lastComputeMs, 0, 'f', 1)
                                 .arg(m_plotView->lastRenderMs(), 0, 'f', 1));
    });
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* edit = menuBar()->addMenu(tr("&Edit")); // filled below, after File's entries
    file->addAction(tr("&Open Session…"), QKeySequence::Open, this, &MainWindow::onOpenSession);
    file->addAction(tr("&Save Session"), QKeySequence::Save, this, &MainWindow::onSaveSession);
    file->addAction(tr("Save Session &As…"), QKeySequence::SaveAs, this, &MainWindow::onSaveSessionAs);
    m_openDataAction =
        file->addAction(tr("Open &Data Set…"), QKeySequence(tr("Ctrl+D")), this, &MainWindow::onOpenDataSet);
    file->addAction(tr("Open &Lesson…"), this, &MainWindow::onOpenLesson);
    file->addSeparator();
    file->addAction(tr("&Export Figure or Data…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::onExport);
    file->addAction(tr("Export A&nimation…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                    &MainWindow::onExportAnimation);
    file->addAction(tr("&Copy Image"), QKeySequence(tr("Ctrl+Shift+C")), this, &MainWindow::onCopyImage);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QAction* copyLinkAction =
        edit->addAction(tr("Copy &Link"), QKeySequence(tr("Ctrl+Shift+L")), this, &MainWindow::copyLink);
    copyLinkAction->setToolTip(
        tr("Put a link to this state (evx://…) on the clipboard, for slides and notes (Ctrl+Shift+L)"));

    m_presetMenu = menuBar()->addMenu(tr("&Presets"));

    QMenu* lesson = menuBar()->addMenu(tr("&Lesson"));
    lesson->addAction(tr("&Open Lesson…"), this, &MainWindow::onOpenLesson);
    lesson->addAction(m_nextStepAction);
    lesson->addAction(m_previousStepAction);
    lesson->addAction(tr("&Close Lesson"), this, &MainWindow::closeLesson);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    m_playAction =
        run->addAction(tr("&Play"), QKeySequence(tr("F5")), this, [this](bool on) { setPlaying(on); });
    m_playAction->setCheckable(true);
    m_playAction->setToolTip(tr("Step the animated parameter once per tick (F5)"));
    m_clearPointsAction = run->addAction(tr("&Clear Added Points"), QKeySequence(tr("Ctrl+Backspace")), this,
                                         &MainWindow::clearPoints);
    QToolBar* toolbar = addToolBar(tr("Run"));
    toolbar->setObjectName("run");
    toolbar->addAction(m_playAction);
    toolbar->addAction(m_clearPointsAction);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Axes hold still while a slider is dragged or Play runs (PlotView::setHoldRanges); this
    // fits them to the data on request, as a release, a preset or another scenario does.
    QAction* rescale = view->addAction(tr("&Rescale Axes"), m_plotView, &PlotView::resetView);
    rescale->setShortcuts({QKeySequence(tr("Ctrl+Shift+R")), QKeySequence(Qt::Key_Home)});
    rescale->setToolTip(tr("Fit every plot to its data, dropping any zoom (Ctrl+Shift+R, Home)"));
    view->addSeparator();
    QAction* pin =
        view->addAction(tr("&Pin Figure"), QKeySequence(tr("Ctrl+P")), this, &MainWindow::pinFigure);
    pin->setToolTip(tr("Keep the curves as faint ghosts to compare with after moving a parameter (Ctrl+P)"));
    view->addAction(tr("&Unpin All"), QKeySequence(tr("Ctrl+Shift+P")), this, &MainWindow::unpinAll);
    view->addSeparator();
    m_presentationAction = view->addAction(tr("&Presentation Mode"), QKeySequence(Qt::Key_F11), this,
                                           [this](bool on) { setPresentationMode(on); });
    m_presentationAction->setCheckable(true);
    m_presentationAction->setToolTip(tr("Large text and thick lines for a lecture hall (F11)"));
    m_highContrastAction = view->addAction(tr("&High-Contrast Theme"), QKeySequence(tr("Ctrl+Shift+H")), this,
                                           [this](bool on) { setHighContrast(on); });
    m_highContrastAction->setCheckable(true);
    m_highContrastAction->setToolTip(tr(
        "Thicker lines, hatched bands and black text on white, for a washed-out projector (Ctrl+Shift+H)"));
    view->addAction(tr("&Larger Text"), QKeySequence(QKeySequence::ZoomIn), this,
                    [this] { changeTextScale(1); });
    QAction* larger = view->actions().last();
    larger->setShortcuts({QKeySequence(QKeySequence::ZoomIn), QKeySequence(tr("Ctrl+="))});
    view->addAction(tr("&Smaller Text"), QKeySequence(QKeySequence::ZoomOut), this,
                    [this] { changeTextScale(-1); });
    view->addAction(tr("&Default Text Size"), QKeySequence(tr("Ctrl+0")), this,
                    [this] { changeTextScale(0); });
    view->addAction(tr("Show &Summary"), QKeySequence(tr("F2")), this, [this] {
        m_bottomTabs->show();
        m_bottomTabs->setCurrentIndex(0);
    });
    view->addAction(tr("Show &Explanation"), QKeySequence(tr("F1")), this, [this] {
        m_bottomTabs->show();
        m_bottomTabs->setCurrentIndex(1);
    });
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("Which &Reading Applies?…"), QKeySequence(tr("Ctrl+G")), this, [this] {
        auto* guide = new ReadingGuideDialog(this);
        guide->setAttribute(Qt::WA_DeleteOnClose);
        connect(guide, &ReadingGuideDialog::emphasisRequested, this, [this](const QString& reading) {
            if (!emphasiseReading(reading))
                statusBar()->showMessage(tr("This scenario does not compare readings of uncertain evidence"),
                                         5000);
        });
        guide->show();
    });
    help->addAction(tr("&About Evidence Explorer"), this, [this] {
        QMessageBox::about(this, tr("About Evidence Explorer"),
                           tr("<b>Evidence Explorer</b><p>Live exploration of how Bayesian updates change "
                              "with the way evidence is read and approximated.</p>"
                              "<p>Drag on a plot to pan, scroll to zoom, double-click to reset; click a "
                              "legend entry to hide or show that curve.</p>"));
    });
}

void MainWindow::rebuildPresetMenu()
{
    m_presetMenu->clear();
    if (!m_scenario)
        return;
    for (const Preset& p : m_scenario->presets()) {
        QAction* a =
            m_presetMenu->addAction(QString::fromStdString(p.name), this,
                                    [this, name = QString::fromStdString(p.name)] { applyPreset(name); });
        a->setStatusTip(QString::fromStdString(p.description));
        a->setToolTip(QString::fromStdString(p.description));
    }
    m_presetMenu->addSeparator();
    m_presetMenu->addAction(tr("Reset to &Defaults"), QKeySequence(tr("Ctrl+R")), this, [this] {
        m_panel->setValues(m_scenario->schema().defaults());
        m_plotView->resetView();
    });
}

bool MainWindow::openScenario(const QString& id, const RunInput& input)
{
    auto scenario = ScenarioRegistry::instance().find(id.toStdString());
    if (!scenario)
        return false;
    setPlaying(false);
    m_clickTimer->stop();
    m_scenario = std::move(scenario);
    m_input = input;
    m_browser->setCurrent(id);
    m_panel->setSchema(m_scenario->schema(),
                       input.values.empty() ? m_scenario->schema().defaults() : input.values);
    m_summary->setUnits(m_scenario->schema(), m_scenario->summaryUnits());
    // The new form's widgets are shown from the event loop; measure it after that.
    QTimer::singleShot(0, this, [this] { fitParameterDock(); });
    updateInputActions();
    m_plotView->resetView();
    m_pins.clear(); // another scenario's curves, or another start of this one, compare with nothing here
    showPins();
    clearFigure(); // the last scenario's figure must not stand in for this one if its run fails
    rebuildPresetMenu();
    loadExplanation();
    updateTitle();
    requestRun();
    return true;
}

void MainWindow::clearFigure()
{
    m_figure = Figure{};
    m_plotView->setFigure(m_figure);
    m_summary->setSummary(m_figure.summary, m_figure.warnings);
    showTables(m_figure.tables);
    m_warningBanner->hide();
}

void MainWindow::showTables(const std::vector<Table>& tables)
{
    const int index = m_bottomTabs->indexOf(m_tablesView);
    if (tables.empty()) {
        if (index >= 0)
            m_bottomTabs->removeTab(index);
        return;
    }
    // Table text is figure text: its markup (NCAI_λ, σ_ε²) drawn with scripts, as in the plots.
    auto rich = [](const std::string& text, bool keepSpaces = true) {
        return richLabelHtml(QString::fromStdString(text), keepSpaces);
    };
    QString html;
    for (const Table& t : tables) {
        html += "<p><b>" + rich(t.title, false) + "</b></p>";
        html += "<table cellspacing='0' cellpadding='4' border='1' style='border-collapse: collapse'><tr>";
        for (const std::string& c : t.columns)
            html += "<th>" + rich(c) + "</th>";
        html += "</tr>";
        for (const auto& row : t.rows) {
            html += "<tr>";
            for (const std::string& cell : row)
                html += "<td align='right'>" + rich(cell) + "</td>";
            html += "</tr>";
        }
        html += "</table>";
    }
    m_tablesView->setHtml(html);
    if (index < 0)
        m_bottomTabs->insertTab(1, m_tablesView, tr("Tables"));
}

void MainWindow::applyPreset(const QString& name)
{
    if (!m_scenario)
        return;
    try {
        m_panel->setValues(m_scenario->presetValues(name.toStdString()));
        m_plotView->resetView();
    } catch (const std::exception& e) {
        showError(QString::fromUtf8(e.what()));
    }
}

void MainWindow::loadExplanation()
{
    const ScenarioInfo info = m_scenario->info();
    QFile file(QString(":/explanations/%1.md").arg(QString::fromStdString(info.id)));
    if (file.open(QIODevice::ReadOnly))
        m_explanation->setMarkdown(QString::fromUtf8(file.readAll()));
    else
        m_explanation->setMarkdown(
            QString("# %1\n\n%2")
                .arg(QString::fromStdString(info.title), QString::fromStdString(info.summary)));
}

void MainWindow::requestRun()
{
    if (!m_scenario)
        return;
    m_busy->setRange(0, 0);
    m_busy->show();
    m_input.values = m_panel->values();
    m_runner->submit(m_scenario, m_input);
}

void MainWindow::onFinished(quint64 revision, const Figure& figure, double computeMs)
{
    m_figure = figure;
    m_figureValues = m_input.values; // stale revisions never finish: this run was the last request
    m_lastComputeMs = computeMs;
    m_busy->hide();
    m_errorBanner->hide();
    m_plotView->setFigure(figure);
    m_plotView->setPinLabels(pinLabels());
    m_summary->setSummary(figure.summary, figure.warnings);
    showTables(figure.tables);
    QStringList warnings;
    for (const std::string& w : figure.warnings)
        warnings << "⚠ " + QString::fromStdString(w);
    m_warningBanner->setText(warnings.join('\n'));
    m_warningBanner->setVisible(!warnings.isEmpty());
    emit figureShown(revision);
}

void MainWindow::onFailed(quint64 revision, const QString& message)
{
    m_busy->hide();
    m_plotView->endStream();
    showError(tr("Cannot compute with these parameters: %1").arg(message));
    emit runFailed(revision, message);
}

void MainWindow::showError(const QString& message)
{
    m_errorBanner->setText(message);
    m_errorBanner->show();
    statusBar()->showMessage(message, 8000);
}

QString MainWindow::errorText() const
{
    return m_errorBanner->isHidden() ? QString() : m_errorBanner->text();
}

QString MainWindow::currentScenarioId() const
{
    return m_scenario ? QString::fromStdString(m_scenario->info().id) : QString();
}

void MainWindow::updateTitle()
{
    QString title = QString::fromStdString(m_scenario->info().title);
    if (!m_sessionPath.isEmpty())
        title += " — " + QFileInfo(m_sessionPath).fileName();
    setWindowTitle(title + "[*] — Evidence Explorer");
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (confirmDiscard()) {
        saveView();
        event->accept();
    } else {
        event->ignore();
    }
}

} // namespace evx
