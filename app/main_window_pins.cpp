// The main window's pins: the current figure's curves kept as faint ghosts ("before and
// after"), labelled with the parameters that differ from the current ones.
#include "main_window.h"

#include "plot/plot_view.h"

#include <QStatusBar>

namespace evx {

namespace {

// "sigma_obs" -> "σ_obs": a parameter named after a Greek letter reads as the formula's symbol.
QString greekSymbol(const std::string& name)
{
    static const std::map<QString, QString> letters = {
        {"alpha", "α"}, {"beta", "β"},   {"gamma", "γ"}, {"delta", "δ"},  {"epsilon", "ε"}, {"eta", "η"},
        {"theta", "θ"}, {"kappa", "κ"}, {"lambda", "λ"}, {"mu", "μ"},     {"nu", "ν"},       {"rho", "ρ"},
        {"sigma", "σ"}, {"tau", "τ"},   {"phi", "φ"},    {"omega", "ω"}};
    const QString text = QString::fromStdString(name);
    const qsizetype cut = text.indexOf('_');
    const auto letter = letters.find(text.left(cut));
    if (letter == letters.end())
        return {};
    return letter->second + (cut < 0 ? QString() : text.mid(cut));
}

constexpr int kMaxLabelValues = 3;  // a legend entry, not a table: the rest as "…"

}  // namespace

QString MainWindow::pinLabel(const ParameterValues& pinned) const
{
    if (!m_scenario)
        return tr("pinned");
    const ParameterSchema& schema = m_scenario->schema();
    QStringList differing;
    for (const ParameterSpec& spec : schema.specs()) {
        const auto then = pinned.find(spec.name);
        const auto now = m_figureValues.find(spec.name);
        if (then == pinned.end() || now == m_figureValues.end())
            continue;
        // Compared as shown: a slider's 0.05 and 0.05000000000000001 are one value.
        const std::string shown = schema.format(spec.name, then->second);
        if (shown == schema.format(spec.name, now->second))
            continue;
        QString symbol = greekSymbol(spec.name);
        if (symbol.isEmpty())
            symbol = QString::fromStdString(spec.label);
        QString value = QString::fromStdString(shown);
        if (!spec.unit.empty())
            value += ' ' + QString::fromStdString(spec.unit);
        differing << QStringLiteral("%1 = %2").arg(symbol, value);
    }
    if (differing.isEmpty())
        return tr("pinned");
    if (differing.size() > kMaxLabelValues) {
        differing = differing.mid(0, kMaxLabelValues);
        differing << QStringLiteral("…");
    }
    return tr("pinned: %1").arg(differing.join(QStringLiteral(", ")));
}

QStringList MainWindow::pinLabels() const
{
    QStringList labels;
    for (const PinnedFigure& pin : m_pins)
        labels << pinLabel(pin.values);
    // Two pins of one label would share a legend entry and hide together: number them.
    for (qsizetype i = 0; i < labels.size(); ++i) {
        if (labels.count(labels[i]) > 1) {
            const QString label = labels[i];
            int n = 0;
            for (QString& l : labels)
                if (l == label)
                    l += QStringLiteral(" (%1)").arg(++n);
        }
    }
    return labels;
}

void MainWindow::showPins()
{
    const QStringList labels = pinLabels();
    std::vector<PlotView::Pin> pins;
    for (std::size_t i = 0; i < m_pins.size(); ++i)
        pins.push_back({labels[qsizetype(i)], m_pins[i].figure});
    m_plotView->setPins(std::move(pins));
}

void MainWindow::pinFigure()
{
    if (m_figure.plots.empty()) {
        statusBar()->showMessage(tr("There is no figure to pin yet"), 3000);
        return;
    }
    m_pins.push_back({m_figureValues, PlotView::pinnedCurves(m_figure)});
    if (m_pins.size() > std::size_t(Session::kMaxPins))
        m_pins.erase(m_pins.begin());
    setWindowModified(true);
    showPins();
    statusBar()->showMessage(tr("Pinned: move a parameter to compare; Ctrl+Shift+P unpins"), 4000);
}

void MainWindow::unpinAll()
{
    if (m_pins.empty())
        return;
    m_pins.clear();
    setWindowModified(true);
    showPins();
}

}  // namespace evx
