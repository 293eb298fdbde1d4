#pragma once
// PlotView: draws an evx::Figure with one QCustomPlot and owns all plot styling, interaction
// and export (STYLE.md: one plot-view class).
//
// Layout: each evx::Plot gets its own axis rect with a title above it and its own legend
// inside (top right), stacked vertically, in two columns when there are more than three.
// Interaction: drag pans, the wheel zooms, a double-click resets the plot under the cursor,
// a click on a legend entry hides or shows that series, hovering shows the values of the
// line series at the cursor. A plot the user has panned or zoomed keeps its ranges through
// later figures with the same axis labels ("zoom lock") until resetView() or a double-click;
// other plots fit their visible data.
//
// Sizes: every font, line width, tick length, marker, legend and margin derives from one
// font size in points and the resolution drawn at (layout units per point), so a figure
// keeps its proportions on screen, in presentation mode (setFontScale) and in an export of
// any physical size (PrintSize). The number of ticks follows the room each axis has.

#include "core/figure.h"
#include "plot/print_size.h"
#include "plot/series_style.h"

#include <QBrush>
#include <QElapsedTimer>
#include <QImage>
#include <QPen>
#include <QSet>
#include <QStringList>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPAbstractItem;
class QCPAbstractLegendItem;
class QCPAbstractPlottable;
class QCPAxis;
class QCPAxisRect;
class QCPBarsGroup;
class QCPColorMap;
class QCPItemText;
class QCPItemStraightLine;
class QCPItemTracer;
class QCPLayer;
class QCPLayoutGrid;
class QCPLayoutInset;
class QCPLegend;
class QCPMarginGroup;
class QCPScatterStyle;
class QMouseEvent;
class QWheelEvent;

namespace evx {

class PlotView : public QWidget {
    Q_OBJECT
public:
    explicit PlotView(QWidget* parent = nullptr);
    ~PlotView() override;

    // Draws `figure` (updating the plottables in place when only data changed) and queues a
    // replot; rendered() follows it.
    void setFigure(const evx::Figure& figure);
    const evx::Figure& figure() const { return m_source; } // as given: without pinned curves
    QCustomPlot* customPlot() const { return m_plot; }

    double lastRenderMs() const { return m_lastRenderMs; } // wall time of the last full replot
    void renderNow();                                      // synchronous replot

    void resetView();                  // fit every plot to its data, drop all zoom locks
    void resetPlotView(int plotIndex); // the same for one plot
    bool isUserZoomed(int plotIndex) const;
    // Lock a plot's current ranges, as a pan or wheel zoom with the mouse does.
    void markUserZoomed(int plotIndex);

    // Held ranges, while a slider is dragged or Play steps a parameter: later figures keep
    // every plot's axis ranges and legend corner, so that the motion shows, instead of
    // refitting each frame. A side of an axis moves only when the data pass it by more than
    // kHoldSlack of the axis's span (then to the data's extent), and an axis whose data
    // shrank below kHoldShrink of its span refits, so no curve is ever lost off the frame or
    // flattened to a line. Releasing the hold refits every plot the user has not zoomed.
    static constexpr double kHoldSlack = 0.1, kHoldShrink = 0.05;
    void setHoldRanges(bool hold);
    bool holdsRanges() const { return m_hold; } // for a drag, Play or a stream

    // An animation's fixed axes (app/animation.cpp): each plot's fit also covers its entry of
    // setFitExtents (x and y as the data span them, before padding and legend headroom), the
    // union over all frames, so that every frame fits the axes its widest frame fits alone, as
    // a still of that frame does. dataExtents(): the current figure's own, as last fitted.
    struct DataExtent {
        bool valid = false;
        double xLo = 0, xHi = 0, yLo = 0, yHi = 0;
    };
    void setFitExtents(std::vector<DataExtent> extents); // by plot index; empty: none
    const std::vector<DataExtent>& dataExtents() const { return m_dataExtents; }

    // Streamed frames (plot_view_hold.cpp): the partial figures of one long run (training
    // epochs, acquisitions, progressive figures). The first frame of a run fits its data as
    // setFigure does; the frames after it of the same run hold the ranges and legend corners
    // as a slider drag does, so that the plot does not jump on every frame. setFigure (the
    // run's final figure) or endStream() ends the stream and refits once.
    void setStreamedFigure(const evx::Figure& partial, quint64 run);
    void endStream();
    bool isStreaming() const { return m_streamRun != 0; }

    // Text on screen is kScreenFontPt times the font scale (1 normally, larger in presentation
    // mode); lines, marks and gaps follow. Changing it rebuilds the plot; zoom locks stay.
    static constexpr double kScreenFontPt = 9;
    void setFontScale(double scale);
    // A row of flowing plots gets at least a frame of kLeastFrameEms ems with its tick and axis
    // labels, its title's lines and the lines of a legend that goes below a narrow cell (as
    // naturalHeightMm estimates them, at the view's width); a row of a grid that names its cells
    // (a corner plot, whose frames carry no title) kLeastGridRowEms. A window shorter than that
    // scrolls the view (MainWindow) instead of crushing it.
    QSize minimumSizeHint() const override;
    static constexpr double kLeastFrameEms = 7, kLeastGridRowEms = 7;
    double fontScale() const { return m_fontScale; }

    // High contrast, for projectors that wash colours out: lines and markers 1.75 times as
    // thick, bands hatched in their full colour instead of a faint fill, opaque bars and points,
    // a darker grid and an opaque, black-framed legend; text stays black on white. The palette
    // (and so the JSON export's colours) is the same in both themes.
    enum class Theme { Standard, HighContrast };
    void setTheme(Theme theme);
    Theme theme() const { return m_theme; }

    // Exports render offscreen; the widget on screen is unchanged. Hover read-outs are never
    // exported, nor legend entries of hidden series.
    QImage toImage(int width, int height);    // at the screen's sizes, e.g. for the clipboard
    enum class ImageFormat { Png, Pdf, Svg }; // PDF and SVG are vector
    // The bytes of an image file of the figure; empty if rendering failed.
    QByteArray encode(ImageFormat format, const PrintSize& size);
    // Pixels at 96 per inch with the screen's text size.
    QByteArray encode(ImageFormat format, int width, int height);
    // The pixels a PNG export at `size` holds, unencoded (animation frames); null on failure.
    QImage renderImage(const PrintSize& size);

    // The height that suits the figure's grid of plots when only a width is asked for: each
    // plot's frame 0.6 times as high as wide (square in a grid that names its cells, a corner
    // plot), plus room for its title, tick labels and axis label at fontPt, as estimated from
    // the text's length; at most a page's height (250 mm) or, if wider, the width. Then the
    // figure is laid out at that size (as a PDF export, offscreen) and, if a frame is less than
    // kLeastFrameAspect times as high as wide or shorter than its y label's longest word plus
    // an em, the page grows by what the frames lack (a single column of many plots with
    // legends below them), up to kMaxGrownHeightMm; but a figure whose frames are at least
    // kLeastPageFrameAspect times as high as wide on a 250 mm page stays on that page (a
    // journal's). Without a QApplication, the estimate only.
    static double naturalHeightMm(const evx::Figure& figure, double widthMm, double fontPt);
    static constexpr double kMaxNaturalHeightMm = 250, kMaxGrownHeightMm = 1000;
    static constexpr double kLeastFrameAspect = 0.45, kLeastPageFrameAspect = 0.3;

    // What an export at `size` lays out, in its layout units (PNG pixels; a quarter point for
    // PDF and SVG): the page, every title, axis label, tick label and legend, and last each
    // plot's frame, for tests that nothing leaves the page or overlaps.
    struct TextBox {
        QString what; // e.g. "plot 2 x tick 0.5", "legend 0", "plot 2 frame"
        QRectF rect;
    };
    std::vector<TextBox> exportLayout(ImageFormat format, const PrintSize& size);

    // Hidden series (and bands) by key "plot title/series name"; kept across figures.
    QStringList hiddenSeries() const;
    void setHiddenSeries(const QStringList& keys);
    void setSeriesVisible(int plotIndex, const QString& seriesName, bool visible);
    bool isSeriesVisible(int plotIndex, const QString& seriesName) const; // false if no such plot

    // Pins ("before and after", plot_view_pins.cpp): the curves of earlier figures drawn as
    // faint ghosts under the current one. A pin's line, step and scatter series join the
    // current plot with the same title and axes, in the colours they had, thinner (kGhostWidth
    // of a line), dashed and translucent (kGhostAlpha), under one legend entry named `label`.
    // Bands, bars and heat maps are not pinned. Ghosts count in the fitted ranges (so they
    // stay visible) and are hidden like a series by their label, but are never part of
    // figure(), the hover read-out or anything but the drawing and its image exports.
    struct Pin {
        QString label;
        evx::Figure figure;
    };
    static constexpr int kGhostAlpha = 110;
    static constexpr double kGhostWidth = 0.6;
    void setPins(std::vector<Pin> pins); // redraws the current figure with them
    const std::vector<Pin>& pins() const { return m_pins; }
    void setPinLabels(const QStringList& labels); // one per pin; redraws only if one changed
    int ghostCount(int plotIndex) const;          // ghost plottables drawn in a plot
    // What a pin keeps of a figure: its line, step and scatter series by plot (title and axes),
    // each with the palette index it is drawn in (an automatic colour resolved as drawn).
    static evx::Figure pinnedCurves(const evx::Figure& figure);

    // The axis rect showing plot `plotIndex` of the current figure, or nullptr.
    QCPAxisRect* axisRect(int plotIndex) const;

signals:
    void rendered();                                      // a replot of a new figure completed
    void pointClicked(int plotIndex, double x, double y); // left click (no drag) in a plot

private:
    // Layout units per point and the base font size they are drawn with.
    struct Scale {
        double fontPt = kScreenFontPt;
        double unitsPerPt = PrintSize::kScreenDpi / PrintSize::kPointsPerInch;
        bool operator==(const Scale&) const = default;
    };

    // One legend entry: a series (one plottable) or a band (upper and lower edge graphs).
    struct Entry {
        QString name;
        bool isBand = false;
        int source = 0; // index into Plot::series or Plot::bands
        QColor colour;
        MarkerShape marker = MarkerShape::None; // series only (series_style.h)
        QPen scatterPen;                        // its markers' outline and fill while visible
        QBrush scatterBrush;
        std::vector<QCPAbstractPlottable*> plottables; // the first one carries the legend item
        std::vector<QPen> pens;                        // their styles while visible
        std::vector<QBrush> brushes;
        QCPAbstractLegendItem* legendItem = nullptr;
        bool sortedX = true;
        bool ghost = false; // a pinned figure's curve
    };
    struct PlotItems {
        QCPAxisRect* rect = nullptr;
        QCPLegend* legend = nullptr;
        QCPLayoutGrid* cell = nullptr;
        int rectRow = 0;                       // the axis rect's row in the cell (1 under a title)
        bool xShared = false, yShared = false; // tick labels left to a neighbour (corner plots)
        bool bareDensity = false;              // a corner plot's diagonal without a y label: no y tick labels
        std::vector<Entry> entries;
        std::vector<QCPColorMap*> maps; // by Plot::heatMaps index; nullptr if not drawable
        std::vector<QCPAbstractItem*> markerItems;
    };
    struct HeldRange {
        bool valid = false;
        double xLower = 0, xUpper = 1, yLower = 0, yUpper = 1;
        std::string xLabel, yLabel;
        bool logY = false;
    };
    // Where a plot's legend went the last time it was placed (placeLegend), reapplied while
    // ranges are held so that the legend stays put.
    struct LegendChoice {
        bool valid = false;
        bool below = false;
        Qt::Alignment alignment;
        double keep = 1; // share of the y span left to the data under headroom (1: none)
        int entries = 0;
        int wrap = 0;
        int fillOrder = 0; // QCPLayoutGrid::FillOrder
    };
    struct ViewLock {
        bool locked = false;
        double xLower = 0, xUpper = 1, yLower = 0, yUpper = 1;
        std::string xLabel, yLabel; // a lock only applies to a plot with the same axes
        bool logY = false;
    };

    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

    // plot_view.cpp: rebuild or update in place
    void syncHiddenViewport();
    void rebuild();
    bool updateData(); // false if the plottables no longer fit the data
    void clearPlot();
    QString keyFor(int plotIndex, const QString& name) const; // shared-legend plots share keys
    bool hasExplicitGrid() const;                             // every plot names its grid cell
    // Plots that name no cell flow into two columns beyond three plots, if a column can be
    // kTwoColumnEms / 2 ems wide or the view is not much taller than wide (a screen); else one
    // (a journal column).
    static constexpr double kTwoColumnEms = 64;
    int flowColumns() const;
    void keepFlowColumns(); // rebuilds if the viewport now wants another count
    std::vector<QCPLegend*> legends() const;

    // plot_view_scale.cpp: sizes from the scale, ticks from the room, export layouts
    Scale screenScale() const;
    double len(double screenPixels) const; // a length tuned at 9 pt on a 96 dpi screen, scaled
    int ilen(double screenPixels) const;
    QFont textFont(double relativeSize, bool bold = false) const;
    void styleAxis(QCPAxis* axis) const;
    void layOut(); // the layout QCustomPlot would compute for a replot now
    bool fitToRoom();
    bool settleToRoom(); // fitToRoom, and the columns, ranges and aspects a new viewport wants
    bool
    coversCurve(int plotIndex,
                const QRectF& box) const; // a visible curve passes through box (pixels)  // tick counts and
                                          // wrapped labels for the room the layout gave; true if any changed
    void layOutForSize();                 // legends, ranges, ticks and labels settled at the viewport's size
    bool equaliseGridCells();
    // plot_view_room.cpp: each frame's least size; true if one changed
    static constexpr double kLeastFrameEmsShort = 3;
    bool fitFrames();
    static double estimatedHeightMm(const evx::Figure& figure, double widthMm, double fontPt);
    // What the frames lack to be `aspect` times as high as wide, laid out as a PDF of `size`.
    double framesLackMm(const PrintSize& size, double aspect); // plot_view_export.cpp
    double framesLack(double aspect) const;
    QSizeF labelRoom(std::size_t index) const;
    double columnRoom(const PlotItems& items) const;
    void setScale(const Scale& scale);
    std::vector<TextBox> textBoxes() const;

    // plot_view_build.cpp: plottables and items for one plot
    void buildPlot(int index, QCPLayoutGrid* cell, int rectRow);
    void addSeries(int index, Entry& entry);
    QCPScatterStyle lineMarker(const QPen& linePen, MarkerShape marker) const;
    bool setSeriesData(int index, Entry& entry);
    void addBand(int index, Entry& entry);
    bool setBandData(int index, Entry& entry);
    QCPColorMap* addHeatMap(int index, const evx::HeatMap& map, QCPLayoutGrid* cell, int row, int column);
    void setHeatMapData(QCPColorMap* colourMap, const evx::HeatMap& map);
    void addMarkers(int index);
    QCPLegend* newLegend(QCPLayoutInset* inset, Qt::Alignment alignment);
    void addLegendItem(QCPLegend* legend, Entry& entry);
    void buildSharedLegend(bool explicitGrid);

    // plot_view_state.cpp: ranges, zoom lock, visibility
    void fitToData(int index);
    void placeLegend(int index); // plot_view_legend.cpp
    void setLegendBelow(int index, bool below);
    void fitLegendBelow(int index, double width); // as many columns as the width holds
    bool fitCornerLegend();                       // the shared legend of a corner plot: off every frame
    QCPAxisRect* cornerLegendHost() const;        // the empty cell that holds it, or nullptr
    void shareGridAxes();                         // corner plots: a column shares x, a row shares y
    void captureLockedRanges();
    void captureHeldRanges();
    void holdRanges(int index);    // merges the fitted ranges into the held ones
    bool reapplyLegend(int index); // the held legend choice; false if there is none
    void recordLegend(int index, double keep);
    double chooseLegendPlace(int index); // plot_view_legend.cpp; returns the headroom's keep
    void applyLocksOrFit();
    // Plot::equalAspect: one unit as long along x as along y, up to kAspectTolerance, by widening
    // one axis; true if it changed a range.
    static constexpr double kAspectTolerance = 0.01;
    bool keepAspect(int index);
    void applyVisibility(int index, Entry& entry);

    // plot_view_pins.cpp
    Figure withPins(const Figure& figure); // sets m_ghostFrom
    bool isGhost(int plotIndex, int seriesIndex) const;
    void styleGhost(Entry& entry);

    // plot_view_export.cpp
    class ExportScope;
    friend class ExportScope;

    // plot_view_interaction.cpp: mouse, hover
    void connectInteraction();
    void onMousePress(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    void onMouseDoubleClick(QMouseEvent* event);
    void onWheel(QWheelEvent* event);
    void onLegendClick(QCPLegend* legend, QCPAbstractLegendItem* item);
    int plotIndexAt(const QPointF& pos) const;
    bool isOverLegend(int plotIndex, const QPointF& pos) const;
    void createHoverItems();
    QCPItemTracer* hoverTracer(std::size_t i);
    void updateHover(const QPointF& pos);
    void hideHover();

    QCustomPlot* m_plot = nullptr;
    evx::Figure m_figure; // what is drawn: m_source and the pins' ghosts
    evx::Figure m_source;
    std::vector<Pin> m_pins;
    std::vector<std::size_t> m_ghostFrom; // by plot: index of its first ghost series
    QCPLayer* m_ghostLayer = nullptr;     // under the current figure's plottables
    std::vector<PlotItems> m_plots;
    std::vector<ViewLock> m_locks;             // by plot index
    std::vector<HeldRange> m_held;             // by plot index, while m_hold
    std::vector<LegendChoice> m_legendChoices; // by plot index
    std::vector<DataExtent> m_fitExtents;      // setFitExtents
    std::vector<DataExtent> m_dataExtents;     // by plot index, from the last fit of each
    bool m_hold = false;                       // in effect: asked for (m_holdAsked) or a stream in progress
    bool m_holdAsked = false;                  // setHoldRanges
    quint64 m_streamRun = 0;                   // the run whose frames stream, 0 when none
    void applyHold(bool release);              // m_hold from the two reasons; a release refits if `release`
    void showFigure(const evx::Figure& figure);
    std::vector<QCPMarginGroup*> m_marginGroups;
    std::vector<QCPBarsGroup*> m_barsGroups;
    QCPLegend* m_sharedLegend = nullptr; // for LegendPlace::Shared plots; owned by its layout
    QSet<QString> m_hidden;

    QCPLayer* m_overlay = nullptr; // buffered layer: hover items replot alone
    QCPItemStraightLine* m_hoverLine = nullptr;
    QCPItemText* m_hoverText = nullptr;
    std::vector<QCPItemTracer*> m_hoverTracers;
    int m_hoverPlot = -1; // plot the read-out is shown in, or -1
    QPointF m_hoverPos;

    int m_pressPlot = -1; // left press inside a plot that may become a click or a drag
    QPointF m_pressPos;
    bool m_dragged = false;

    Scale m_scale;
    double m_fontScale = 1;
    Theme m_theme = Theme::Standard;
    bool m_tickRefitQueued = false;
    bool m_inReplot = false;          // between beforeReplot and afterReplot
    bool m_settledBeforeDraw = false; // this replot's layout needed no more fitting (afterLayout)
    QSize m_placedFor;                // viewport size the legends were last placed for
    int m_builtFlowColumns = 1;

    QElapsedTimer m_replotTimer;
    double m_lastRenderMs = 0;
    bool m_newFigurePending = false;
};

} // namespace evx
