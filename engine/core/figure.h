#pragma once
// Figure: the plain-data result of one scenario run. Widgets only draw it and
// exporters only serialise it, so everything a user sees is testable without Qt.

#include <string>
#include <utility>
#include <vector>

namespace evx {

enum class SeriesKind { Line, Step, Scatter, Bar };

// Colours are indices into the view's Okabe–Ito palette: 0 orange, 1 sky blue,
// 2 bluish green, 3 blue, 4 vermillion, 5 reddish purple, 6 yellow (poor as a thin line);
// -1 takes the next free one; kReferenceColour is black, for priors and reference curves.
inline constexpr int kAutoColour = -1;
inline constexpr int kReferenceColour = -2;

// Line style is a hint for the view; colours come from the view's palette by index
// so every plot in the application shares one colour-blind-safe scheme.
struct Series {
    std::string name;
    SeriesKind kind = SeriesKind::Line;
    std::vector<double> x;
    std::vector<double> y;    // NaN breaks a line
    int colour = kAutoColour; // palette index, see above
    bool dashed = false;
    int emphasis = 0;  // +1 drawn bold (the reading the user asked to focus on), -1 faded
    bool thin = false; // drawn at half the line width: the outer of two nested credible contours
};

// A shaded region between lower and upper, e.g. "±2 sd"; its name says what it means.
struct Band {
    std::string name;
    std::vector<double> x;
    std::vector<double> lower;
    std::vector<double> upper;
    int colour = kAutoColour;
};

// Values on a regular grid, row-major: values[iy * nx + ix].
struct HeatMap {
    std::string name;
    double xMin = 0, xMax = 1, yMin = 0, yMax = 1;
    int nx = 0, ny = 0;
    std::vector<double> values;
};

// A vertical line at x, e.g. a true value to compare posteriors with.
struct Marker {
    std::string name;
    double x = 0;
};

// Where a plot's legend goes.
enum class LegendPlace {
    Inside, // its own legend, in the corner of the plot its data leave freest
    Shared, // one legend for every Shared plot of the figure, each name once; hiding a name
            // there hides it in all of them. The view puts it in an empty cell of the top
            // row of an explicit grid (a corner plot's upper triangle), else inside the first.
};

struct Plot {
    std::string title;
    std::string xLabel;
    std::string yLabel;
    std::vector<Series> series;
    std::vector<Band> bands;
    std::vector<HeatMap> heatMaps;
    std::vector<Marker> markers;
    bool logY = false;
    // The cell in the view's grid; row < 0 lets the view flow the plots into one or two
    // columns. A figure places every plot or none.
    int row = -1;
    int column = -1;
    LegendPlace legend = LegendPlace::Inside;
    // Dense grids (corner plots) leave the title to exports and the hover read-out: their
    // axis labels already say what a plot shows, and a title row per plot costs the data room.
    bool showTitle = true;
    // Axes that count (samples n, epochs, labs): ticks at integers only, never 2.5 samples.
    bool xInteger = false;
    bool yInteger = false;
    // The plot means geometry (x and y in one unit, e.g. circles of means ± sd): one unit
    // spans as many pixels along x as along y, so a circle stays a circle.
    bool equalAspect = false;
};

struct Table {
    std::string title;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
};

// Ordered name -> number; keys are "<thing>.<statistic>", lower case, dot separated.
class Summary {
public:
    void set(const std::string& key, double value);
    bool contains(const std::string& key) const;
    double value(const std::string& key) const; // throws std::out_of_range
    const std::vector<std::pair<std::string, double>>& entries() const { return m_entries; }
    bool empty() const { return m_entries.empty(); }

private:
    std::vector<std::pair<std::string, double>> m_entries;
};

struct Figure {
    std::vector<Plot> plots;
    Summary summary;
    std::vector<Table> tables;
    std::vector<std::string> warnings;
    // The observations the figure was computed from (simulated or loaded), by name, e.g.
    // {"x": …, "y": …}; the JSON export writes them under "data" so that anyone can
    // recompute the figure's numbers from the file alone (DESIGN.md). A name "group.column"
    // goes under a top-level "group" instead, for per-datum quantities that are not data
    // (e.g. "latent.mu" → "latent": {"mu": …}).
    std::vector<std::pair<std::string, std::vector<double>>> data;
    // Observations that are matrices, by name, written as nested arrays (one per row) under
    // "data" beside the vectors above, e.g. {"X": [[…], …]} for the rows of a data matrix.
    std::vector<std::pair<std::string, std::vector<std::vector<double>>>> dataMatrices;
};

} // namespace evx
