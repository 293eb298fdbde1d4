// Pin labels ("pinned: σ_obs = 0.025 s"), for the window and the command line alike.
#include "pin_labels.h"

#include <QObject>

#include <map>

namespace evx {

namespace {

// "sigma_obs" -> "σ_obs": a parameter named after a Greek letter reads as the formula's symbol.
QString greekSymbol(const std::string& name)
{
    static const std::map<QString, QString> letters = {
        {"alpha", "α"}, {"beta", "β"},  {"gamma", "γ"},  {"delta", "δ"}, {"epsilon", "ε"}, {"eta", "η"},
        {"theta", "θ"}, {"kappa", "κ"}, {"lambda", "λ"}, {"mu", "μ"},    {"nu", "ν"},      {"rho", "ρ"},
        {"sigma", "σ"}, {"tau", "τ"},   {"phi", "φ"},    {"omega", "ω"}};
    const QString text = QString::fromStdString(name);
    const qsizetype cut = text.indexOf('_');
    const auto letter = letters.find(text.left(cut));
    if (letter == letters.end())
        return {};
    return letter->second + (cut < 0 ? QString() : text.mid(cut));
}

constexpr int kMaxLabelValues = 3; // a legend entry, not a table: the rest as "…"

} // namespace

QString pinLabel(const ParameterSchema& schema, const ParameterValues& pinned, const ParameterValues& current)
{
    QStringList differing;
    for (const ParameterSpec& spec : schema.specs()) {
        const auto then = pinned.find(spec.name);
        const auto now = current.find(spec.name);
        if (then == pinned.end() || now == current.end())
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
        return QObject::tr("pinned");
    if (differing.size() > kMaxLabelValues) {
        differing = differing.mid(0, kMaxLabelValues);
        differing << QStringLiteral("…");
    }
    return QObject::tr("pinned: %1").arg(differing.join(QStringLiteral(", ")));
}

QStringList pinLabels(const ParameterSchema& schema, const std::vector<PinnedFigure>& pins,
                      const ParameterValues& current)
{
    QStringList labels;
    for (const PinnedFigure& pin : pins)
        labels << pinLabel(schema, pin.values, current);
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

} // namespace evx
