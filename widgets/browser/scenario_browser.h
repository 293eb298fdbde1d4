#pragma once
// ScenarioBrowser: the scenarios grouped by topic, in the order the registry lists them.
// Topic rows are bold and cannot be selected; a scenario row shows its title, its summary as
// tooltip, and keeps its id in Qt::UserRole.

#include "core/scenario.h"

#include <QTreeWidget>

#include <vector>

namespace evx {

class ScenarioBrowser : public QTreeWidget {
    Q_OBJECT

public:
    explicit ScenarioBrowser(QWidget* parent = nullptr);

    void setScenarios(const std::vector<evx::ScenarioInfo>& scenarios);

    // Selects without emitting scenarioActivated; an unknown id clears the selection.
    void setCurrent(const QString& id);
    // The scenario last selected by the user or by setCurrent(), "" if none.
    QString current() const { return m_current; }

    QTreeWidgetItem* itemFor(const QString& id) const;

signals:
    void scenarioActivated(const QString& id);

private:
    void onSelectionChanged();

    QString m_current;
    bool m_silent = false;
};

} // namespace evx
