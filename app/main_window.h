#pragma once
// The main window: scenario browser and parameter panel on the left, the plot in the
// middle, summary and explanation below. It only wires widgets to the runner; every
// number comes from a scenario on the runner's worker thread.

#include "core/figure.h"
#include "core/scenario.h"
#include "lesson.h"
#include "plot/print_size.h"
#include "session.h"

#include <QMainWindow>
#include <array>
#include <memory>

class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;
class QTextBrowser;
class QTimer;
class QAction;
class QDockWidget;
class QUrl;

namespace evx {

class LessonPanel;
class ParameterPanel;
class PlotView;
class Runner;
class ScenarioBrowser;
class SummaryTable;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Shows a scenario with the given input (its default parameters when input.values is
    // empty) and starts a run.
    bool openScenario(const QString& id, const RunInput& input = {});
    void applyPreset(const QString& name);

    // The file operations behind the menus, without dialogs; each returns "" on success or
    // the reason it failed, and a failure changes nothing.
    QString openSessionFile(const QString& path);
    QString saveSessionFile(const QString& path);
    QString exportFigureFile(const QString& path, QSize size = {});
    QString openDataSetFile(const QString& path);

    // Links (main_window_link.cpp): the current state as evx://… (state_link.h), what Edit →
    // Copy Link (Ctrl+Shift+L) puts on the clipboard; "" with the reason in *why when the state
    // has a data file. openLink applies a link as a session would (every value checked first;
    // a refused link changes nothing) and returns "" or the reason.
    QString currentLink(QString* why = nullptr) const;
    QString openLink(const QString& link);
    void copyLink();

    // Lessons (main_window_lesson.cpp): File → Open Lesson shows a lesson's steps in a dock beside
    // the plot; Next / Back (Page Down / Page Up, a presenter's clicker) apply a step's scenario,
    // values, points and pins. A slider moved by hand stays moved until the next step is applied.
    QString openLessonFile(const QString& idOrPath, int step = 0); // "" or the reason
    void openLesson(const Lesson& lesson, int step = 0);
    bool showLessonStep(int step); // counts from 0; false when out of range
    void closeLesson();
    bool hasLesson() const { return m_lessonStep >= 0; }
    int lessonStep() const { return m_lessonStep; }
    LessonPanel* lessonPanel() const { return m_lessonPanel; }
    // What a link in a caption or an explanation page does: evx:set?… sets values of the
    // current scenario, evx://… opens a state, http(s) goes to the browser. "" or the reason.
    QString activateLink(const QUrl& url);
    QTextBrowser* explanationView() const { return m_explanation; }

    // A point the user added on the scenario's point plot (what a settled click does).
    void addPoint(double x, double y);
    void clearPoints();
    const std::vector<std::array<double, 2>>& points() const { return m_input.points; }
    // Play steps the scenario's animatable parameter once per tick until its maximum.
    void setPlaying(bool playing);
    bool isPlaying() const;
    // What the reading guide's button does: sets the scenario's `emphasis` parameter to the
    // reading ("jeffrey", "virtual", "distributional"); false if the scenario has none.
    bool emphasiseReading(const QString& reading);

    QString currentScenarioId() const;
    const Figure& currentFigure() const { return m_figure; }
    QString errorText() const; // the error banner's text, "" when hidden
    PlotView* plotView() const { return m_plotView; }
    QTabWidget* bottomTabs() const { return m_bottomTabs; }
    ParameterPanel* parameterPanel() const { return m_panel; }
    SummaryTable* summaryTable() const { return m_summary; }
    Runner* runner() const { return m_runner.get(); }
    QDockWidget* parameterDock() const { return m_panelDock; }

    // The export dialog's choice (pixels, or a print size in millimetres) for a file.
    QString exportFigureFile(const QString& path, const PrintSize& size);

    // Presentation mode: the plot's text (and with it every line) at presentationScale(),
    // the panels' at half that growth; Ctrl+Plus / Ctrl+Minus / Ctrl+0 change the scale of the
    // mode in use. Both modes' scales and the mode are remembered.
    static constexpr double kDefaultPresentationScale = 1.6;
    void setPresentationMode(bool on);
    bool isPresentationMode() const { return m_presentation; }
    // View → High-Contrast Theme: the plot's (PlotView::Theme) and black text on white in the
    // panels; remembered like the other view options.
    void setHighContrast(bool on);
    bool isHighContrast() const;
    void changeTextScale(int steps); // 0: back to the mode's default
    double textScale() const;

    // Pins ("before and after", main_window_pins.cpp; View menu): Ctrl+P keeps the current
    // figure's curves as faint ghosts under the figures that follow, each labelled in the
    // legend with its parameter values that differ from the current ones ("pinned: σ_obs =
    // 0.025 s"), or "pinned" when none differ. At most Session::kMaxPins, the oldest dropped.
    // Ctrl+Shift+P or another scenario clears them; a session keeps them with their curves.
    void pinFigure();
    void unpinAll();
    const std::vector<PinnedFigure>& pins() const { return m_pins; }
    QString pinLabel(const ParameterValues& pinned) const;

    // The saved geometry if the available screen area holds it whole, else 90 % of that
    // area, centred.
    static QRect fittedGeometry(const QRect& saved, const QRect& available);

signals:
    // A finished run's figure is on screen (after a failed run: runFailed instead).
    void figureShown(quint64 revision);
    void runFailed(quint64 revision, const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void buildWidgets();
    void buildMenus();
    void rebuildPresetMenu();
    void requestRun();
    void showError(const QString& message);
    void clearFigure();
    void showTables(const std::vector<Table>& tables);
    void updateTitle();
    void loadExplanation();
    bool confirmDiscard();
    // main_window_view.cpp
    void restoreView();
    void saveView() const;
    void applyTextScale();
    void fitParameterDock();
    // main_window_pins.cpp
    void showPins(); // hands the pins and their labels to the plot view
    QStringList pinLabels() const;

    // main_window_lesson.cpp
    void buildLessonDock();
    void onOpenLesson();
    void computeLessonPins();

    void onFinished(quint64 revision, const Figure& figure, double computeMs);
    void onFailed(quint64 revision, const QString& message);
    void onOpenSession();
    void onSaveSession();
    void onSaveSessionAs();
    void onExport();
    void onExportAnimation(); // main_window_export.cpp
    void onCopyImage();
    void onOpenDataSet();
    void onPointClicked(int plotIndex, double x, double y);
    void playStep();
    void updateHold(); // axes held while a slider is dragged or Play runs
    void updateInputActions();

    std::unique_ptr<Runner> m_runner;
    std::shared_ptr<const Scenario> m_scenario;
    RunInput m_input; // points and data file; the parameters live in the panel
    Figure m_figure;
    ParameterValues m_figureValues;   // the parameters m_figure was computed with
    std::vector<PinnedFigure> m_pins; // oldest first
    QString m_sessionPath;
    double m_lastComputeMs = 0;

    ScenarioBrowser* m_browser = nullptr;
    ParameterPanel* m_panel = nullptr;
    PlotView* m_plotView = nullptr;
    SummaryTable* m_summary = nullptr;
    QTextBrowser* m_explanation = nullptr;
    QTabWidget* m_bottomTabs = nullptr;
    QTextBrowser* m_tablesView = nullptr;
    QLabel* m_errorBanner = nullptr;
    QLabel* m_warningBanner = nullptr;
    QLabel* m_timing = nullptr;
    QProgressBar* m_busy = nullptr;
    QMenu* m_presetMenu = nullptr;
    QDockWidget* m_panelDock = nullptr;
    QAction* m_presentationAction = nullptr;
    QAction* m_highContrastAction = nullptr;
    bool m_presentation = false;
    bool m_dockFitQueued = false; // one refit per burst of resize events
    QList<QWidget*> m_hiddenForPresentation;
    double m_normalScale = 1;
    double m_presentationScale = kDefaultPresentationScale;
    QAction* m_clearPointsAction = nullptr;
    QAction* m_openDataAction = nullptr;
    QAction* m_playAction = nullptr;
    QTimer* m_playTimer = nullptr;
    QTimer* m_clickTimer = nullptr; // a click becomes a point only if no second click follows
    std::array<double, 3> m_pendingClick{};
    Lesson m_lesson;
    int m_lessonStep = -1;           // -1: no lesson open
    quint64 m_lessonPinsRequest = 0; // pins computed for an older step are dropped
    LessonPanel* m_lessonPanel = nullptr;
    QDockWidget* m_lessonDock = nullptr;
    QAction* m_nextStepAction = nullptr;
    QAction* m_previousStepAction = nullptr;
};

} // namespace evx
